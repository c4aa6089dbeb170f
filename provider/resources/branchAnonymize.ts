/**
 * An anonymized Branch: made through the anonymized-branch route with its masking rules and
 * followed until its data is masked, so no program is handed a connection to its parent's data
 * unmasked; its rules set again and its data masked again in place.
 */
import {
  type AnonymizedStatus,
  type MaskingRule as ApiMaskingRule,
  type CloudDbClient,
  isApiError,
} from "../client";
import { existing, refreshed } from "./branchOutputs";
import { type CreatedAccess, withConnection } from "./connection";
import { messageOf, PartialFailure, ResourceError } from "./errors";
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

/** The branch's rules and anonymization as they are now. */
export async function readAnonymization(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<AnonymizationFields> {
  const [status, rules] = await Promise.all([
    client.getAnonymizedStatus(projectId, branchId),
    client.getMaskingRules(projectId, branchId),
  ]);
  return compact({ ...statusFields(status), maskingRules: ruleInputs(rules) });
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
    status.state === "error" || status.state === "initialization_error"
      ? `the anonymization of ${label} ended in ${status.state}: ${status.status_message ?? "the service gave no reason"}. ` +
          "Its data may not be masked: fix maskingRules (or change anonymizeTrigger to try again) and run `pulumi up`"
      : `the anonymization of ${label} is ${status.state}, not anonymized, at the end of the wait: its data may ` +
          "not be masked; the next `pulumi up` waits for it and masks it again (raise timeouts to wait longer)",
  );
}

/**
 * Masks the branch's data again: sets its rules when they changed, starts the anonymization and
 * waits for it. For an update whose rules, trigger, reset or restore asks for it.
 */
export async function anonymizeAgain(
  client: CloudDbClient,
  outs: BranchOutputs,
  olds: Pick<BranchOutputs, "maskingRules">,
  news: BranchInputs,
  deadline: number,
): Promise<AnonymizationFields> {
  // A run an earlier, interrupted update started ends first: the service starts none while one runs.
  await client.waitForAnonymization(outs.projectId, outs.branchId, { deadline });
  const rules = sameRules(news.maskingRules, olds.maskingRules)
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
 * The end of an anonymized branch's create: its data masked, then its connection strings read. A
 * branch whose anonymization fails or outlasts the wait is recorded without connection strings (its
 * data may be its parent's, unmasked), and the next `up` masks it again (`remasks`).
 */
export async function anonymizedAtCreate(
  { client, deadline }: Pick<Step, "client" | "deadline">,
  inputs: BranchInputs,
  outs: BranchOutputs,
  created: CreatedAccess,
): Promise<BranchOutputs> {
  const maskingRules = ruleInputs(apiRules(inputs.maskingRules));
  let fields: AnonymizationFields;
  try {
    fields = await waitForAnonymization(client, outs, deadline);
  } catch (err) {
    const status = await client.getAnonymizedStatus(outs.projectId, outs.branchId).catch(() => undefined);
    const recorded = {
      ...outs,
      maskingRules,
      anonymizationState: status?.state ?? "unknown",
      ...compact({ anonymizationMessage: status?.status_message }),
      pendingOperationIds: [],
    };
    throw new PartialFailure(
      outs.branchId,
      recorded,
      [
        `${labelOf("branch", outs.branchId, outs)} was created in project ${outs.projectId} but its data is not ` +
          `masked: ${messageOf(err)}. It is recorded in the state without connection strings; the next ` +
          "`pulumi up` starts its anonymization again.",
      ],
      err,
    );
  }
  const masked = { ...outs, ...fields, maskingRules };
  const current = await refreshed(client, masked).catch(() => masked);
  return withConnection(client, inputs, current, created);
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
