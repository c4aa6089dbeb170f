/** An organization's governance: a member's details, its invitations and its spending limit. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/**
 * `GET`, `PATCH /organizations/{org_id}/members/{member_id}`: one membership. `role` is a string:
 * the document lists more roles than every organization has, and the list grows.
 */
export const MemberSchema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  org_id: z.string(),
  role: z.string(),
  joined_at: maybe(z.string()),
});
DOCUMENTED.add(MemberSchema, { as: "Member" });
/** A membership of an organization. */
export type Member = z.infer<typeof MemberSchema>;

/** An item of `GET`, `POST /organizations/{org_id}/invitations`. */
export const InvitationSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  org_id: z.string(),
  invited_by: z.string(),
  invited_at: z.string(),
  role: z.string(),
});
DOCUMENTED.add(InvitationSchema, { as: "Invitation" });
/** An invitation to join an organization. */
export type Invitation = z.infer<typeof InvitationSchema>;

/** `GET`, `POST /organizations/{org_id}/invitations`. */
export const InvitationsResponseSchema = z.looseObject({ invitations: z.array(InvitationSchema) });
DOCUMENTED.add(InvitationsResponseSchema, { as: "OrganizationInvitationsResponse" });

/** `GET`, `PUT /organizations/{org_id}/billing/spending_limit`: the limit in cents, null when none is set. */
export const SpendingLimitSchema = z.looseObject({ spending_limit_cents: z.number().int().nullable() });
DOCUMENTED.add(SpendingLimitSchema, { as: "SpendingLimitResponse" });
/** An organization's spending limit. */
export type SpendingLimit = z.infer<typeof SpendingLimitSchema>;
