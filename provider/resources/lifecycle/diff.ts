/**
 * `diff` from a resource's change table, and the state an in-place update starts from. No API call:
 * a no-change preview costs nothing.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isUnknown } from "./check";
import type { CommonInputs, CommonState, ResourceDefinition } from "./define";

/** How the lifecycle's own inputs compare, for every resource: an unset `deleteProtection` is off. */
const LIFECYCLE_SAME: Readonly<Record<string, (news: unknown, olds: unknown) => boolean>> = {
  deleteProtection: (news, olds) => (news ?? false) === (olds ?? false),
};

/** How a property changes, as a preview names it (the plugin's detailed diff). */
export type PropertyChange =
  | "add"
  | "update"
  | "delete"
  | "add-replace"
  | "update-replace"
  | "delete-replace";

/** A diff with, for each changed property path (`sourceHash`, `environment.TOKEN`), how it changes. */
export interface InputsDiff extends pulumi.dynamic.DiffResult {
  detailedDiff?: Record<string, PropertyChange>;
}

/**
 * Replaces for changed `replace` rows, a change for `update` rows; pending operations make a change
 * too. For a definition with `details`, each changed row is named in the detailed diff, or the finer
 * paths its `details` gives for it.
 */
export function diffInputs<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  olds: O,
  news: I,
): InputsDiff {
  const replaces: string[] = [];
  const detailedDiff: Record<string, PropertyChange> = {};
  let changes = false;
  for (const key of rows(definition)) {
    const change = definition.changes[key];
    if (change === "ignore" || !differs(definition, key, olds, news)) continue;
    if (change === "replace") replaces.push(String(key));
    else changes = true;
    const had = (olds as Record<string, unknown>)[key];
    const kind: "add" | "update" | "delete" =
      had === undefined ? "add" : news[key] === undefined ? "delete" : "update";
    const finer = definition.details?.[key]?.(olds, news) ?? { [key]: kind };
    for (const [path, how] of Object.entries(finer))
      detailedDiff[path] = change === "replace" ? (`${how}-replace` as PropertyChange) : how;
  }
  // An earlier run stopped waiting: an update resumes the wait.
  if ((olds.pendingOperationIds ?? []).length > 0) changes = true;
  if (definition.stale?.(olds) === true) changes = true;
  const deleteBeforeReplace = replaces.length > 0 && (definition.deleteBeforeReplace?.(olds, news) ?? false);
  const named = definition.details === undefined ? {} : { detailedDiff };
  return { changes: changes || replaces.length > 0, replaces, deleteBeforeReplace, ...named };
}

/**
 * The state an update starts from: the old state with the new values of the `update` rows (a
 * `computed` input left out keeps its value), and no pending operations once they were awaited.
 */
export function updatedState<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  olds: O,
  news: I,
): O {
  const outs: Record<string, unknown> = { ...(olds as Record<string, unknown>) };
  for (const key of rows(definition)) {
    if (definition.changes[key] !== "update") continue;
    const value = news[key];
    if (value !== undefined) outs[String(key)] = value;
    else if (!definition.computed?.includes(key)) delete outs[String(key)];
  }
  if (olds.pendingOperationIds !== undefined) outs.pendingOperationIds = [];
  return outs as O;
}

function rows<I extends CommonInputs, O extends CommonState>(definition: ResourceDefinition<I, O>) {
  return Object.keys(definition.changes) as (keyof I & string)[];
}

/** Whether input `key` asks for something other than the state has. A value not known yet may differ. */
function differs<I extends CommonInputs, O extends CommonState>(
  definition: ResourceDefinition<I, O>,
  key: keyof I & string,
  olds: O,
  news: I,
): boolean {
  const wanted = news[key];
  const had: unknown = (olds as Record<string, unknown>)[key];
  if (wanted === undefined && definition.computed?.includes(key)) return false;
  if (isUnknown(wanted)) return true;
  const same = definition.same?.[key];
  if (same !== undefined) return !same(wanted, had, { news, olds });
  const lifecycleSame = LIFECYCLE_SAME[key];
  if (lifecycleSame !== undefined) return !lifecycleSame(wanted, had);
  return canonical(wanted ?? null) !== canonical(had ?? null);
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
