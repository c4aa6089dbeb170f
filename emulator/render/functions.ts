import type { NeonFunction, NeonFunctionDeployment, Trigger } from "@neon/sdk/raw";
import { activeDeployment, deploymentStatus } from "../families/functions";
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

/** Whether a cron field (`*`, `5`, `1-5`, `*\/15`, lists of these) admits `value`. */
function fieldMatches(field: string, value: number): boolean {
  return field.split(",").some((part) => {
    const [range = "*", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    const [lo, hi] =
      range === "*"
        ? [0, 59]
        : range.includes("-")
          ? range.split("-").map(Number)
          : [Number(range), stepText === undefined ? Number(range) : 59];
    if (lo === undefined || hi === undefined) return false;
    return value >= lo && value <= hi && (value - lo) % step === 0;
  });
}

/** The first whole UTC minute after `now` the five-field expression admits, within a year. */
export function nextRun(cron: string, now: number): string | null {
  const [min, hour, dom, month, dow] = cron.trim().split(" ");
  if (
    min === undefined ||
    hour === undefined ||
    dom === undefined ||
    month === undefined ||
    dow === undefined
  )
    return null;
  let t = Math.floor(now / 60_000) * 60_000 + 60_000;
  for (let i = 0; i < 366 * 24 * 60; i++, t += 60_000) {
    const d = new Date(t);
    if (
      fieldMatches(min, d.getUTCMinutes()) &&
      fieldMatches(hour, d.getUTCHours()) &&
      fieldMatches(dom, d.getUTCDate()) &&
      fieldMatches(month, d.getUTCMonth() + 1) &&
      fieldMatches(dow, d.getUTCDay())
    )
      return d.toISOString();
  }
  return null;
}

/** A trigger as @neon/sdk shapes it; a disabled schedule has no next run. */
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
      next_run_at: t.enabled ? nextRun(cron, now) : null,
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
