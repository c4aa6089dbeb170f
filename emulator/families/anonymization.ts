import type { EmulatorContext } from "../context";
import { badRequest, HttpError } from "../errors";
import { readMasking, ruleName, ruleShapeProblem } from "../masking-functions";
import { TERMINAL_STATUSES, viewOperation } from "../operations";
import type {
  AnonymizationRecord,
  AnonymizationRunRecord,
  BranchRecord,
  MaskingRuleRecord,
} from "../records";
import { holdOnBranch } from "./branch-data";

// Anonymized branches: a branch made with masking rules, whose anonymization masks its own copy
// of the parent's data (docs/api-rules.md §16). The state is computed from the records and the
// clock, like an operation's: `created` until the branch's create operation ends
// (`initialization_error` if it failed), then `initialized`; a run is `anonymizing` for the
// `anonymize` duration (`opDurationMs`), then `anonymized` or `error`. The masking itself is done
// when the run is asked for, before the API answers, as every data-plane change is.

declare module "../records" {
  interface BranchData {
    /** Set on a branch made anonymized (`POST .../branch_anonymized`): its masking rules and runs. */
    anonymization?: AnonymizationRecord;
  }
}

// The route that makes an anonymized branch sets its rules, so a child starts without any. A branch
// preserved by a restore keeps them with its last run; the branch whose data a restore replaced has
// lost what its last run masked, so it is ready to be masked again.
holdOnBranch({
  field: "anonymization",
  toChild: false,
  preserved: true,
  onRestore: ({ last_run: _masked, ...rules }) => rules,
});

/** The operation-duration key of an anonymization run. */
export const ANONYMIZE_ACTION = "anonymize";

/** The states in which an anonymization may start (the document's list). */
const STARTABLE = new Set(["initialized", "error", "anonymized"]);

/** An anonymized branch's state at a time, with what the status shows. */
export interface AnonymizationState {
  state: "created" | "initialized" | "initialization_error" | "anonymizing" | "anonymized" | "error";
  message: string;
  updatedMs: number;
  failedMs?: number;
  run?: { startedMs: number; completedMs?: number; run: AnonymizationRunRecord };
}

/** Throws 400 naming the first rule that gives both or neither of a function and a value. */
export function checkRules(rules: MaskingRuleRecord[], field: string): void {
  for (const [index, rule] of rules.entries()) {
    const problem = ruleShapeProblem(rule);
    if (problem !== undefined) throw badRequest(`${field}[${index}]: ${ruleName(rule, index)} ${problem}`);
  }
}

/** The rules as stored: the fields the API knows, nothing else. */
export function storedRules(rules: MaskingRuleRecord[]): MaskingRuleRecord[] {
  return rules.map((r) => {
    const rule: MaskingRuleRecord = {
      database_name: r.database_name,
      schema_name: r.schema_name,
      table_name: r.table_name,
      column_name: r.column_name,
    };
    if (r.masking_function !== undefined) rule.masking_function = r.masking_function;
    if (r.masking_value !== undefined) rule.masking_value = r.masking_value;
    return rule;
  });
}

/** The branch's anonymization record; throws `status` when the branch is not an anonymized one. */
export function anonymizationOf(branch: BranchRecord, status: 400 | 404): AnonymizationRecord {
  if (branch.anonymization === undefined) {
    throw new HttpError(
      status,
      `branch ${branch.id} is not an anonymized branch: only branches created with ` +
        "POST /projects/{project_id}/branch_anonymized have masking rules and an anonymization status",
    );
  }
  return branch.anonymization;
}

/** The state of the branch's setup: `created` while its create operation runs, then done or failed. */
function setupState(ctx: EmulatorContext, branch: BranchRecord, nowMs: number): AnonymizationState {
  const op = branch.create_op_id === undefined ? undefined : ctx.store.operations.get(branch.create_op_id);
  if (op === undefined) {
    return { state: "initialized", message: "ready for anonymization", updatedMs: branch.created_at_ms };
  }
  const view = viewOperation(op, nowMs);
  if (!TERMINAL_STATUSES.has(view.status)) {
    return { state: "created", message: "the branch is being created", updatedMs: branch.created_at_ms };
  }
  const endMs = Date.parse(view.updated_at);
  if (view.status === "error" || view.status === "cancelled") {
    return {
      state: "initialization_error",
      message: `the branch could not be created: ${view.error ?? `its ${op.action} operation was cancelled`}`,
      updatedMs: endMs,
      failedMs: endMs,
    };
  }
  return { state: "initialized", message: "ready for anonymization", updatedMs: endMs };
}

/** The anonymized branch's state at `nowMs`. */
export function anonymizationState(
  ctx: EmulatorContext,
  branch: BranchRecord,
  nowMs: number,
): AnonymizationState {
  const setup = setupState(ctx, branch, nowMs);
  const run = branch.anonymization?.last_run;
  if (run === undefined || setup.state !== "initialized") return setup;
  // A run asked for with the create starts once the branch is made.
  const startedMs = Math.max(run.requested_at_ms, setup.updatedMs);
  // The data at the time a run completed is masked (docs/api-rules.md §16): it ends no earlier than
  // the clock's reading after the masking, which may take longer than the run's duration.
  const endMs = Math.max(startedMs + run.duration_ms, run.masked_at_ms ?? 0);
  const outcome = run.outcome;
  if (outcome === undefined || nowMs < endMs) {
    const total = run.tables.length;
    const at = Math.min(total - 1, Math.floor(((nowMs - startedMs) / Math.max(1, run.duration_ms)) * total));
    return {
      state: "anonymizing",
      message:
        total === 0
          ? "Anonymizing: no masking rules to apply"
          : `Anonymizing table ${run.tables[at]} (${at + 1}/${total})`,
      updatedMs: startedMs,
      run: { startedMs, run },
    };
  }
  const done = { updatedMs: endMs, run: { startedMs, completedMs: endMs, run } };
  if (outcome.error !== undefined)
    return { state: "error", message: outcome.error, failedMs: endMs, ...done };
  return { state: "anonymized", message: outcome.message, ...done };
}

/** Throws 409 unless the branch is in a state an anonymization may start from. */
export function checkStartable(ctx: EmulatorContext, branch: BranchRecord): void {
  const { state } = anonymizationState(ctx, branch, ctx.clock.now());
  if (!STARTABLE.has(state)) {
    throw new HttpError(
      409,
      `branch ${branch.id} is ${state}: anonymization starts only from the initialized, error or anonymized state`,
    );
  }
}

/**
 * Runs the branch's masking rules over its current data: with the data plane, an UPDATE per rule
 * (data-plane/masking.ts); without it, the rules are only read. The run is noted first, so the
 * branch is `anonymizing` (and refuses another run) while the masking is applied.
 */
export async function anonymize(ctx: EmulatorContext, branch: BranchRecord, userId: string): Promise<void> {
  const record = branch.anonymization;
  if (record === undefined) return;
  const rules = storedRules(record.masking_rules);
  const run: AnonymizationRunRecord = {
    requested_at_ms: ctx.clock.now(),
    duration_ms: ctx.engine.durationOf(ANONYMIZE_ACTION),
    triggered_by: userId,
    tables: rules.map((r) => `${r.database_name}.${r.schema_name}.${r.table_name}`),
  };
  record.last_run = run;
  ctx.changed();
  if (ctx.data !== undefined) {
    const result = await ctx.data
      .mask(branch, rules, branch.id)
      .catch((error: Error) => ({ maskedColumns: 0, error: `the masking could not run: ${error.message}` }));
    run.masked_at_ms = ctx.clock.now();
    run.outcome = {
      masked_columns: result.maskedColumns,
      message: `anonymized: ${result.maskedColumns} column(s) masked`,
      ...(result.error === undefined ? {} : { error: result.error }),
    };
  } else {
    run.outcome = { masked_columns: 0, message: "" };
    for (const [index, rule] of rules.entries()) {
      try {
        readMasking(rule);
      } catch (error) {
        run.outcome.error = `${ruleName(rule, index)}: ${(error as Error).message}`;
        break;
      }
    }
    run.outcome.message =
      `${rules.length} masking rule(s) checked; no data was masked: the emulator runs without ` +
      "its Postgres data plane (--postgres)";
  }
  ctx.changed();
}
