/**
 * A branch's data restored in place, and the scratch branches a snapshot restore goes through: how
 * they are named (marks of the branch and of the restore), found again after a killed run, reused
 * or deleted, and recorded by a refresh (`__leftScratches`) so the next `up` deletes them.
 */
import type { Branch as ApiBranch, CloudDbClient } from "../client";
import { isNotFound } from "../client/errors";
import { messageOf, missingNamed } from "./errors";
import { hostLine } from "./host/progress";
import { compact, labelOf } from "./lifecycle/define";
import { openOperations } from "./lifecycle/openOperations";
import { markOf } from "./lifecycle/owner";
import type { BranchOutputs, BranchRestore } from "./public/branch";
import { carrierIn } from "./restores";

/** Whether two restore inputs name the same restore. */
export function sameRestore(a: BranchRestore | undefined, b: BranchRestore | undefined): boolean {
  return JSON.stringify(compact({ ...a })) === JSON.stringify(compact({ ...b }));
}

/**
 * Restores the branch's data in place (docs/api-rules.md §9), keeping its id, name and computes,
 * so the state stays true: from a point of its own history, with the service's branch restore
 * (the data before it kept as a new branch); from a snapshot, by restoring the snapshot into a
 * scratch branch, restoring the branch from it, and deleting the scratch branch. Waits for each.
 */
export async function restoreInPlace(
  client: CloudDbClient,
  id: string,
  outs: BranchOutputs,
  restore: BranchRestore,
  deadline: number,
): Promise<void> {
  const { projectId } = outs;
  const stamp = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const preserve = restore.preserveUnderName;
  if (restore.snapshotId === undefined) {
    await client.restoreBranch(
      projectId,
      id,
      compact({
        source_branch_id: id,
        source_timestamp: restore.timestamp,
        source_lsn: restore.lsn,
        preserve_under_name: preserve ?? `${outs.name}_before_restore_${stamp}`,
      }),
      { deadline },
    );
    return;
  }
  const { scratch, applied } = await scratchFor(client, id, outs, restore, restore.snapshotId, deadline);
  try {
    if (!applied) {
      await client.restoreBranch(
        projectId,
        id,
        compact({ source_branch_id: scratch.id, preserve_under_name: preserve }),
        { deadline },
      );
    }
  } finally {
    // A scratch branch left behind is said, never a failure: failing the update after the restore
    // happened would leave the state without it, and the next `up` would restore again.
    await client
      .deleteBranch(projectId, scratch.id, { deadline })
      .catch((err: unknown) =>
        hostLine(
          `${labelOf("branch", id, outs)}: the scratch branch ${scratch.id} (${scratch.name}) the restore ` +
            `went through was not deleted (${messageOf(err)}): it expires by itself at ${scratch.expires_at ?? "its expiry"}, ` +
            `or delete it with \`neonctl branches delete ${scratch.id}\``,
        ),
      );
  }
}

/** How long a scratch branch outlives the run that made it: the service deletes it then, should the run never come back. */
const SCRATCH_GRACE_MS = 3_600_000;

/**
 * The scratch branch a snapshot restore of branch `id` goes through, named with marks of the
 * branch and of the restore (`scratchName`), so a later run knows it as its own; it expires an hour
 * after the run's deadline. Scratch branches an interrupted run left are dealt with first: one of
 * this very restore is reused, and when the branch was restored after it was made (its
 * `last_reset_at`), the restore already happened (`applied`: it is not done twice); others are
 * deleted.
 */
export async function scratchFor(
  client: CloudDbClient,
  id: string,
  outs: BranchOutputs,
  restore: BranchRestore,
  snapshotId: string,
  deadline: number,
): Promise<{ scratch: ApiBranch; applied: boolean }> {
  const { projectId } = outs;
  const name = scratchName(id, outs.name, restore);
  let found: { scratch: ApiBranch; applied: boolean } | undefined;
  const branches = await client.listBranches(projectId);
  const target = branches.find((b) => b.id === id);
  for (const b of leftScratches(branches, id)) {
    if (found === undefined && b.name === name && b.restored_from === snapshotId) {
      const reset = Date.parse(target?.last_reset_at ?? "");
      found = { scratch: b, applied: reset >= Date.parse(b.created_at) };
    } else {
      await client.deleteBranch(projectId, b.id, { deadline });
    }
  }
  if (found !== undefined) {
    const ops = await openOperations(client, projectId, (op) => op.branch_id === found.scratch.id);
    await client.waitForOperations(projectId, ops, { deadline });
    return found;
  }
  const made = await client
    .restoreSnapshot(
      projectId,
      snapshotId,
      { name, target_branch_id: id, finalize_restore: false },
      { deadline, wait: false },
    )
    .catch((err: unknown) =>
      Promise.reject(
        missingNamed(
          err,
          `restore.snapshotId: project ${projectId} has no snapshot ${snapshotId}`,
          "a branch is restored from a snapshot of its own project: check the id (`neonctl snapshots list` lists them)",
        ),
      ),
    );
  // Counted on the service's clock (the scratch branch's creation), by which it judges the expiry.
  const serviceNow = Date.parse(made.branch.created_at);
  const base = Number.isNaN(serviceNow) ? Date.now() : serviceNow;
  const expires_at = new Date(base + Math.max(deadline - Date.now(), 0) + SCRATCH_GRACE_MS)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");
  const { branch } = await client.updateBranch(projectId, made.branch.id, { expires_at }, { deadline });
  await client.waitForOperations(projectId, made.operations, { deadline });
  return { scratch: branch, applied: false };
}

/** The mark every scratch branch of branch `id` ends its name with, before the restore's mark. */
const scratchMark = (id: string) => `_restoring_${markOf(`scratch:${id}`)}_`;

/** A scratch branch's name: the branch's name, `_restoring_`, the branch's mark and the restore's. */
function scratchName(id: string, name: string, restore: BranchRestore): string {
  return `${name}${scratchMark(id)}${markOf(`restore:${JSON.stringify(compact({ ...restore }))}`)}`;
}

/** The output that records the ids of a branch's left scratch branches, found by a refresh. */
const LEFT_SCRATCHES = "__leftScratches";

export function leftScratchIds(outs: BranchOutputs): string[] {
  const ids = (outs as Record<string, unknown>)[LEFT_SCRATCHES];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/** `outs` recording `ids` as its left scratch branches (none: the output is left out). */
export function withLeftScratches(outs: BranchOutputs, ids: readonly string[]): BranchOutputs {
  const { [LEFT_SCRATCHES]: _had, ...rest } = outs as Record<string, unknown>;
  return (ids.length === 0 ? rest : { ...rest, [LEFT_SCRATCHES]: ids }) as BranchOutputs;
}

/**
 * Deletes the scratch branches of branch `id` that `branches` shows (`leftScratches`). The listing
 * may be the run's first (shared): one another step of the run deleted since is gone already.
 */
export async function deleteScratches(
  client: CloudDbClient,
  projectId: string,
  id: string,
  branches: readonly ApiBranch[],
  deadline: number,
): Promise<void> {
  await dropAll(client, projectId, leftScratches(branches, id), deadline);
}

/**
 * Deletes the scratch branches whose branch is gone (deleted outside, or expired, while a killed
 * run's restore of it was under way): that restore can never be finalized, and no run would come
 * back to them. A scratch branch's name marks its branch (`scratchMark`); none of the listed
 * branches has that mark.
 */
export async function deleteStrayScratches(
  client: CloudDbClient,
  projectId: string,
  branches: readonly ApiBranch[],
  deadline: number,
): Promise<void> {
  const marks = new Set(branches.map((b) => scratchMark(b.id)));
  const stray = branches.filter((b) => {
    const mark = b.restore_status === "restored" ? SCRATCH_NAME.exec(b.name)?.[1] : undefined;
    return mark !== undefined && !marks.has(mark);
  });
  // Another resource's tidying, not this one's change: a delete that fails leaves the scratch
  // branch to its expiry (`SCRATCH_GRACE_MS`) and never fails the create or delete it rides on.
  for (const scratch of stray) {
    await client.deleteBranch(projectId, scratch.id, { deadline }).catch(() => undefined);
  }
}

/** How a scratch branch's name ends (`scratchName`): its branch's mark, then the restore's. */
const SCRATCH_NAME = /(_restoring_[0-9a-f]{10}_)[0-9a-f]{10}$/;

async function dropAll(
  client: CloudDbClient,
  projectId: string,
  scratches: readonly ApiBranch[],
  deadline: number,
): Promise<void> {
  for (const scratch of scratches) {
    await client
      .deleteBranch(projectId, scratch.id, { deadline })
      .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
  }
}

/** The scratch branches of branch `id` that a run left (killed, or when their delete failed). */
export function leftScratches(branches: readonly ApiBranch[], id: string): ApiBranch[] {
  // The branch's id, and the ids it had before a restore outside the stack swapped it in (their
  // carrier is this branch): a killed restore of the branch under an earlier id left its scratch too.
  const ids = branches.filter((b) => b.id !== id && carrierIn(branches, b.id) === id).map((b) => b.id);
  const marks = [id, ...ids].map((each) => new RegExp(`${scratchMark(each)}[0-9a-f]{10}$`));
  return branches.filter((b) => b.restore_status === "restored" && marks.some((m) => m.test(b.name)));
}
