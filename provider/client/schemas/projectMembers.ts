/**
 * A project's members and their roles on it. The official document does not describe these routes
 * yet; @neon/sdk's types do, so each schema names its shape there (`in: "sdk"`).
 */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/**
 * A member of the project's organization and what they hold on the project. The roles and levels
 * are strings: the organization roles already number more than two, and the lists may grow.
 */
export const ProjectMemberSchema = z.looseObject({
  member_id: z.string(),
  user_id: z.string(),
  email: maybe(z.string()),
  org_role: z.string(),
  project_role: maybe(z.string()),
  org_default_project_permission: maybe(z.string()),
  explicit_project_permission: maybe(z.string()),
  effective_project_permission: maybe(z.string()),
  grant_source: maybe(z.string()),
});
DOCUMENTED.add(ProjectMemberSchema, { as: "ProjectMember", in: "sdk" });
/** A member of a project's organization, with their project role. */
export type ProjectMember = z.infer<typeof ProjectMemberSchema>;

/** `GET /projects/{project_id}/members`: one page of members. */
export const ProjectMembersSchema = z.looseObject({
  project_members: z.array(ProjectMemberSchema),
  pagination: maybe(z.looseObject({ next: maybe(z.string()) })),
});
DOCUMENTED.add(ProjectMembersSchema, { as: "ProjectMembers", in: "sdk" });

/** `PUT`, `DELETE /projects/{project_id}/members/{member_id}/role`: the member after the change. */
export const ProjectMemberRoleSchema = z.looseObject({
  project_id: z.string(),
  member_id: z.string(),
  user_id: z.string(),
  email: maybe(z.string()),
  org_role: z.string(),
  project_role: maybe(z.string()),
  effective_project_permission: maybe(z.string()),
  credential_rotation_recommended: maybe(z.boolean()),
});
DOCUMENTED.add(ProjectMemberRoleSchema, { as: "ProjectMemberRoleResponse", in: "sdk" });
/** A member's standing on a project after a role change. */
export type ProjectMemberRole = z.infer<typeof ProjectMemberRoleSchema>;
