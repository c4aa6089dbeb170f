import type { EmulatorContext } from "./context";
import { badRequest, locked } from "./errors";
import { addEndpoint, type EndpointSpec } from "./mutations";
import type { OperationSpec } from "./operations";
import type { BranchRecord, EndpointRecord, OperationRecord, ProjectRecord } from "./state";

// Changes to compute endpoints and to a branch's configuration (roles, databases), with the
// operations the official document's examples show for each:
//   create endpoint: start_compute          update endpoint: apply_config, suspend_compute
//   delete endpoint: suspend_compute        start / suspend: start_compute / suspend_compute
//   restart: suspend_compute, start_compute create role: apply_config
//   delete role, reset password, create / update / delete database: apply_config, suspend_compute
// A branch without a compute has nothing to apply a configuration to: no operation.

/** Throws 400 when the branch already has a read_write endpoint (one per branch). */
export function checkOneReadWrite(ctx: EmulatorContext, branch: BranchRecord, adding: EndpointSpec[]): void {
  const existing = ctx.store.branchEndpoints(branch.id).filter((e) => e.type === "read_write").length;
  const added = adding.filter((e) => e.type === "read_write").length;
  if (existing + added > 1) {
    throw badRequest(`branch ${branch.id} can have only one read_write endpoint`);
  }
}

/** Throws 423 while the project has unfinished operations. */
export function checkIdle(ctx: EmulatorContext, project: ProjectRecord): void {
  if (ctx.engine.isBusy(project.id)) throw locked();
}

function run(ctx: EmulatorContext, project: ProjectRecord, specs: OperationSpec[]): OperationRecord[] {
  const operations = ctx.engine.create(project.id, specs, "user");
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
  return operations;
}

const on = (e: EndpointRecord, ...actions: string[]): OperationSpec[] =>
  actions.map((action) => ({ action, branch_id: e.branch_id, endpoint_id: e.id }));

/** Creates an endpoint and starts it. */
export function createEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  spec: EndpointSpec,
): { endpoint: EndpointRecord; operations: OperationRecord[] } {
  const endpoint = addEndpoint(ctx, project, branch, spec, "api");
  return { endpoint, operations: run(ctx, project, on(endpoint, "start_compute")) };
}

/** Applies new settings to an endpoint, then suspends it so the next start uses them. */
export function updateEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  endpoint: EndpointRecord,
  changes: Partial<EndpointRecord>,
): OperationRecord[] {
  Object.assign(endpoint, changes, { updated_at_ms: ctx.clock.now() });
  return run(ctx, project, on(endpoint, "apply_config", "suspend_compute"));
}

/** Deletes an endpoint (its compute is suspended first). */
export function deleteEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  endpoint: EndpointRecord,
): OperationRecord[] {
  const operations = run(ctx, project, on(endpoint, "suspend_compute"));
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
  return run(ctx, project, on(endpoint, ...actions));
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
  return run(ctx, project, on(target, ...actions));
}
