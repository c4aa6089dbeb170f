/**
 * What a Project's state records: its fields from the API's answers (a create's response, or the
 * project and its default branch read by id), the default compute settings kept and compared as
 * declared, its connection string, and a project a killed or lost create made, taken once its
 * operations are awaited.
 */
import type { CloudDbClient, Operation, ProjectCreateResponse, ProjectDetail } from "../client";
import { unfinished } from "./errors";
import { COMPUTE_SETTINGS, computeSettingsOf } from "./inputs/compute";
import { maintenanceWindowOf, quotaOf } from "./inputs/projectSettings";
import { compact } from "./lifecycle/define";
import type { DefaultEndpointSettings, ProjectInputs, ProjectOutputs } from "./public/project";

/**
 * A project this resource made but never recorded, once `ops` (its operations) are awaited; a
 * failed wait records it as a partial failure, `how` saying how it was found.
 */
export async function taken(
  client: CloudDbClient,
  deadline: number,
  projectId: string,
  inputs: ProjectInputs,
  ops: Operation[],
  how: string,
): Promise<ProjectOutputs> {
  const outs = { ...(await readDefaults(client, projectId, inputs)), operationIds: ops.map((op) => op.id) };
  try {
    await client.waitForOperations(projectId, ops, { deadline });
  } catch (err) {
    // The connection string never enters a partial failure's properties.
    const recorded: ProjectOutputs = { ...outs, connectionUri: "" };
    throw unfinished("project", projectId, inputs, recorded, err, how);
  }
  return outs;
}

/** The project's fields the state records; the default compute settings keep only the keys `keep` has, when it has any. */
export function projectFields(project: ProjectDetail, keep: DefaultEndpointSettings | undefined) {
  const live = computeSettingsOf(project.default_endpoint_settings);
  return compact({
    projectId: project.id,
    name: project.name,
    regionId: project.region_id,
    pgVersion: project.pg_version,
    orgId: project.org_id ?? null,
    historyRetentionSeconds: project.history_retention_seconds ?? undefined,
    defaultEndpointSettings: keep === undefined ? live : pickKeys(live, keep),
    allowedIps: project.settings?.allowed_ips?.ips ?? [],
    allowedIpsProtectedBranchesOnly: project.settings?.allowed_ips?.protected_branches_only ?? false,
    blockPublicConnections: project.settings?.block_public_connections ?? false,
    blockVpcConnections: project.settings?.block_vpc_connections ?? false,
    enableLogicalReplication: project.settings?.enable_logical_replication ?? false,
    maintenanceWindow: maintenanceWindowOf(project.settings?.maintenance_window),
    quota: quotaOf(project.settings?.quota),
    hipaa: project.settings?.hipaa ?? false,
    auditLogLevel: project.settings?.audit_log_level ?? undefined,
    hipaaEnabledAt: project.hipaa_enabled_at ?? null,
    createdAt: project.created_at,
  } satisfies Partial<ProjectOutputs>);
}

/** The state a create records of the project its response describes, with `connectionUri` as given. */
export function createdOutputs(
  inputs: ProjectInputs,
  made: ProjectCreateResponse,
  connectionUri: string,
): ProjectOutputs {
  const database = made.databases[0];
  const endpoint = made.endpoints.find((e) => e.type === "read_write") ?? made.endpoints[0];
  return {
    ...compact({
      adoptExisting: inputs.adoptExisting,
      deleteProtection: inputs.deleteProtection,
      timeouts: inputs.timeouts,
    }),
    ...projectFields(made.project, inputs.defaultEndpointSettings),
    defaultBranchId: made.branch.id,
    defaultBranchName: made.branch.name,
    defaultBranchProtected: made.branch.protected ?? false,
    defaultEndpointId: endpoint?.id ?? null,
    defaultRoleName: database?.owner_name ?? made.roles[0]?.name ?? null,
    defaultDatabaseName: database?.name ?? null,
    host: endpoint?.host ?? null,
    connectionUri,
    operationIds: made.operations.map((op) => op.id),
    pendingOperationIds: [],
  };
}

/** A project found by id (adoption, or refresh without state): the project, then its default branch's compute, role and database. */
export async function readDefaults(
  client: CloudDbClient,
  projectId: string,
  inputs: Pick<ProjectInputs, "adoptExisting" | "deleteProtection" | "timeouts">,
): Promise<ProjectOutputs> {
  const project = await client.getProject(projectId);
  const branches = await client.listBranches(projectId);
  const branch = branches.find((b) => b.default === true) ?? branches.find((b) => b.parent_id == null);
  const endpoints = branch === undefined ? [] : await client.listBranchEndpoints(projectId, branch.id);
  const endpoint = endpoints.find((e) => e.type === "read_write");
  const database = branch === undefined ? undefined : (await client.listDatabases(projectId, branch.id))[0];
  return withConnectionUri(client, {
    ...compact({
      adoptExisting: inputs.adoptExisting,
      deleteProtection: inputs.deleteProtection,
      timeouts: inputs.timeouts,
    }),
    ...projectFields(project, undefined),
    defaultBranchId: branch?.id ?? "",
    ...compact({ defaultBranchName: branch?.name, defaultBranchProtected: branch?.protected ?? undefined }),
    defaultEndpointId: endpoint?.id ?? null,
    defaultRoleName: database?.owner_name ?? null,
    defaultDatabaseName: database?.name ?? null,
    host: endpoint?.host ?? null,
    connectionUri: "",
    operationIds: [],
    pendingOperationIds: [],
  });
}

/** `outs` with its connection string, read from the API when it was not received (and can be). */
export async function withConnectionUri(
  client: CloudDbClient,
  outs: ProjectOutputs,
): Promise<ProjectOutputs> {
  const { defaultRoleName: roleName, defaultDatabaseName: databaseName } = outs;
  if (
    outs.connectionUri !== "" ||
    roleName === null ||
    databaseName === null ||
    outs.defaultEndpointId === null
  )
    return outs;
  const connectionUri = await client.getConnectionUri(outs.projectId, {
    roleName,
    databaseName,
    branchId: outs.defaultBranchId,
    endpointId: outs.defaultEndpointId,
  });
  return { ...outs, connectionUri };
}

function pickKeys(live: DefaultEndpointSettings, keep: DefaultEndpointSettings): DefaultEndpointSettings {
  const out: DefaultEndpointSettings = {};
  for (const key of COMPUTE_SETTINGS) {
    const value = live[key];
    if (keep[key] !== undefined && value !== undefined) out[key] = value;
  }
  return out;
}

/** Whether every setting `wanted` gives has that value in `had`. */
export function sameSettings(wanted: DefaultEndpointSettings | undefined, had: unknown): boolean {
  const have = (had ?? {}) as Record<string, unknown>;
  return COMPUTE_SETTINGS.every((key) => wanted?.[key] === undefined || wanted[key] === have[key]);
}
