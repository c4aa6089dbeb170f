/**
 * The computes of an anonymized Branch kept from serving data that is not known masked: disabled
 * (the endpoint's `disabled` flag, which refuses every connection) before a reset or a restore
 * replaces the branch's data with unmasked data, and enabled again once a masking run succeeded.
 * A run killed in between leaves them disabled: the safe side, which the next `up` finishes.
 */
import type { AnonymizedStatus, Endpoint as ApiEndpoint, CloudDbClient } from "../client";
import { lastMaskedAt } from "./branchAnonymize";
import { hostLine } from "./host/progress";
import { labelOf } from "./lifecycle/define";

/**
 * Whether the branch's data is known masked: its last run succeeded (`anonymized`), and no reset or
 * restore replaced the data since it ended (`lastResetAt`, the branch's `last_reset_at`). A run
 * under way is not: it may not have reached every rule's column yet. Another state the service
 * may add is not either.
 */
export function knownMasked(status: AnonymizedStatus, lastResetAt: string | null | undefined): boolean {
  if (status.state !== "anonymized") return false;
  const masked = Date.parse(lastMaskedAt(status) ?? "");
  const reset = Date.parse(lastResetAt ?? "");
  return Number.isNaN(reset) || Number.isNaN(masked) || masked >= reset;
}

/**
 * Disables every enabled compute of the branch (`endpoints`, else listed now) and waits for the
 * operations: no connection reaches its data until `enableComputes`. Returns the ids disabled.
 */
export async function disableComputes(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  deadline: number,
  endpoints?: readonly ApiEndpoint[],
): Promise<string[]> {
  const own = endpoints ?? (await client.listBranchEndpoints(projectId, branchId));
  const enabled = own.filter((ep) => ep.branch_id === branchId && ep.disabled !== true);
  for (const ep of enabled) {
    await client.updateEndpoint(projectId, ep.id, { endpoint: { disabled: true } }, { deadline });
  }
  return enabled.map((ep) => ep.id);
}

/** Enables every disabled compute of the branch again, once its data is masked. */
export async function enableComputes(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  deadline: number,
): Promise<void> {
  const disabled = (await client.listBranchEndpoints(projectId, branchId)).filter(
    (ep) => ep.disabled === true,
  );
  for (const ep of disabled) {
    await client.updateEndpoint(projectId, ep.id, { endpoint: { disabled: false } }, { deadline });
  }
}

/**
 * A refresh that finds an anonymized branch whose data is not known masked (restored from its
 * parent outside the stack, say): disables its computes, the one write a refresh makes, and says
 * so; the state records the anonymization's state, so the next `up` masks the data and enables them.
 */
export async function quarantineAtRefresh(
  client: CloudDbClient,
  outs: { projectId: string; branchId: string; name?: string | undefined },
  endpoints: readonly ApiEndpoint[],
  status: AnonymizedStatus,
  deadline: number,
): Promise<void> {
  const disabled = await disableComputes(client, outs.projectId, outs.branchId, deadline, endpoints);
  if (disabled.length === 0) return;
  hostLine(
    `warning: ${labelOf("branch", outs.branchId, outs)} is anonymized but its data is not known masked ` +
      `(its anonymization is ${status.state}: a reset or restore may have brought its parent's data back): ` +
      `its compute ${disabled.join(", ")} is disabled so no connection reads it; the next \`pulumi up\` masks ` +
      "the data and enables the compute again",
  );
}
