import type { AnonymizedBranchStatusResponse, MaskingRulesResponse } from "@neon/sdk/raw";
import type { AnonymizationState } from "../families/anonymization";
import { isoSeconds } from "../ids";
import type { AnonymizationRecord, BranchRecord } from "../records";
import type { Store } from "../state";

// An anonymized branch's masking rules and anonymization status as the API shows them.

/** The branch's masking rules, as they were last set. */
export function renderMaskingRules(record: AnonymizationRecord): MaskingRulesResponse {
  return { masking_rules: record.masking_rules.map((r) => ({ ...r })) };
}

/** The branch's anonymization status: its state now and the latest run. */
export function renderAnonymizedStatus(
  branch: BranchRecord,
  status: AnonymizationState,
  store: Store,
): AnonymizedBranchStatusResponse {
  const out: AnonymizedBranchStatusResponse = {
    project_id: branch.project_id,
    branch_id: branch.id,
    state: status.state,
    status_message: status.message,
    created_at: isoSeconds(branch.created_at_ms),
    updated_at: isoSeconds(status.updatedMs),
  };
  if (status.failedMs !== undefined) out.failed_at = isoSeconds(status.failedMs);
  if (status.run !== undefined) {
    const { run } = status.run;
    const user = run.triggered_by === undefined ? undefined : store.users.get(run.triggered_by);
    out.last_run = {
      started_at: isoSeconds(status.run.startedMs),
      ...(status.run.completedMs === undefined ? {} : { completed_at: isoSeconds(status.run.completedMs) }),
      ...(user === undefined ? {} : { triggered_by: user.id, triggered_by_username: user.name }),
      ...(status.run.completedMs === undefined || run.outcome === undefined
        ? {}
        : { masked_columns: run.outcome.masked_columns }),
    };
  }
  return out;
}
