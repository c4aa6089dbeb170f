/**
 * A Branch brought to its inputs in place, as an update, an adoption and a create that takes a killed
 * run's branch do: what one PATCH of the branch sets, its computes, a reset from its parent, a restore.
 */
import type { CloudDbClient } from "../client";
import { anonymizeAgain, remasks } from "./branchAnonymize";
import { convergeComputes } from "./branchComputes";
import { readLive } from "./branchOutputs";
import { disableComputes, enableComputes } from "./branchQuarantine";
import { restoreInPlace } from "./branchRestore";
import { withConnection } from "./connection";
import { ResourceError } from "./errors";
import { sameInstant, wantedExpiry } from "./expiry";
import { compact, labelOf, type Step } from "./lifecycle/define";
import type { BranchInputs, BranchOutputs, BranchRestore } from "./public/branch";
import { restoredInPlace } from "./restores";

/**
 * Brings the branch from `olds` to `news` in place: name, protection and expiry in one PATCH, its
 * computes (`convergeComputes`), then the reset from the parent or the restore when asked, then an
 * anonymized branch's masking; reads the branch again, and its connection strings when they may
 * have changed or were never read. An anonymized branch's computes are disabled before its data is
 * replaced (or while it is not known masked), made and enabled only after the masking.
 */
export async function converge(
  { client, deadline }: Step,
  id: string,
  outs: BranchOutputs,
  olds: BranchOutputs,
  news: BranchInputs,
  reset: boolean,
  restore?: BranchRestore,
): Promise<BranchOutputs> {
  const { projectId } = olds;
  const expiresAt = wantedExpiry(news, olds, Date.now());
  const patch = compact({
    name: news.name !== undefined && news.name !== olds.name ? news.name : undefined,
    protected:
      (news.protected ?? false) !== (olds.protected ?? false) ? (news.protected ?? false) : undefined,
    expires_at: sameInstant(expiresAt, olds.expiresAt) ? undefined : expiresAt,
  });
  if (Object.keys(patch).length > 0) await client.updateBranch(projectId, id, patch, { deadline });
  const anonymized = news.initSource === "anonymized";
  const replaced = reset || restore !== undefined;
  // An anonymized branch whose data is about to be replaced by unmasked data, or is not known masked
  // now, serves no connection until it is masked: its computes are disabled first, enabled last.
  const quarantined = anonymized && (replaced || olds.anonymizationState !== "anonymized");
  if (quarantined) await disableComputes(client, projectId, id, deadline);
  if (!anonymized) await convergeComputes(client, projectId, id, olds, news, deadline);
  if (reset) await resetFromParent(client, id, outs, deadline);
  if (restore !== undefined) await restoreInPlace(client, id, outs, restore, deadline);
  // Its roles, databases and their rows are now the parent's or the point's: what lives on the
  // branch and follows it in this run reads itself again.
  if (replaced) restoredInPlace(id);
  // An anonymized branch's data is masked again after a reset or a restore brought its parent's (or
  // a point's) data back, and when its rules or its trigger changed.
  const triggered = news.anonymizeTrigger !== undefined && news.anonymizeTrigger !== olds.anonymizeTrigger;
  const remasked = remasks(olds, news, reset, restore !== undefined)
    ? await anonymizeAgain(client, outs, olds, news, deadline, replaced || triggered)
    : {};
  // Its computes are made, and enabled again, once its data is masked.
  if (anonymized) {
    await convergeComputes(client, projectId, id, olds, news, deadline);
    if (quarantined) await enableComputes(client, projectId, id, deadline);
  }
  const next = { ...outs, ...remasked, ...(await readLive(client, projectId, id, outs.parentId)) };
  const stale =
    reset || restore !== undefined || next.connectionUri === "" || next.endpointId !== olds.endpointId;
  return stale ? withConnection(client, news, next) : next;
}

/** Restores the branch's data from its parent's head and waits for the operations (computes restart). */
async function resetFromParent(
  client: CloudDbClient,
  id: string,
  outs: BranchOutputs,
  deadline: number,
): Promise<void> {
  if (outs.parentId === null || outs.initSource === "schema-only") {
    throw new ResourceError(
      "NotResettable",
      `resetTrigger: ${labelOf("branch", id, outs)} has no parent to reset from (it is a root or schema-only branch): remove resetTrigger`,
    );
  }
  await client.restoreBranch(outs.projectId, id, { source_branch_id: outs.parentId }, { deadline });
}
