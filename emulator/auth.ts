import { forbidden, notFound, unauthorized } from "./errors";
import { isSharedWith } from "./families/permissions";
import type { KeyRecord, OrgRecord, OrgRole, ProjectRecord, UserRecord } from "./records";
import type { Store } from "./state";

// Authentication and the scope rules of the three key kinds (docs/api-rules.md §6).
//
//   key kind      | acts on                                   | creates keys | creates projects | org actions
//   personal      | own projects + projects of member orgs    | yes          | yes              | as its user's role
//                 | + projects shared with its user's email   |              |                  |
//   organization  | every project of its organization         | no           | in its org       | list/revoke org keys
//   project       | its one project (member rights)           | no           | no               | no
//
// 401: no key, a malformed header, an unknown, revoked or disabled key.
// 403: a valid key outside its scope, including an existing project it cannot see
//      (a 404 there would make a tool like Pulumi conclude the object is gone).
// 404: the object does not exist.

/** Who is calling. */
export interface Principal {
  key: KeyRecord;
  /** The personal key's owner, or the creator of an organization / project-scoped key. */
  user: UserRecord | undefined;
  /** The rate-limit account: the user for personal keys, the organization otherwise. */
  account: string;
}

/** Resolves the Authorization header to a principal and records the key's use; throws 401. */
export function authenticate(store: Store, header: string | undefined, nowMs: number, ip: string): Principal {
  if (header === undefined || header.trim() === "") throw unauthorized("authorization header is missing");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("malformed authorization header: expected 'Bearer <API key>'");
  const key = store.keyForToken(match[1] as string);
  if (!key) throw unauthorized("invalid API key");
  if (key.revoked) throw unauthorized("API key has been revoked");
  if (key.kind === "project" && key.disabled_reason === undefined) {
    const project = store.projects.get(key.project_id ?? "");
    if (!project || project.org_id !== key.org_id) {
      key.disabled_reason = `project ${key.project_id ?? ""} left organization ${key.org_id ?? ""}`;
    }
  }
  if (key.disabled_reason !== undefined)
    throw unauthorized(`API key is no longer valid: ${key.disabled_reason}`);
  key.last_used_at_ms = nowMs;
  key.last_used_from_addr = ip;
  const user = store.users.get(key.user_id);
  const account = key.kind === "personal" ? `user:${key.user_id}` : `org:${key.org_id ?? ""}`;
  return { key, user, account };
}

/** The personal key's user; throws 403 for organization and project-scoped keys. */
export function requirePersonal(principal: Principal, action: string): UserRecord {
  if (principal.key.kind !== "personal" || !principal.user) {
    throw forbidden(`${action} requires a personal API key (this is ${describeKey(principal.key)})`);
  }
  return principal.user;
}

/**
 * The project, if the caller may act on it; 404 when it does not exist (or is deleted, unless
 * `deleted` asks for a deleted one), 403 when out of scope.
 */
export function accessProject(
  store: Store,
  principal: Principal,
  projectId: string,
  deleted = false,
): ProjectRecord {
  const project = store.projects.get(projectId);
  if (!project || (project.deleted_at_ms !== undefined) !== deleted) {
    throw notFound(deleted ? `no deleted project ${projectId} to recover` : `project ${projectId} not found`);
  }
  if (ownsOrBelongs(store, principal, project) || isSharedWith(project, sharedEmail(principal)))
    return project;
  const { key } = principal;
  switch (key.kind) {
    case "personal":
      throw forbidden(`this personal API key's user has no access to project ${projectId}`);
    case "organization":
      throw forbidden(`this organization API key acts only on projects of organization ${key.org_id ?? ""}`);
    case "project":
      throw forbidden(`this project-scoped API key acts only on project ${key.project_id ?? ""}`);
  }
}

/**
 * Whether the caller reaches the project otherwise than through a share: its owner's or a member's
 * personal key, its organization's key, or its own project-scoped key.
 */
export function ownsOrBelongs(store: Store, principal: Principal, project: ProjectRecord): boolean {
  const { key } = principal;
  switch (key.kind) {
    case "personal":
      return (
        (project.owner_user_id !== undefined && project.owner_user_id === key.user_id) ||
        (project.org_id !== undefined && store.membershipOf(project.org_id, key.user_id) !== undefined)
      );
    case "organization":
      return project.org_id !== undefined && project.org_id === key.org_id;
    case "project":
      return project.id === key.project_id;
  }
}

/** The email a share reaches: a personal key's user's; other keys have none. */
function sharedEmail(principal: Principal): string | undefined {
  return principal.key.kind === "personal" ? principal.user?.email : undefined;
}

/**
 * Projects `GET /projects` lists. Like the real service, a personal key lists the user's personal
 * projects, or an organization's projects when `org_id` names one the user belongs to.
 */
export function listableProjects(
  store: Store,
  principal: Principal,
  orgId: string | undefined,
  deleted = false,
): ProjectRecord[] {
  const { key } = principal;
  if (orgId !== undefined && !store.orgs.has(orgId)) throw notFound(`organization ${orgId} not found`);
  const all = [...store.projects.values()].filter((p) => (p.deleted_at_ms !== undefined) === deleted);
  switch (key.kind) {
    case "personal":
      if (orgId === undefined)
        return all.filter((p) => p.org_id === undefined && p.owner_user_id === key.user_id);
      if (store.membershipOf(orgId, key.user_id) === undefined)
        throw forbidden(`you are not a member of organization ${orgId}`);
      return all.filter((p) => p.org_id === orgId);
    case "organization":
      if (orgId !== undefined && orgId !== key.org_id) {
        throw forbidden(`this organization API key acts only on organization ${key.org_id ?? ""}`);
      }
      return all.filter((p) => p.org_id === key.org_id);
    case "project":
      if (orgId !== undefined && orgId !== key.org_id) {
        throw forbidden(`this project-scoped API key acts only on project ${key.project_id ?? ""}`);
      }
      return all.filter((p) => p.id === key.project_id);
  }
}

/** The organization, if it exists; 404 otherwise. */
export function findOrg(store: Store, orgId: string): OrgRecord {
  const org = store.orgs.get(orgId);
  if (!org) throw notFound(`organization ${orgId} not found`);
  return org;
}

/** Checks the caller may create a key in the organization; the key's rules are `orgKeyFields`. */
export function checkCreateOrgKey(principal: Principal): UserRecord {
  return requirePersonal(principal, "creating organization or project-scoped API keys");
}

/** The fields of a new organization key (no project) or project-scoped key, by the key rules. */
export type OrgKeyFields = Pick<KeyRecord, "kind" | "org_id" | "project_id">;

/**
 * The one place the organization-key rules live (API and console alike): the user must be a
 * member (403); an organization key needs an admin (403); a project-scoped key needs an existing
 * project (404) of that organization (403).
 */
export function orgKeyFields(
  store: Store,
  userId: string,
  orgId: string,
  projectId: string | undefined,
): OrgKeyFields {
  findOrg(store, orgId);
  const membership = store.membershipOf(orgId, userId);
  if (membership === undefined) throw forbidden(`you are not a member of organization ${orgId}`);
  if (projectId === undefined) {
    if (membership !== "admin") throw forbidden("only organization admins can create organization API keys");
    return { kind: "organization", org_id: orgId };
  }
  const project = store.liveProject(projectId);
  if (!project) throw notFound(`project ${projectId} not found`);
  if (project.org_id !== orgId)
    throw forbidden(`project ${projectId} does not belong to organization ${orgId}`);
  return { kind: "project", org_id: orgId, project_id: projectId };
}

/**
 * The caller's standing for organization key actions: the organization's own key, or a member's
 * membership (admin or member) through their personal key. Project-scoped keys, other
 * organizations' keys and non-members get 403.
 */
function orgKeyStanding(store: Store, principal: Principal, orgId: string): "org-key" | OrgRole {
  findOrg(store, orgId);
  const { key } = principal;
  if (key.kind === "project")
    throw forbidden("organization actions are not allowed with a project-scoped API key");
  if (key.kind === "organization") {
    if (key.org_id !== orgId)
      throw forbidden(`this organization API key acts only on organization ${key.org_id ?? ""}`);
    return "org-key";
  }
  const membership = store.membershipOf(orgId, key.user_id);
  if (membership === undefined) throw forbidden(`you are not a member of organization ${orgId}`);
  return membership;
}

/** Checks the caller may read the organization (its keys, members): any member's personal key, or the org's own key. */
export function checkReadOrg(store: Store, principal: Principal, orgId: string): OrgRecord {
  orgKeyStanding(store, principal, orgId);
  return findOrg(store, orgId);
}

/** Checks the caller may revoke the organization's keys: an admin's personal key, or the org's own key. */
export function checkRevokeOrgKey(store: Store, principal: Principal, orgId: string): void {
  checkOrgAdmin(store, principal, orgId, "revoke organization and project-scoped API keys");
}

/** Checks the caller acts as the organization's administrator: an admin's personal key, or the org's own key. */
export function checkOrgAdmin(store: Store, principal: Principal, orgId: string, action: string): OrgRecord {
  const standing = orgKeyStanding(store, principal, orgId);
  if (standing !== "org-key" && standing !== "admin")
    throw forbidden(`only organization admins can ${action}`);
  return findOrg(store, orgId);
}

function describeKey(key: KeyRecord): string {
  return key.kind === "organization" ? "an organization API key" : "a project-scoped API key";
}
