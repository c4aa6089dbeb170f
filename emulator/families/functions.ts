import type { EmulatorContext } from "../context";
import { CronError, nextRun, parseCron } from "../cron";
import { badRequest, HttpError, notFound } from "../errors";
import { archiveProblem } from "../function-archive";
import { newUuid } from "../ids";
import type { BranchRecord, DeploymentRecord, FunctionRecord, TriggerRecord } from "../records";
import { holdOnBranch, sweepBlobs } from "./branch-data";

// A branch's functions, their deployments and its triggers (docs/api-rules.md §27). A function is
// made by its first deployment, which must carry a ZIP archive; later ones may change only the
// runtime or the environment and reuse the archive. A deployment's status follows the emulator's
// clock: pending, then building, then completed (or failed when the archive cannot run: not a ZIP
// file, or no entry module at its root). The newest completed deployment is the one that serves.

declare module "../records" {
  interface BranchData {
    /** The branch's functions and their deployments (docs/api-rules.md §27). */
    functions?: FunctionRecord[];
    /** The branch's triggers, each naming a function of the branch by slug. */
    triggers?: TriggerRecord[];
  }
}

// A child starts without functions or triggers; a branch preserved by a restore keeps a copy of both
// (its deployments name the same archives). A deployment's archive is in the object store by its
// SHA-256; a state an older emulator saved holds it inline, base64, and moves it there on load.
holdOnBranch({
  field: "functions",
  toChild: false,
  preserved: true,
  blobs: (functions) => functions.flatMap((fn) => fn.deployments.map((d) => d.archive)),
  upgrade: (saved, { objects }) => {
    // An older emulator's deployment has `zip_base64` where today's has `archive`.
    const functions = saved as { deployments: (Partial<DeploymentRecord> & { zip_base64?: string })[] }[];
    let moved = false;
    for (const deployment of functions.flatMap((fn) => fn.deployments)) {
      if (deployment.zip_base64 === undefined) continue;
      deployment.archive = objects.put(Buffer.from(deployment.zip_base64, "base64"));
      delete deployment.zip_base64;
      moved = true;
    }
    return moved ? (saved as FunctionRecord[]) : undefined;
  },
});
holdOnBranch({ field: "triggers", toChild: false, preserved: true });

/**
 * How long a deployment is pending, in emulator milliseconds: the work length the emulator's
 * `opDurationMs` gives the `deploy_function` action (1 s by default); it then builds for twice
 * that. A record kept from before the length was stored uses the default.
 */
const DEFAULT_PENDING_MS = 1_000;

/** A deployment's status at `now`. */
export function deploymentStatus(
  d: DeploymentRecord,
  now: number,
): "pending" | "building" | "completed" | "failed" {
  const age = now - d.created_at_ms;
  const pending = d.pending_ms ?? DEFAULT_PENDING_MS;
  if (age < pending) return "pending";
  if (age < 3 * pending) return "building";
  return d.error === undefined ? "completed" : "failed";
}

/** The deployment that serves: the newest whose build completed by `now`, if any. */
export function activeDeployment(fn: FunctionRecord, now: number): DeploymentRecord | undefined {
  return fn.deployments.findLast((d) => deploymentStatus(d, now) === "completed");
}

/** The bytes of a deployment's archive; a 500 when the object store lost them (a state folder edited by hand). */
export function archiveOf(ctx: EmulatorContext, deployment: DeploymentRecord): Buffer {
  const bytes = ctx.objects.get(deployment.archive);
  if (!bytes)
    throw new HttpError(500, `the archive of deployment ${deployment.id} is missing from the object store`);
  return bytes;
}

/** The function on the branch; 404 naming the slug otherwise. */
export function functionOf(branch: BranchRecord, slug: string): FunctionRecord {
  const fn = branch.functions?.find((f) => f.slug === slug);
  if (!fn) throw notFound(`function ${slug} not found on branch ${branch.id}: deploy it first`);
  return fn;
}

/** What a deployment request carries, each part optional as the document says. */
export interface DeployParts {
  zip?: Buffer;
  runtime?: string;
  environment?: string;
}

/**
 * The variables a JSON string-to-string map sets (an empty value sets none); 400 naming what is
 * wrong otherwise.
 */
function environmentOf(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('environment must be a JSON object of strings, e.g. {"KEY":"VALUE"}');
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw badRequest('environment must be a JSON object of strings, e.g. {"KEY":"VALUE"}');
  const entries = Object.entries(parsed);
  const bad = entries.find(([, v]) => typeof v !== "string");
  if (bad) throw badRequest(`environment variable ${bad[0]} must be a string`);
  return Object.fromEntries(entries.filter(([, v]) => v !== ""));
}

/** Adds a deployment, making the function on its first; the newest deployment becomes current. */
export function deploy(
  ctx: EmulatorContext,
  branch: BranchRecord,
  slug: string,
  parts: DeployParts,
): { fn: FunctionRecord; deployment: DeploymentRecord } {
  if (parts.zip === undefined && parts.runtime === undefined && parts.environment === undefined)
    throw badRequest("a deployment needs at least one of zip, runtime and environment");
  if (parts.runtime !== undefined && parts.runtime !== "nodejs24")
    throw badRequest(`runtime ${JSON.stringify(parts.runtime)} is not supported: use nodejs24`);
  const now = ctx.clock.now();
  let fn = branch.functions?.find((f) => f.slug === slug);
  const previous = fn?.deployments.at(-1);
  if (parts.zip === undefined && previous === undefined)
    throw badRequest(`the first deployment of function ${slug} must include zip`);
  const values = parts.environment === undefined ? undefined : environmentOf(parts.environment);
  if (!fn) {
    fn = { id: newUuid(), slug, created_at_ms: now, deployments: [] };
    branch.functions = [...(branch.functions ?? []), fn];
  }
  // A deployment without an archive reuses the previous one's, and so its build's verdict.
  const archive = parts.zip === undefined ? (previous?.archive ?? "") : ctx.objects.put(parts.zip);
  const error = parts.zip === undefined ? previous?.error : archiveProblem(parts.zip);
  const kept = values ?? previous?.environment_values;
  const deployment: DeploymentRecord = {
    id: (previous?.id ?? 0) + 1,
    created_at_ms: now,
    pending_ms: ctx.engine.durationOf("deploy_function"),
    runtime: parts.runtime ?? previous?.runtime ?? "nodejs24",
    archive,
    environment: (values === undefined ? [...(previous?.environment ?? [])] : Object.keys(values)).sort(),
    ...(kept === undefined ? {} : { environment_values: { ...kept } }),
    ...(error === undefined ? {} : { error }),
  };
  fn.deployments.push(deployment);
  ctx.changed();
  return { fn, deployment };
}

/** Sets or clears (null) the function's display name; a whitespace-only name is refused. */
export function renameFunction(ctx: EmulatorContext, fn: FunctionRecord, name: string | null): void {
  if (name === null) delete fn.name;
  else {
    const trimmed = name.trim();
    if (trimmed === "") throw badRequest("name must not be only whitespace: give a name or null to clear it");
    fn.name = trimmed;
  }
  ctx.changed();
}

/** Deletes the function and its deployments. */
export function deleteFunction(ctx: EmulatorContext, branch: BranchRecord, slug: string): void {
  functionOf(branch, slug);
  branch.functions = (branch.functions ?? []).filter((f) => f.slug !== slug);
  ctx.changed();
  sweepBlobs(ctx.store.branches.values(), ctx.objects);
}

/** The trigger on the branch; 404 naming it otherwise. */
export function triggerOf(branch: BranchRecord, triggerId: string): TriggerRecord {
  const trigger = branch.triggers?.find((t) => t.trigger_id === triggerId);
  if (!trigger) throw notFound(`trigger ${triggerId} not found on branch ${branch.id}`);
  return trigger;
}

/** What a trigger create or update may set. */
export interface TriggerFields {
  function_slug?: string;
  name?: string;
  function_path?: string;
  cron?: string;
  bucket_name?: string;
  prefix?: string | undefined;
  enabled?: boolean;
}

/** Checks the fields against the branch: a known function, a unique name, a valid cron. */
function checkTrigger(branch: BranchRecord, fields: TriggerFields, self: string | undefined): void {
  if (fields.function_slug !== undefined) functionOf(branch, fields.function_slug);
  if (fields.name !== undefined) {
    if (fields.name.trim() === "") throw badRequest("a trigger's name must not be empty");
    const clash = branch.triggers?.find((t) => t.name === fields.name && t.trigger_id !== self);
    if (clash)
      throw new HttpError(
        409,
        `trigger name ${fields.name} is taken by ${clash.trigger_id}: choose another name`,
      );
  }
  if (fields.cron !== undefined) {
    try {
      parseCron(fields.cron);
    } catch (error) {
      if (!(error instanceof CronError)) throw error;
      throw badRequest(
        `schedule.cron ${JSON.stringify(fields.cron)} is not a numeric five-field cron expression: ${error.message}`,
      );
    }
  }
  if (fields.function_path !== undefined && !fields.function_path.startsWith("/"))
    throw badRequest("function_path must start with /");
}

/**
 * When a schedule trigger next runs after `now` (ISO 8601); null for a disabled one, a storage
 * trigger, or a schedule that never comes (or that an older emulator took and this one cannot read).
 */
export function nextRunAt(trigger: TriggerRecord, now: number): string | null {
  if (trigger.type !== "schedule" || !trigger.enabled || trigger.cron === undefined) return null;
  let at: number | undefined;
  try {
    at = nextRun(parseCron(trigger.cron), now);
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
  }
  return at === undefined ? null : new Date(at).toISOString();
}

/** Adds a trigger to the branch. */
export function createTrigger(
  ctx: EmulatorContext,
  branch: BranchRecord,
  type: TriggerRecord["type"],
  fields: TriggerFields & { function_slug: string; name: string },
): TriggerRecord {
  checkTrigger(branch, fields, undefined);
  const trigger: TriggerRecord = {
    trigger_id: `trg-${newUuid()}`,
    type,
    function_slug: fields.function_slug,
    name: fields.name,
    function_path: fields.function_path ?? "/",
    ...(fields.cron === undefined ? {} : { cron: fields.cron }),
    ...(fields.bucket_name === undefined ? {} : { bucket_name: fields.bucket_name }),
    ...(fields.prefix === undefined || fields.prefix === "" ? {} : { prefix: fields.prefix }),
    enabled: fields.enabled ?? true,
    version: 1,
  };
  branch.triggers = [...(branch.triggers ?? []), trigger];
  ctx.changed();
  return trigger;
}

/** Changes a trigger in place; its type never changes, its version counts each change. */
export function updateTrigger(
  ctx: EmulatorContext,
  branch: BranchRecord,
  trigger: TriggerRecord,
  type: TriggerRecord["type"],
  fields: TriggerFields,
): void {
  if (type !== trigger.type)
    throw badRequest(`trigger ${trigger.trigger_id} is a ${trigger.type} trigger: its type cannot change`);
  checkTrigger(branch, fields, trigger.trigger_id);
  const { prefix, ...rest } = fields;
  for (const [key, value] of Object.entries(rest))
    if (value !== undefined) Object.assign(trigger, { [key]: value });
  if ("prefix" in fields) {
    if (prefix === undefined || prefix === "") delete trigger.prefix;
    else trigger.prefix = prefix;
  }
  trigger.version += 1;
  ctx.changed();
}

/** Removes a trigger from the branch. */
export function deleteTrigger(ctx: EmulatorContext, branch: BranchRecord, triggerId: string): void {
  triggerOf(branch, triggerId);
  branch.triggers = (branch.triggers ?? []).filter((t) => t.trigger_id !== triggerId);
  ctx.changed();
}
