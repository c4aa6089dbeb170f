import type { EmulatorContext } from "../context";
import { HttpError, notFound } from "../errors";
import type { OrgRecord, ProjectPermissionLevel, ProjectRecord, ProjectRole } from "../records";
import type { Store } from "../state";

// A project's members: the members of the organization that owns it, each with the permission the
// organization role gives by default, any explicit role set on the project, and what they hold
// (docs/api-rules.md §20). An organization admin holds ADMIN on every project whatever the explicit
// role; a plain member holds the explicit role, or the organization's default for members, or
// nothing (unassigned).

/** Where a member's permission on the project comes from. */
export type GrantSource = "explicit" | "org_role_default" | "org_admin_override" | "unassigned";

/** A member's standing on a project: their organization role and what it gives there. */
export interface Standing {
  orgRole: "admin" | "member";
  orgDefault: ProjectPermissionLevel | undefined;
  explicit: ProjectRole | undefined;
  effective: ProjectPermissionLevel | undefined;
  source: GrantSource;
}

/** The permission each project role gives. */
export const LEVEL: Record<ProjectRole, ProjectPermissionLevel> = {
  viewer: "VIEWER",
  editor: "EDITOR",
  admin: "ADMIN",
};
const RANK: Record<ProjectPermissionLevel, number> = { VIEWER: 1, EDITOR: 2, ADMIN: 3 };

/** A permission's rank: none is 0, VIEWER 1, EDITOR 2, ADMIN 3. */
export const rank = (level: ProjectPermissionLevel | undefined): number => (level ? RANK[level] : 0);

/** The organization that owns the project; 404 for a personal project, which has no members. */
export function owningOrg(store: Store, project: ProjectRecord): OrgRecord {
  const org = project.org_id === undefined ? undefined : store.orgs.get(project.org_id);
  if (!org) throw notFound(`project ${project.id} is not owned by an organization: it has no members`);
  return org;
}

/** The member's standing on the project as it is. */
export function standing(org: OrgRecord, project: ProjectRecord, userId: string): Standing {
  return standingWith(org, userId, project.member_roles?.[userId]);
}

/** The member's standing on a project where their explicit role is `explicit` (none: undefined). */
function standingWith(org: OrgRecord, userId: string, explicit: ProjectRole | undefined): Standing {
  const orgRole = org.members[userId] === "admin" ? "admin" : "member";
  const orgDefault: ProjectPermissionLevel | undefined =
    orgRole === "admin"
      ? "ADMIN"
      : org.member_project_permission === null
        ? undefined
        : (org.member_project_permission ?? "EDITOR");
  const base = { orgRole, orgDefault, explicit } as const;
  if (orgRole === "admin")
    return { ...base, effective: "ADMIN", source: explicit === "admin" ? "explicit" : "org_admin_override" };
  if (explicit !== undefined) return { ...base, effective: LEVEL[explicit], source: "explicit" };
  if (orgDefault !== undefined) return { ...base, effective: orgDefault, source: "org_role_default" };
  return { ...base, effective: undefined, source: "unassigned" };
}

/** What a change did to the member: their standing before and after it. */
export interface RoleChange {
  before: Standing;
  after: Standing;
}

/**
 * Checks a change of the caller's own role: lowering what they hold needs `confirm_self_demotion`,
 * losing ADMIN through a removal needs `confirm_self_lockout` (409 otherwise).
 */
function checkSelf(
  change: RoleChange,
  self: boolean,
  flag: "demotion" | "lockout",
  confirmed: boolean,
): void {
  if (!self || confirmed) return;
  const { before, after } = change;
  if (flag === "demotion" && rank(after.effective) < rank(before.effective))
    throw new HttpError(
      409,
      `this lowers your own permission on the project from ${before.effective} to ${after.effective}: repeat with confirm_self_demotion=true to go ahead`,
    );
  if (flag === "lockout" && before.effective === "ADMIN" && after.effective !== "ADMIN")
    throw new HttpError(
      409,
      `removing your own role leaves you ${after.effective ?? "no"} permission on the project, without ADMIN: repeat with confirm_self_lockout=true to go ahead`,
    );
}

/** Sets the member's explicit role (the same role again changes nothing); see `checkSelf`. */
export function setMemberRole(
  ctx: EmulatorContext,
  org: OrgRecord,
  project: ProjectRecord,
  userId: string,
  role: ProjectRole,
  self: { self: boolean; confirmed: boolean },
): RoleChange {
  const change = { before: standing(org, project, userId), after: standingWith(org, userId, role) };
  checkSelf(change, self.self, "demotion", self.confirmed);
  project.member_roles = { ...project.member_roles, [userId]: role };
  ctx.changed();
  return change;
}

/** Removes the member's explicit role, back to the default; without one it changes nothing. */
export function removeMemberRole(
  ctx: EmulatorContext,
  org: OrgRecord,
  project: ProjectRecord,
  userId: string,
  self: { self: boolean; confirmed: boolean },
): RoleChange {
  const change = { before: standing(org, project, userId), after: standingWith(org, userId, undefined) };
  checkSelf(change, self.self, "lockout", self.confirmed);
  if (project.member_roles?.[userId] !== undefined) {
    const { [userId]: _removed, ...rest } = project.member_roles;
    project.member_roles = rest;
    ctx.changed();
  }
  return change;
}
