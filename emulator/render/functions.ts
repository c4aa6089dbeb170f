import type { NeonFunction, NeonFunctionDeployment, Trigger } from "@neon/sdk/raw";
import { activeDeployment, deploymentStatus, nextRunAt } from "../families/functions";
import type { BranchRecord, DeploymentRecord, FunctionRecord, TriggerRecord } from "../records";

// A branch's functions, their deployments and its triggers, as the API shows them. A function's
// invocation URL is on the emulator's own server, under `/__functions/<branchId>-<slug>/`, which
// runs its active deployment (routes/invocations.ts).

/** The path under which the emulator serves its functions. */
export const FUNCTIONS_PREFIX = "/__functions";

/** A function's invocation URL on the server at `origin`: the root its handler sees as `/`. */
export const invocationUrl = (origin: string, branch: BranchRecord, fn: FunctionRecord) =>
  `${origin}${FUNCTIONS_PREFIX}/${branch.id}-${fn.slug}/`;

/** A deployment with its status at `now`; the environment's names only, never values. */
export function renderDeployment(d: DeploymentRecord, now: number): NeonFunctionDeployment {
  const status = deploymentStatus(d, now);
  return {
    id: d.id,
    status,
    memory_mib: 256,
    runtime: d.runtime,
    created_at: new Date(d.created_at_ms).toISOString(),
    environment: d.environment,
    ...(status === "failed" && d.error !== undefined ? { error: d.error } : {}),
  };
}

/** A function reached on the server at `origin`: its newest deployment is current, its newest completed one active. */
export function renderFunction(
  branch: BranchRecord,
  fn: FunctionRecord,
  now: number,
  origin: string,
): NeonFunction {
  const current = fn.deployments.at(-1);
  const active = activeDeployment(fn, now);
  return {
    id: fn.id,
    slug: fn.slug,
    name: fn.name ?? fn.slug,
    invocation_url: invocationUrl(origin, branch, fn),
    ...(current ? { current_deployment: renderDeployment(current, now) } : {}),
    ...(active ? { active_deployment: renderDeployment(active, now) } : {}),
    created_at: new Date(fn.created_at_ms).toISOString(),
  };
}

/** A trigger as @neon/sdk shapes it, with the next run the functions family computes. */
export function renderTrigger(t: TriggerRecord, now: number): Trigger {
  const base = {
    trigger_id: t.trigger_id,
    function_slug: t.function_slug,
    name: t.name,
    function_path: t.function_path,
    enabled: t.enabled,
    version: t.version,
    inherited: false,
  };
  if (t.type === "schedule") {
    const cron = t.cron ?? "";
    return {
      type: "schedule",
      ...base,
      schedule: { cron },
      next_run_at: nextRunAt(t, now),
    };
  }
  return {
    type: "storage_object_created",
    ...base,
    storage_object_created: {
      bucket_name: t.bucket_name ?? "",
      ...(t.prefix === undefined ? {} : { prefix: t.prefix }),
    },
  };
}
