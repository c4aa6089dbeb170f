import type { ProjectMember, ProjectMemberRoleResponse } from "@neon/sdk/raw";
import { memberId } from "../families/organizations";
import { LEVEL, type RoleChange, rank, type Standing } from "../families/project-members";
import type { OrgRecord, ProjectRecord } from "../records";
import type { Store } from "../state";

// A project's members and the answer to a role change, as the API shows them.

/** A member of the project's organization with what they hold on the project. */
export function renderProjectMember(
  org: OrgRecord,
  userId: string,
  s: Standing,
  store: Store,
): ProjectMember {
  const user = store.users.get(userId);
  return {
    member_id: memberId(org, userId),
    user_id: userId,
    ...(user ? { email: user.email, name: user.name } : {}),
    org_role: s.orgRole,
    ...(s.explicit ? { project_role: s.explicit, explicit_project_permission: LEVEL[s.explicit] } : {}),
    ...(s.orgDefault ? { org_default_project_permission: s.orgDefault } : {}),
    ...(s.effective ? { effective_project_permission: s.effective } : {}),
    grant_source: s.source,
  };
}

/**
 * The member after a role change, with the hints a lowered permission calls for: database
 * credentials they may hold, and project-scoped keys they created for the project, may need rotating.
 */
export function renderRoleChange(
  org: OrgRecord,
  project: ProjectRecord,
  userId: string,
  change: RoleChange,
  store: Store,
): ProjectMemberRoleResponse {
  const { grant_source: _source, ...member } = renderProjectMember(org, userId, change.after, store);
  const lowered = rank(change.after.effective) < rank(change.before.effective);
  const ownsKeys = [...store.keys.values()].some(
    (k) => k.kind === "project" && k.project_id === project.id && k.user_id === userId && !k.revoked,
  );
  return {
    project_id: project.id,
    ...member,
    credential_rotation_recommended: lowered,
    org_api_key_rotation_recommended: lowered && ownsKeys,
  };
}
