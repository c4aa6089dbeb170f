/** The caller's account: the current user, organizations and their members. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** `GET /users/me`: the user the key belongs to. */
export const CurrentUserSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  login: maybe(z.string()),
  name: maybe(z.string()),
  last_name: maybe(z.string()),
  plan: maybe(z.string()),
  projects_limit: maybe(z.number()),
  branches_limit: maybe(z.number()),
  max_autoscaling_limit: maybe(z.number()),
});
DOCUMENTED.add(CurrentUserSchema, { as: "CurrentUserInfoResponse" });
/** The current user. */
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** `GET /organizations/{org_id}`, and the items of `GET /users/me/organizations`. */
export const OrganizationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  handle: maybe(z.string()),
  plan: maybe(z.string()),
  managed_by: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
DOCUMENTED.add(OrganizationSchema, { as: "Organization" });
/** An organization. */
export type Organization = z.infer<typeof OrganizationSchema>;

/** `GET /users/me/organizations`. */
export const OrganizationsResponseSchema = z.looseObject({ organizations: z.array(OrganizationSchema) });
DOCUMENTED.add(OrganizationsResponseSchema, { as: "OrganizationsResponse" });
/** Body of the current user's organization list. */
export type OrganizationsResponse = z.infer<typeof OrganizationsResponseSchema>;

/**
 * An item of `GET /organizations/{org_id}/members`: the membership (its `role` is a string: the list
 * grows) and the user's email.
 */
export const OrgMemberSchema = z.looseObject({
  member: z.looseObject({
    id: z.string(),
    user_id: z.string(),
    org_id: maybe(z.string()),
    role: z.string(),
    joined_at: maybe(z.string()),
  }),
  user: maybe(z.looseObject({ email: z.string() })),
});
DOCUMENTED.add(OrgMemberSchema, { as: "MemberWithUser" });
/** A member of an organization. */
export type OrgMember = z.infer<typeof OrgMemberSchema>;

/** `GET /organizations/{org_id}/members`: one page, with the next page's cursor when there is one. */
export const OrgMembersResponseSchema = z.looseObject({
  members: z.array(OrgMemberSchema),
  pagination: maybe(z.looseObject({ next: maybe(z.string()) })),
});
DOCUMENTED.add(OrgMembersResponseSchema, { as: "GET /organizations/{org_id}/members 200" });
