import { checkOrgAdmin, findOrg, type Principal, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, forbidden, HttpError, notFound } from "../errors";
import { isoSeconds, newUuid } from "../ids";
import type { ProjectRecord, TransferRequestRecord } from "../records";
import { transferProject } from "./projects";

// Moving a project to another account (docs/api-rules.md §21): a transfer request made by whoever
// may give the project away, accepted before it expires by an account that may own projects; and
// the direct move of an organization's projects to another organization by a user who is an admin
// of the first and a member of the second. The project keeps its id, branches and computes.

/** How long a transfer request stays valid when the request gives no `ttl_seconds` (the document: 24 hours). */
export const DEFAULT_TRANSFER_TTL_SECONDS = 86_400;

/** Who owns a project, as a transfer request records it. */
function ownerOf(project: ProjectRecord): string {
  return project.org_id === undefined ? `user:${project.owner_user_id ?? ""}` : `org:${project.org_id}`;
}

/** How messages name an account. */
function accountName(owner: string): string {
  return owner.startsWith("org:")
    ? `organization ${owner.slice(4)}`
    : `the personal account of user ${owner.slice(5)}`;
}

/**
 * Checks the caller may give the project away: an admin of its organization (personal key) or the
 * organization's own key; for a personal project, its owner's personal key. 403 otherwise.
 */
export function checkGiveAway(ctx: EmulatorContext, principal: Principal, project: ProjectRecord): void {
  const { key } = principal;
  if (key.kind === "project")
    throw forbidden(`a project-scoped API key cannot transfer project ${project.id}`);
  if (project.org_id !== undefined) {
    checkOrgAdmin(ctx.store, principal, project.org_id, "transfer the organization's projects");
  } else if (key.kind !== "personal" || project.owner_user_id !== key.user_id) {
    throw forbidden(`project ${project.id} is shared with you: only its owner can transfer it`);
  }
}

/** Makes a transfer request of the project, valid `ttlSeconds` (400 unless positive). */
export function createTransferRequest(
  ctx: EmulatorContext,
  project: ProjectRecord,
  ttlSeconds = DEFAULT_TRANSFER_TTL_SECONDS,
): TransferRequestRecord {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw badRequest(`ttl_seconds must be a positive whole number of seconds, got ${ttlSeconds}`);
  }
  const now = ctx.clock.now();
  const request: TransferRequestRecord = {
    id: newUuid(ctx.store.ids),
    created_at_ms: now,
    expires_at_ms: now + ttlSeconds * 1000,
    from: ownerOf(project),
  };
  project.transfer_requests = [...(project.transfer_requests ?? []), request];
  ctx.changed();
  return request;
}

/**
 * The account a caller receives a project into: the organization `orgId` names (a member's personal
 * key, or that organization's own key), else the caller's own (the user's personal account, the
 * organization of an organization key). A project-scoped key receives nothing (403).
 */
function receiver(ctx: EmulatorContext, principal: Principal, orgId: string | undefined): string {
  const { key } = principal;
  if (key.kind === "project") throw forbidden("a project-scoped API key cannot receive a project");
  if (orgId === undefined) return key.kind === "personal" ? `user:${key.user_id}` : `org:${key.org_id ?? ""}`;
  findOrg(ctx.store, orgId);
  if (key.kind === "organization" && key.org_id !== orgId) {
    throw forbidden(`this organization API key acts only on organization ${key.org_id ?? ""}`);
  }
  if (key.kind === "personal" && ctx.store.membershipOf(orgId, key.user_id) === undefined) {
    throw forbidden(`you are not a member of organization ${orgId}`);
  }
  return `org:${orgId}`;
}

/**
 * Accepts a transfer request: the project moves to the caller's account, or to organization `orgId`.
 * 404 for an unknown project or request; 409 for a request already accepted, or made before the
 * project last changed hands; 410 once it expired; 400 when the project is already there.
 */
export function acceptTransferRequest(
  ctx: EmulatorContext,
  principal: Principal,
  projectId: string,
  requestId: string,
  orgId: string | undefined,
): ProjectRecord {
  const project = ctx.store.liveProject(projectId);
  if (!project) throw notFound(`project ${projectId} not found`);
  const request = project.transfer_requests?.find((r) => r.id === requestId);
  if (!request) throw notFound(`transfer request ${requestId} not found for project ${projectId}`);
  if (request.accepted_at_ms !== undefined) {
    throw new HttpError(409, `transfer request ${requestId} was already accepted`);
  }
  const now = ctx.clock.now();
  if (now >= request.expires_at_ms) {
    throw new HttpError(
      410,
      `transfer request ${requestId} expired at ${isoSeconds(request.expires_at_ms)}: ask the project's owner for a new one`,
    );
  }
  if (request.from !== ownerOf(project)) {
    throw new HttpError(
      409,
      `project ${projectId} changed hands since transfer request ${requestId} was made: ask its owner for a new one`,
    );
  }
  const to = receiver(ctx, principal, orgId);
  if (to === ownerOf(project)) throw badRequest(`project ${projectId} already belongs to ${accountName(to)}`);
  request.accepted_at_ms = now;
  return to.startsWith("org:")
    ? transferProject(ctx, projectId, to.slice(4))
    : transferProject(ctx, projectId, null, to.slice(5));
}

/**
 * Moves projects of organization `sourceOrgId` to `destinationOrgId`, all or none: the caller's
 * personal key, an admin of the source and a member of the destination (403 otherwise); 404 for an
 * organization or a project of the source not found; 400 when both organizations are one.
 */
export function transferOrgProjects(
  ctx: EmulatorContext,
  principal: Principal,
  sourceOrgId: string,
  destinationOrgId: string,
  projectIds: readonly string[],
): void {
  const user = requirePersonal(principal, "transferring projects between organizations");
  checkOrgAdmin(ctx.store, principal, sourceOrgId, "transfer the organization's projects");
  findOrg(ctx.store, destinationOrgId);
  if (ctx.store.membershipOf(destinationOrgId, user.id) === undefined) {
    throw forbidden(`you are not a member of organization ${destinationOrgId}`);
  }
  if (sourceOrgId === destinationOrgId) {
    throw badRequest(`the projects already belong to organization ${destinationOrgId}`);
  }
  for (const id of projectIds) {
    if (ctx.store.liveProject(id)?.org_id !== sourceOrgId) {
      throw notFound(`project ${id} not found in organization ${sourceOrgId}`);
    }
  }
  for (const id of projectIds) transferProject(ctx, id, destinationOrgId);
}
