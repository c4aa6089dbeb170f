/**
 * The reads at preview that several kinds ask for (their `finds`, run by `lifecycle/preflight.ts`):
 * a region the service offers (`GET /regions`), a snapshot to restore from (the project's
 * snapshots), for a change only an organization's administrators make (a member's role, an
 * invitation, the spending limit) that the key is theirs or the organization's own, for a member's
 * project role that the key is not one that can never set it, for a move to another organization
 * that the key may give the project away, a note when a project to adopt is a deleted one the create
 * recovers, and a rule of a kind's own that reads the service (`ruleFind`). Objects on a branch are
 * found by `inputs/onBranch.ts`. Not a VPC endpoint a restriction names: a program assigns it in the
 * same run with a literal id (the engine passes a planned create's inputs on as its outputs at
 * preview).
 */
import { type CloudDbClient, isForbidden, isNotFound } from "../client";
import { hostLine } from "./host/progress";
import {
  callerRole,
  describeRole,
  type Find,
  type Finding,
  GOVERNANCE_FIX,
  KEY_FIX,
  PROJECT_FIX,
  PROJECT_ROLES_FIX,
  userOfKey,
} from "./lifecycle/preflight";

/** The region `regionId` (offered to organization `orgId`, when given), named by input `property`. */
export function regionFind(property: string, regionId: string, orgId?: string): Find {
  return {
    key: `region ${orgId ?? ""} ${regionId}`,
    ids: [regionId, orgId],
    subject: { property, what: "the regions", fix: KEY_FIX },
    read: async (client) => {
      const regions = (await client.listRegions({ orgId })).map((r) => r.region_id);
      if (regions.includes(regionId)) return undefined;
      return {
        property,
        reason:
          `${property}: the service offers no region ${regionId}${orgId === undefined ? "" : ` to organization ${orgId}`}: ` +
          `use one of ${regions.join(", ")} (getRegions lists them)`,
      };
    },
  };
}

/** Snapshot `snapshotId` of project `projectId`, to restore from, named by input `property`. */
export function snapshotFind(property: string, projectId: string, snapshotId: string): Find {
  return {
    key: `snapshot ${projectId} ${snapshotId}`,
    ids: [projectId, snapshotId],
    subject: { property: "projectId", what: `project ${projectId}`, fix: PROJECT_FIX },
    read: async (client) => {
      const snapshots = await client.listSnapshots(projectId);
      if (snapshots.some((s) => s.id === snapshotId)) return undefined;
      return {
        property,
        reason:
          `${property}: project ${projectId} has no snapshot ${snapshotId}: a branch is restored from a ` +
          "snapshot of its own project; check the id (`neonctl snapshots list` lists them), or take one with a Snapshot " +
          "and pass its snapshotId output",
      };
    },
  };
}

/**
 * A change only the administrators of organization `orgId` make (`what` names it: `set its spending
 * limit`): a finding unless the key is the organization's own or an administrator's personal key.
 * A key `GET /users/me` refuses is not a personal key, and one that reads the organization (checked
 * first, by `orgId`) and is not personal is the organization's own key, since a project-scoped key
 * cannot act on the organization.
 */
export function governanceFind(property: string, orgId: string, what: string): Find {
  return {
    key: `governs ${orgId}`,
    ids: [orgId],
    subject: { property, what: `the members of organization ${orgId}`, fix: GOVERNANCE_FIX },
    read: async (client) => {
      const caller = await callerRole(client, orgId);
      if (caller === undefined || caller.role === "admin") return undefined;
      return {
        property,
        reason:
          `this API key belongs to ${describeRole(caller.role)} of organization ${orgId}, and only its admins (or the ` +
          `organization's own API key) ${what}: the up would fail with 403. ${GOVERNANCE_FIX}`,
      };
    },
  };
}

/**
 * The member roles of project `projectId` (docs/api-rules.md §20): a finding unless the key may set
 * them. The project must be an organization's, and the key its organization's own, or the personal
 * key of an organization admin or of a member holding ADMIN on the project. A key `GET /users/me`
 * refuses is the organization's key when it reads the organization's members, and a project-scoped
 * key, which can never set roles, when it does not.
 */
export function projectRolesFind(property: string, projectId: string): Find {
  return {
    key: `project roles ${projectId}`,
    ids: [projectId],
    subject: { property, what: `the members of project ${projectId}`, fix: PROJECT_ROLES_FIX },
    read: (client) => projectRolesFinding(client, property, projectId),
  };
}

async function projectRolesFinding(
  client: CloudDbClient,
  property: string,
  projectId: string,
): Promise<Finding> {
  const orgId = (await client.getProject(projectId)).org_id;
  if (orgId === undefined || orgId === null) {
    return {
      property,
      reason: `project ${projectId} is a personal project, and only an organization's projects have members with roles`,
    };
  }
  const me = await userOfKey(client);
  if (me === undefined) {
    const orgKey = await client.listOrgMembers(orgId).then(
      () => true,
      (err: unknown) => {
        if (isForbidden(err)) return false;
        throw err;
      },
    );
    if (orgKey) return undefined;
    return {
      property,
      reason: `this is a project-scoped API key, which can never set members' roles on project ${projectId}. ${PROJECT_ROLES_FIX}`,
    };
  }
  const mine = (await client.listProjectMembers(projectId)).find((m) => m.user_id === me.id);
  if (mine?.effective_project_permission === "ADMIN") return undefined;
  return {
    property,
    reason:
      `this API key belongs to ${mine === undefined ? "a user with no permission on the project" : describeRole(mine.org_role)} of organization ${orgId}, without ADMIN on project ` +
      `${projectId}, and only the organization's admins, its own API key and the project's admins set members' ` +
      `roles there: the up would fail with 403. ${PROJECT_ROLES_FIX}`,
  };
}

/**
 * A move of a project out of `fromOrgId` into `toOrgId`: a finding unless the key can make it on its
 * own. Only a user's personal key acts in two organizations, and only an admin gives a project away
 * (the organization read of `orgId` already checks the key can use the new one); `fix` says what to
 * do.
 */
export function transferFind(property: string, fromOrgId: string, toOrgId: string, fix: string): Find {
  return {
    key: `transfer ${fromOrgId} ${toOrgId}`,
    ids: [fromOrgId, toOrgId],
    subject: { property, what: `the members of organization ${fromOrgId}`, fix },
    read: async (client) => {
      const move = `moving the project from organization ${fromOrgId} to organization ${toOrgId}`;
      const me = await userOfKey(client);
      if (me === undefined) {
        return {
          property,
          reason:
            `${move} takes a user's personal API key, and this is an organization's or a project's own key, ` +
            `which acts in one organization only. ${fix}`,
        };
      }
      const role = (await client.listOrgMembers(fromOrgId)).find((m) => m.member.user_id === me.id)?.member
        .role;
      if (role === "admin") return undefined;
      return {
        property,
        reason: `${move} takes an admin of organization ${fromOrgId}, and this API key belongs to ${describeRole(role)} of it. ${fix}`,
      };
    },
  };
}

/**
 * Says at preview that adopting project `projectId` recovers it, when it is deleted and still
 * recoverable (listed with `recoverable=true` in its organization, or the key's own account). Never
 * a finding: a project the listing misses is still recovered by the create, when it can be.
 */
export function recoverableFind(property: string, projectId: string, orgId?: string): Find {
  return {
    key: `recoverable ${orgId ?? ""} ${projectId}`,
    ids: [projectId, orgId],
    subject: { property, what: `project ${projectId}`, fix: PROJECT_FIX },
    read: (client) => recoveryNote(client, projectId, orgId).catch(() => undefined),
  };
}

async function recoveryNote(client: CloudDbClient, projectId: string, orgId?: string): Promise<Finding> {
  const live = await client.getProject(projectId).then(
    () => true,
    (err: unknown) => {
      if (isNotFound(err)) return false;
      throw err;
    },
  );
  if (live) return undefined;
  for await (const project of client.listProjects({ recoverable: true, orgId, search: projectId })) {
    if (project.id !== projectId) continue;
    hostLine(
      `project ${projectId}: it was deleted and can still be recovered (for 7 days after its deletion): ` +
        "the create recovers it, with its branches and computes, and adopts it",
    );
    break;
  }
  return undefined;
}

/**
 * A rule of a kind's own that reads the service: `read` gives the reason to refuse input `property`,
 * or undefined; `key` names the read, `about` what it reads (for a failed read's message), `ids`
 * the values it reads by.
 */
export function ruleFind(rule: {
  property: string;
  key: string;
  about: string;
  ids: readonly unknown[];
  read: (client: CloudDbClient) => Promise<string | undefined>;
}): Find {
  const { property } = rule;
  return {
    key: `rule ${rule.key}`,
    ids: rule.ids,
    subject: { property, what: rule.about, fix: PROJECT_FIX },
    read: async (client) => {
      const reason = await rule.read(client);
      return reason === undefined ? undefined : { property, reason };
    },
  };
}
