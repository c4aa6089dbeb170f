import type { EndpointState } from "@neon/sdk/raw";
import type { EmulatorContext } from "../context";
import { projectCompute } from "../defaults";
import { badRequest } from "../errors";
import { newEndpointId } from "../ids";
import { type OperationSpec, TERMINAL_STATUSES, viewOperation } from "../operations";
import type { BranchRecord, EndpointRecord, OperationRecord, ProjectRecord } from "../records";
import type { Store } from "../state";
import { startOperations } from "./operations";

// Compute endpoints, and the configuration changes (roles, databases) a branch's compute applies,
// with the operations the official document's examples show for each:
//   create endpoint: start_compute          update endpoint: apply_config, suspend_compute
//   delete endpoint: suspend_compute        start / suspend: start_compute / suspend_compute
//   restart: suspend_compute, start_compute create role: apply_config
//   delete role, reset password, create / update / delete database: apply_config, suspend_compute
// A branch without a compute has nothing to apply a configuration to: no operation.

/** Endpoint fields a request may set as they are. */
export const ENDPOINT_OPTIONS = [
  "provisioner",
  "name",
  "disabled",
  "passwordless_access",
  "pooler_enabled",
  "settings",
] as const;

/** What a new endpoint is made of. */
export type EndpointSpec = Pick<EndpointRecord, "type"> &
  Partial<Pick<EndpointRecord, "compute" | (typeof ENDPOINT_OPTIONS)[number]>>;

/** Puts a new endpoint record (no operation) with the given id into the store. */
export function putEndpoint(
  store: Store,
  id: string,
  project: ProjectRecord,
  branch: BranchRecord,
  spec: EndpointSpec,
  source: string,
  at: number,
): EndpointRecord {
  const endpoint: EndpointRecord = {
    id,
    project_id: project.id,
    branch_id: branch.id,
    type: spec.type,
    creation_source: source,
    created_at_ms: at,
    updated_at_ms: at,
    op_ids: [],
    compute: spec.compute ?? { ...projectCompute(project) },
  };
  for (const field of ENDPOINT_OPTIONS) {
    if (spec[field] !== undefined) (endpoint as unknown as Record<string, unknown>)[field] = spec[field];
  }
  store.endpoints.set(id, endpoint);
  return endpoint;
}

/** Adds an endpoint record under a new id (no operation); callers start its compute. */
export function addEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  spec: EndpointSpec,
  source: string,
): EndpointRecord {
  let id = newEndpointId(ctx.store.ids);
  while (ctx.store.endpoints.has(id)) id = newEndpointId(ctx.store.ids);
  return putEndpoint(ctx.store, id, project, branch, spec, source, ctx.clock.now());
}

/** Throws 400 when the branch already has a read_write endpoint (one per branch). */
export function checkOneReadWrite(ctx: EmulatorContext, branch: BranchRecord, adding: EndpointSpec[]): void {
  const existing = ctx.store.branchEndpoints(branch.id).filter((e) => e.type === "read_write").length;
  const added = adding.filter((e) => e.type === "read_write").length;
  if (existing + added > 1) {
    throw badRequest(`branch ${branch.id} can have only one read_write endpoint`);
  }
}

/** The operations `actions` on an endpoint's compute. */
export const onCompute = (e: EndpointRecord, ...actions: string[]): OperationSpec[] =>
  actions.map((action) => ({ action, branch_id: e.branch_id, endpoint_id: e.id }));

/** Creates an endpoint and starts it. */
export function createEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  spec: EndpointSpec,
): { endpoint: EndpointRecord; operations: OperationRecord[] } {
  const endpoint = addEndpoint(ctx, project, branch, spec, "api");
  return { endpoint, operations: startOperations(ctx, project, onCompute(endpoint, "start_compute")) };
}

/** A Postgres parameter name: an identifier, or two joined by a dot (an extension's own). */
const PG_SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Throws 400 for a `settings.pg_settings` entry whose name is not a Postgres parameter name (docs/api-rules.md §7). */
export function checkPgSettings(
  settings: { pg_settings?: Record<string, string> } | undefined,
  where: string,
): void {
  for (const name of Object.keys(settings?.pg_settings ?? {})) {
    if (!PG_SETTING_NAME.test(name)) {
      throw badRequest(
        `${where}settings.pg_settings: ${JSON.stringify(name)} is not a Postgres parameter name (letters, digits and _, an extension's with one dot)`,
      );
    }
  }
}

/**
 * Applies new settings to an endpoint, then suspends it so the next start uses them; a change of
 * its name alone is no configuration and starts no operation. A new `settings` object replaces
 * the fields it gives (`pg_settings` whole) and keeps the others.
 */
export function updateEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  endpoint: EndpointRecord,
  changes: Partial<EndpointRecord>,
  renameOnly = false,
): OperationRecord[] {
  const settings =
    changes.settings === undefined ? {} : { settings: { ...endpoint.settings, ...changes.settings } };
  Object.assign(endpoint, changes, settings, { updated_at_ms: ctx.clock.now() });
  if (renameOnly) {
    ctx.changed();
    return [];
  }
  return startOperations(ctx, project, onCompute(endpoint, "apply_config", "suspend_compute"));
}

/** Deletes an endpoint (its compute is suspended first). */
export function deleteEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  endpoint: EndpointRecord,
): OperationRecord[] {
  const operations = startOperations(ctx, project, onCompute(endpoint, "suspend_compute"));
  ctx.store.endpoints.delete(endpoint.id);
  return operations;
}

/** Starts, suspends or restarts an endpoint's compute. */
export function cycleEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  endpoint: EndpointRecord,
  what: "start" | "suspend" | "restart",
): OperationRecord[] {
  const actions =
    what === "start"
      ? ["start_compute"]
      : what === "suspend"
        ? ["suspend_compute"]
        : ["suspend_compute", "start_compute"];
  return startOperations(ctx, project, onCompute(endpoint, ...actions));
}

/**
 * An endpoint's compute state from its start/suspend operations: `current` (finished ones),
 * `pending` (one running now) and `ending`, the state once every one of them has run.
 */
export function computeState(
  e: EndpointRecord,
  store: Store,
  nowMs: number,
): { current: EndpointState; pending?: EndpointState; ending: EndpointState } {
  let current: EndpointState = e.op_ids.length === 0 ? "idle" : "init";
  let pending: EndpointState | undefined;
  let ending: EndpointState = "idle";
  for (const opId of e.op_ids) {
    const op = store.operations.get(opId);
    if (!op) continue;
    const target =
      op.action === "start_compute" ? "active" : op.action === "suspend_compute" ? "idle" : undefined;
    if (target === undefined) continue;
    ending = target;
    const status = viewOperation(op, nowMs).status;
    if (status === "finished") current = target;
    else if (!TERMINAL_STATUSES.has(status) && status !== "scheduling") pending = target;
  }
  return pending === undefined ? { current, ending } : { current, pending, ending };
}

/** A suspended compute wakes on a connection, as the service's do: the platform starts it. */
export function wakeEndpoint(ctx: EmulatorContext, endpoint: EndpointRecord): void {
  if (computeState(endpoint, ctx.store, ctx.clock.now()).ending === "active") return;
  ctx.engine.create(endpoint.project_id, onCompute(endpoint, "start_compute"), "platform");
  ctx.changed();
}

/** Applies a role or database change to the branch's compute (`actions` per the document's examples). */
export function applyBranchConfig(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  actions: string[],
): OperationRecord[] {
  branch.updated_at_ms = ctx.clock.now();
  const endpoints = ctx.store.branchEndpoints(branch.id);
  const target = endpoints.find((e) => e.type === "read_write") ?? endpoints[0];
  if (!target) {
    ctx.changed();
    return [];
  }
  return startOperations(ctx, project, onCompute(target, ...actions));
}
