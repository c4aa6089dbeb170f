/**
 * An anonymized Branch: made through the anonymized-branch route with its masking rules and no
 * compute, followed until its data is masked, and only then given its computes and connection
 * strings, so no program is handed a connection to its parent's data unmasked (a failed masking
 * deletes the branch); its rules set again and its data masked again in place.
 */
import {
  type AnonymizedStatus,
  type MaskingRule as ApiMaskingRule,
  type CloudDbClient,
  isApiError,
} from "../client";
import { convergeComputes } from "./branchComputes";
import { existing, refreshed } from "./branchOutputs";
import { withConnection } from "./connection";
import { messageOf, PartialFailure, ResourceError, unfinished } from "./errors";
import { compact, labelOf, type Step } from "./lifecycle/define";
import type { BranchInputs, BranchOutputs, MaskingRule } from "./public/branch";

/** The schema a rule names when it names none. */
const DEFAULT_SCHEMA = "public";

/** The rules as the API takes them. */
export function apiRules(rules: readonly MaskingRule[] | undefined) {
  return (rules ?? []).map((rule) =>
    compact({
      database_name: rule.databaseName,
      schema_name: rule.schemaName ?? DEFAULT_SCHEMA,
      table_name: rule.tableName,
      column_name: rule.columnName,
      masking_function: rule.maskingFunction,
      masking_value: rule.maskingValue,
    }),
  );
}

/** The rules as the state records them, from the API's. */
function ruleInputs(rules: readonly ApiMaskingRule[]): MaskingRule[] {
  return rules.map((rule) =>
    compact({
      databaseName: rule.database_name,
      schemaName: rule.schema_name,
      tableName: rule.table_name,
      columnName: rule.column_name,
      maskingFunction: rule.masking_function,
      maskingValue: rule.masking_value,
    }),
  );
}

/** Whether two lists of rules mask the same columns the same way, in the same order (a rule's schema defaults to `public`). */
export function sameRules(news: unknown, olds: unknown): boolean {
  const key = (rules: unknown) => JSON.stringify(apiRules(Array.isArray(rules) ? rules : []));
  return key(news) === key(olds);
}

/** What the state records of an anonymization. */
export type AnonymizationFields = Pick<
  BranchOutputs,
  "maskingRules" | "anonymizationState" | "anonymizationMessage"
>;

function statusFields(status: AnonymizedStatus) {
  return { anonymizationState: status.state, anonymizationMessage: status.status_message };
}

/** When the branch's last masking run ended, if it succeeded (the status is `anonymized`). */
export function lastMaskedAt(status: AnonymizedStatus): string | undefined {
  return status.state === "anonymized" ? (status.last_run?.completed_at ?? undefined) : undefined;
}

/** The states in which a masking run failed, or the branch could not be made to run one. */
const FAILED = new Set(["error", "initialization_error"]);

/** The branch's rules and anonymization as they are now. */
export async function readAnonymization(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<AnonymizationFields> {
  return (await readAnonymizationStatus(client, projectId, branchId)).fields;
}

/** The same, with the status they are read from. */
export async function readAnonymizationStatus(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<{ fields: AnonymizationFields; status: AnonymizedStatus }> {
  const [status, rules] = await Promise.all([
    client.getAnonymizedStatus(projectId, branchId),
    client.getMaskingRules(projectId, branchId),
  ]);
  return { fields: compact({ ...statusFields(status), maskingRules: ruleInputs(rules) }), status };
}

/**
 * The same for a branch that may not be anonymized (an import, an adoption): nothing when the
 * service keeps no anonymization for it (it refuses the status of such a branch with a 4xx).
 */
export async function anonymizationIfAny(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<AnonymizationFields> {
  try {
    return await readAnonymization(client, projectId, branchId);
  } catch (err) {
    const status = isApiError(err) ? (err.status ?? 0) : 0;
    if (status >= 400 && status < 500 && status !== 423 && status !== 429) return {};
    throw err;
  }
}

/**
 * Waits until the branch's data is masked: its anonymization `anonymized`. One that fails throws
 * with the service's message (which names the rule); the deadline bounds the wait.
 */
export async function waitForAnonymization(
  client: CloudDbClient,
  outs: Pick<BranchOutputs, "projectId" | "branchId" | "name">,
  deadline: number,
): Promise<AnonymizationFields> {
  const status = await client.waitForAnonymization(outs.projectId, outs.branchId, { deadline });
  if (status.state === "anonymized") return statusFields(status);
  const label = labelOf("branch", outs.branchId, outs);
  throw new ResourceError(
    "Unusable",
    FAILED.has(status.state)
      ? `the anonymization of ${label} ended in ${status.state}: ${status.status_message ?? "the service gave no reason"}. ` +
          "Its data may not be masked: fix maskingRules (or change anonymizeTrigger to try again) and run `pulumi up`"
      : `the anonymization of ${label} is ${status.state}, not anonymized, at the end of the wait: its data may ` +
          "not be masked; the next `pulumi up` waits for it and masks it again (raise timeouts to wait longer)",
  );
}

/**
 * Masks the branch's data again: sets its rules when they changed, starts the anonymization and
 * waits for it. For an update whose rules, trigger, reset or restore asks for it. Unless `force`
 * (the data was replaced, or a new trigger asks), a run an interrupted run started that ended
 * `anonymized` with the same rules is the masking asked for: none is started again.
 */
export async function anonymizeAgain(
  client: CloudDbClient,
  outs: BranchOutputs,
  olds: Pick<BranchOutputs, "maskingRules">,
  news: BranchInputs,
  deadline: number,
  force = true,
): Promise<AnonymizationFields> {
  // A run an earlier, interrupted update started ends first: the service starts none while one runs.
  const before = await client.waitForAnonymization(outs.projectId, outs.branchId, { deadline });
  const same = sameRules(news.maskingRules, olds.maskingRules);
  if (!force && same && before.state === "anonymized") {
    return { ...statusFields(before), maskingRules: olds.maskingRules };
  }
  const rules = same
    ? olds.maskingRules
    : ruleInputs(await client.setMaskingRules(outs.projectId, outs.branchId, apiRules(news.maskingRules)));
  await client.startAnonymization(outs.projectId, outs.branchId);
  return { ...(await waitForAnonymization(client, outs, deadline)), maskingRules: rules };
}

/** Whether an update must mask the branch's data again. */
export function remasks(olds: BranchOutputs, news: BranchInputs, reset: boolean, restored: boolean): boolean {
  if (news.initSource !== "anonymized") return false;
  return (
    reset ||
    restored ||
    olds.anonymizationState !== "anonymized" ||
    !sameRules(news.maskingRules, olds.maskingRules) ||
    (news.anonymizeTrigger !== undefined && news.anonymizeTrigger !== olds.anonymizeTrigger)
  );
}

/**
 * The end of an anonymized branch's create, made without computes: waits for its masking, then
 * makes the declared computes and reads the connection strings. A masking that fails leaves nothing
 * (`undoFailedMasking`); one still running at the deadline records the branch without computes (a
 * partial failure), and the next `up` waits for it before it makes any.
 */
export async function anonymizedAtCreate(
  { client, deadline }: Pick<Step, "client" | "deadline">,
  inputs: BranchInputs,
  outs: BranchOutputs,
): Promise<BranchOutputs> {
  const maskingRules = ruleInputs(apiRules(inputs.maskingRules));
  const label = labelOf("branch", outs.branchId, outs);
  const unread = { ...outs, maskingRules, anonymizationState: "unknown", pendingOperationIds: [] };
  // The branch exists: a status that cannot be read records it, without computes, for the next `up`.
  const status = await client
    .waitForAnonymization(outs.projectId, outs.branchId, { deadline })
    .catch((err: unknown) =>
      Promise.reject(
        new PartialFailure(
          outs.branchId,
          unread,
          [
            `${label} was created in project ${outs.projectId} but its anonymization could not be read ` +
              `(${messageOf(err)}). It is recorded in the state without computes or connection strings; the ` +
              "next `pulumi up` waits for the masking, then makes its computes.",
          ],
          err,
        ),
      ),
    );
  const recorded = { ...outs, maskingRules, ...compactStatus(status), pendingOperationIds: [] };
  if (FAILED.has(status.state)) throw await undoFailedMasking(client, recorded, status, deadline);
  if (status.state !== "anonymized") {
    throw new PartialFailure(outs.branchId, recorded, [
      `${label} was created in project ${outs.projectId} but its data is not masked yet: its anonymization is ` +
        `${status.state} at the end of the wait. It is recorded in the state without computes or connection ` +
        "strings; the next `pulumi up` waits for the masking, then makes its computes (raise timeouts to wait longer).",
    ]);
  }
  // Only now is there a compute to connect to: the data it serves is masked.
  try {
    await convergeComputes(client, outs.projectId, outs.branchId, recorded, inputs, deadline);
  } catch (err) {
    throw unfinished("branch", outs.branchId, inputs, recorded, err, " (its computes were not made)");
  }
  const current = await refreshed(client, recorded).catch(() => recorded);
  return withConnection(client, inputs, current);
}

function compactStatus(status: AnonymizedStatus) {
  return compact(statusFields(status)) as Pick<AnonymizationFields, "anonymizationState">;
}

/**
 * A create's masking failed: the branch it made is deleted (it never had a compute), and the error
 * names the rule (the service's message) and what to fix. A delete that fails too records the
 * branch, still without computes, so the next `up` masks it or replaces it.
 */
async function undoFailedMasking(
  client: CloudDbClient,
  recorded: BranchOutputs,
  status: AnonymizedStatus,
  deadline: number,
): Promise<Error> {
  const label = labelOf("branch", recorded.branchId, recorded);
  const why = `the anonymization of ${label} ended in ${status.state}: ${status.status_message ?? "the service gave no reason"}`;
  try {
    await client.deleteBranch(recorded.projectId, recorded.branchId, { deadline });
  } catch (err) {
    return new PartialFailure(
      recorded.branchId,
      recorded,
      [
        `${why}. Its delete failed too (${messageOf(err)}): it is recorded in the state, without computes or ` +
          "connection strings; fix maskingRules and run `pulumi up`.",
      ],
      err,
    );
  }
  return new ResourceError(
    "Unusable",
    `${why}. Nothing was left: the branch is deleted, and it never had a compute or a connection string. ` +
      "Fix maskingRules (the rule named: its databaseName, schemaName, tableName, columnName, and its " +
      "maskingFunction or maskingValue) and run `pulumi up` again",
  );
}

/** An existing branch as it is now (`existing`), with its anonymization when it is anonymized. */
export async function existingBranch(
  client: CloudDbClient,
  inputs: BranchInputs,
  branchId: string,
): Promise<BranchOutputs> {
  const olds = await existing(client, inputs, branchId);
  return { ...olds, ...(await anonymizationIfAny(client, inputs.projectId, branchId)) };
}
