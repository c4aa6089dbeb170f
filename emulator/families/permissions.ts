import type { EmulatorContext } from "../context";
import { HttpError, notFound } from "../errors";
import { newUuid } from "../ids";
import type { PermissionRecord, ProjectRecord } from "../records";
import type { Store } from "../state";

// Project permissions: a project shared with an email. The account of that email then acts on the
// project (it cannot delete it) and finds it in `GET /projects/shared`. A revoked grant is kept,
// with the time it was revoked, but no longer counts. Emails compare without regard to case.

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The project's grants that are not revoked, oldest first. */
export function liveGrants(project: ProjectRecord): PermissionRecord[] {
  return (project.permissions ?? []).filter((p) => p.revoked_at_ms === undefined);
}

/** Whether the project is shared with `email` (a grant not revoked); false without an email. */
export function isSharedWith(project: ProjectRecord, email: string | undefined): boolean {
  return email !== undefined && liveGrants(project).some((p) => sameEmail(p.email, email));
}

/** The live projects shared with `email`. */
export function projectsSharedWith(store: Store, email: string): ProjectRecord[] {
  return [...store.projects.values()].filter((p) => p.deleted_at_ms === undefined && isSharedWith(p, email));
}

/** Shares the project with `email`; 409 when a grant for that email is in force. */
export function grantPermission(
  ctx: EmulatorContext,
  project: ProjectRecord,
  email: string,
): PermissionRecord {
  if (isSharedWith(project, email)) {
    throw new HttpError(409, `project ${project.id} is already shared with ${email}`);
  }
  const grant: PermissionRecord = { id: newUuid(ctx.store.ids), email, granted_at_ms: ctx.clock.now() };
  project.permissions = [...(project.permissions ?? []), grant];
  ctx.changed();
  return grant;
}

/** Revokes the grant `permissionId`; 404 when the project has no such grant in force. */
export function revokePermission(
  ctx: EmulatorContext,
  project: ProjectRecord,
  permissionId: string,
): PermissionRecord {
  const grant = liveGrants(project).find((p) => p.id === permissionId);
  if (grant === undefined) throw notFound(`permission ${permissionId} not found in project ${project.id}`);
  grant.revoked_at_ms = ctx.clock.now();
  ctx.changed();
  return grant;
}
