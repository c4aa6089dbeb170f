/**
 * What a Branch's state records: its outputs built from the API's answers (the branch and its
 * computes), the inputs the API does not report back, and the reads of the branch as it is now.
 */
import type {
  Branch as ApiBranch,
  Database as ApiDatabase,
  Endpoint as ApiEndpoint,
  CloudDbClient,
} from "../client";
import { NO_CONNECTION } from "./connection";
import { compact } from "./lifecycle/define";
import type { BranchEndpoint, BranchInputs, BranchOutputs } from "./public/branch";

type LiveBranch = ReturnType<typeof liveFields>;

/** An existing branch as it is now, standing for the old state (a declared ttl counts from now). */
export async function existing(
  client: CloudDbClient,
  inputs: BranchInputs,
  branchId: string,
): Promise<BranchOutputs> {
  const live = await readLive(client, inputs.projectId, branchId, inputs.parentId ?? null);
  const { ttl: _counted, ...base } = baseOutputs(inputs);
  return { ...base, ...live, ...NO_CONNECTION, operationIds: [] };
}

/**
 * The branch and its computes as they are now (two GETs; one when `hasComputes` is false, for a
 * branch known to have none). Throws the client's not-found error when gone.
 */
export async function readLive(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  declaredParent: string | null,
  hasComputes = true,
): Promise<LiveBranch> {
  const { branch } = await client.getBranch(projectId, branchId);
  const endpoints = hasComputes ? await client.listBranchEndpoints(projectId, branchId) : [];
  return liveFields(branch, endpoints, declaredParent);
}

/**
 * Reads the branch again after its operations finished, so `currentState` is current. Its computes
 * are listed again unless `hasComputes` is false: a create that asked for none made none.
 */
export async function refreshed(
  client: CloudDbClient,
  outs: BranchOutputs,
  hasComputes = true,
): Promise<BranchOutputs> {
  const live = await readLive(client, outs.projectId, outs.branchId, outs.parentId, hasComputes);
  return { ...outs, ...live };
}

/**
 * What the state records of the branch and its computes. A schema-only branch is a root for the
 * API (it reports no parent), and so is the branch a snapshot restore swapped in for the stack's
 * (`restored_as`): the declared parent is kept, so it is not taken for a change.
 */
export function liveFields(
  b: Pick<ApiBranch, "id" | "name"> & Partial<ApiBranch>,
  endpoints: readonly ApiEndpoint[],
  declaredParent: string | null,
) {
  const computes = endpoints.map(endpointFields);
  const primary = computes.find((ep) => ep.type === "read_write") ?? computes[0];
  const initSource = b.init_source ?? "parent-data";
  return {
    branchId: b.id,
    name: b.name,
    parentId:
      b.restored_as !== undefined
        ? declaredParent
        : (b.parent_id ?? (initSource === "schema-only" ? declaredParent : null)),
    default: b.default ?? false,
    currentState: b.current_state ?? null,
    createdAt: b.created_at ?? null,
    initSource,
    protected: b.protected ?? false,
    expiresAt: b.expires_at ?? null,
    endpoints: computes,
    endpointId: primary?.id ?? null,
    host: primary?.host ?? null,
    autoscalingLimitMinCu: primary?.autoscalingLimitMinCu ?? null,
    autoscalingLimitMaxCu: primary?.autoscalingLimitMaxCu ?? null,
    suspendTimeoutSeconds: primary?.suspendTimeoutSeconds ?? null,
  } satisfies Partial<BranchOutputs>;
}

function endpointFields(ep: ApiEndpoint): BranchEndpoint {
  return {
    id: ep.id,
    type: ep.type,
    host: ep.host,
    currentState: ep.current_state ?? null,
    autoscalingLimitMinCu: ep.autoscaling_limit_min_cu ?? null,
    autoscalingLimitMaxCu: ep.autoscaling_limit_max_cu ?? null,
    suspendTimeoutSeconds: ep.suspend_timeout_seconds ?? null,
  };
}

/** The inputs the API does not report back: the state keeps them as declared. */
export function declaredOnly(from: BranchInputs | BranchOutputs) {
  return compact({
    ttl: from.ttl,
    parentTimestamp: from.parentTimestamp,
    parentLsn: from.parentLsn,
    resetTrigger: from.resetTrigger,
    anonymizeTrigger: from.anonymizeTrigger,
    restore: from.restore,
    pullRequest: from.pullRequest,
    adoptExisting: from.adoptExisting,
    deleteProtection: from.deleteProtection,
    timeouts: from.timeouts,
  });
}

/** The state fields the inputs alone decide. */
export function baseOutputs(inputs: BranchInputs) {
  return { projectId: inputs.projectId, ...declaredOnly(inputs), pendingOperationIds: [] as string[] };
}

/**
 * The state of a branch made from `inputs`, as the API's `branch` and `endpoints` show it, before
 * its connection strings are read.
 */
export function outputsOf(
  inputs: BranchInputs,
  branch: Pick<ApiBranch, "id" | "name"> & Partial<ApiBranch>,
  endpoints: ApiEndpoint[],
  operationIds: string[],
): BranchOutputs {
  return {
    ...baseOutputs(inputs),
    ...liveFields(branch, endpoints, inputs.parentId ?? null),
    ...NO_CONNECTION,
    operationIds,
  };
}

/** The databases a create answered the new branch has (its parent's copies), as the state records them. */
export function inheritedOf(
  databases: readonly ApiDatabase[],
): NonNullable<BranchOutputs["inheritedDatabases"]> {
  return databases.map((d) => ({ name: d.name, ownerName: d.owner_name ?? null }));
}

/** The ids of `ops`, as the state records them. */
export function opIds(ops: readonly { id: string }[]): string[] {
  return ops.map((op) => op.id);
}
