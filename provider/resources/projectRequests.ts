/**
 * What a Project's create and update send besides the project's own fields: the `settings` that
 * changed (network access, logical replication, maintenance window, quota), the default branch a
 * create asks for, the PATCH of the default branch that protects it, the transfer that moves the
 * project to another organization, and the recovery of a deleted project to adopt.
 */
import { type CloudDbClient, isForbidden, isNotFound } from "../client";
import type { ProjectSettings } from "../client/schemas";
import { ResourceError } from "./errors";
import { hostLine } from "./host/progress";
import { apiMaintenanceWindow, apiQuota, sameQuota, sameWindow } from "./inputs/projectSettings";
import { compact } from "./lifecycle/define";
import { CREATED_BY, stackMarksOf } from "./lifecycle/owner";
import type { ProjectInputs, ProjectOutputs } from "./public/project";

/** The network access inputs: each left out is no opinion, the project keeps what it has. */
export const NETWORK_INPUTS = [
  "allowedIps",
  "allowedIpsProtectedBranchesOnly",
  "blockPublicConnections",
  "blockVpcConnections",
] as const;

/** The inputs sent in the project's `settings`: each left out is no opinion. */
type SettingsInput =
  | (typeof NETWORK_INPUTS)[number]
  | "enableLogicalReplication"
  | "hipaa"
  | "auditLogLevel"
  | "maintenanceWindow"
  | "quota";

/**
 * The `settings` a create or a PATCH sends for the settings inputs of `news` (network access,
 * logical replication, HIPAA, audit log level, maintenance window, quota) that differ from `olds`
 * (at create, `olds` is empty), undefined when none does. The allow list travels whole, its switch
 * with it, as the API replaces `allowed_ips` as one object; logical replication and HIPAA are sent
 * only to turn them on, as neither can be turned off.
 */
export function settingsChanges(
  news: Pick<ProjectInputs, SettingsInput>,
  olds: Partial<Pick<ProjectOutputs, SettingsInput>>,
): ProjectSettings | undefined {
  const changed = (key: (typeof NETWORK_INPUTS)[number]) =>
    news[key] !== undefined && JSON.stringify(news[key]) !== JSON.stringify(olds[key]);
  const listChanged = changed("allowedIps") || changed("allowedIpsProtectedBranchesOnly");
  const settings = compact({
    allowed_ips: listChanged
      ? {
          ips: news.allowedIps ?? olds.allowedIps ?? [],
          protected_branches_only:
            news.allowedIpsProtectedBranchesOnly ?? olds.allowedIpsProtectedBranchesOnly ?? false,
        }
      : undefined,
    block_public_connections: changed("blockPublicConnections") ? news.blockPublicConnections : undefined,
    block_vpc_connections: changed("blockVpcConnections") ? news.blockVpcConnections : undefined,
    enable_logical_replication:
      news.enableLogicalReplication === true && olds.enableLogicalReplication !== true ? true : undefined,
    hipaa: news.hipaa === true && olds.hipaa !== true ? true : undefined,
    audit_log_level:
      news.auditLogLevel !== undefined && news.auditLogLevel !== olds.auditLogLevel
        ? news.auditLogLevel
        : undefined,
    maintenance_window:
      news.maintenanceWindow !== undefined && !sameWindow(news.maintenanceWindow, olds.maintenanceWindow)
        ? apiMaintenanceWindow(news.maintenanceWindow)
        : undefined,
    quota:
      news.quota !== undefined && (olds.quota === undefined || !sameQuota(news.quota, olds.quota))
        ? apiQuota(news.quota)
        : undefined,
  });
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/**
 * `outs` with the default branch protected or not as `wanted` says, with one PATCH of the branch
 * when it is not so already; left out (undefined), the branch stays as it is.
 */
export async function withDefaultBranchProtection(
  client: CloudDbClient,
  deadline: number,
  outs: ProjectOutputs,
  wanted: boolean | undefined,
): Promise<ProjectOutputs> {
  if (wanted === undefined || wanted === (outs.defaultBranchProtected ?? false)) return outs;
  const { branch } = await client.updateBranch(
    outs.projectId,
    outs.defaultBranchId,
    { protected: wanted },
    { deadline },
  );
  return { ...outs, defaultBranchProtected: branch.protected ?? wanted };
}

/**
 * The default branch a create asks for: the names the program gives (the API picks the others), and
 * the annotation of the create key and of the stack of the resource `owner` names
 * (`lifecycle/owner.ts`); undefined when there is neither.
 */
export function defaultBranchOf(
  inputs: ProjectInputs,
  createKey: string | undefined,
  owner?: string | undefined,
) {
  const branch = compact({
    name: inputs.defaultBranchName,
    role_name: inputs.defaultRoleName,
    database_name: inputs.defaultDatabaseName,
    annotations:
      createKey === undefined ? undefined : { [CREATED_BY]: createKey, ...stackMarksOf(owner, Date.now()) },
  });
  return Object.keys(branch).length > 0 ? branch : undefined;
}

/** How long a transfer request the update makes stays valid: it is accepted at once, so a spare one soon lapses. */
const TRANSFER_TTL_SECONDS = 600;

/** How messages name where a project is: its organization, or a personal account. */
export function placeOf(orgId: string | null | undefined): string {
  return orgId === undefined || orgId === null ? "the personal account" : `organization ${orgId}`;
}

/** What to do when the stack's key cannot move a project from `from` to organization `to`. */
export function transferFix(from: string | null | undefined, to: string): string {
  const giver =
    from === undefined || from === null ? "the project's owner" : `an admin of organization ${from}`;
  return (
    `Use the personal API key of a user who is ${giver} and a member of organization ${to} for this stack ` +
    "(`pulumi config set --secret clouddb:apiKey <key>`, or CLOUDDB_API_KEY), or move the project in the console " +
    "and run `pulumi up --refresh`"
  );
}

/**
 * Moves the project to organization `to` in place: a transfer request, accepted at once with the
 * same key (docs/api-rules.md §21). When a call fails but the project reads as moved (a lost
 * answer), the move is done; a refusal says which key can do it.
 */
export async function moveProject(
  client: CloudDbClient,
  projectId: string,
  from: string | null | undefined,
  to: string,
): Promise<void> {
  try {
    const request = await client.createProjectTransferRequest(projectId, TRANSFER_TTL_SECONDS);
    await client.acceptProjectTransferRequest(projectId, request.id, to);
  } catch (err) {
    const live = await client.getProject(projectId).catch(() => undefined);
    if (live?.org_id === to) return;
    if (!isForbidden(err)) throw err;
    throw new ResourceError(
      "ChangeRefused",
      `project ${projectId} cannot move from ${placeOf(from)} to organization ${to} with this API key: ` +
        `${err.message}. ${transferFix(from, to)}`,
      err,
    );
  }
}

/**
 * Recovers a deleted project (docs/api-rules.md §22), saying so; false when the service has no
 * deleted project of that id it can still recover (404).
 */
export async function recovered(client: CloudDbClient, projectId: string): Promise<boolean> {
  try {
    await client.recoverProject(projectId);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  hostLine(
    `project ${projectId}: recovered (it was deleted less than 7 days ago), with its branches and computes`,
  );
  return true;
}
