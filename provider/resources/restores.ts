/**
 * Following a restore done outside the stack (docs/api-rules.md §9): the service's snapshot
 * restore, once finalized, gives a branch's name and computes to a new branch that records the one
 * it replaced in `restored_as`; the replaced branch stays, renamed. A refresh reads every object
 * that lives on a branch from the branch that carries it now, so the stack keeps pointing at the
 * branch with its name and computes instead of at the renamed one.
 */
import type { Branch as ApiBranch, CachedListings } from "../client";

/**
 * The branch that carries `branchId`'s name and computes among `branches`: itself, or the branch
 * a finalized restore swapped in for it, followed through repeated restores.
 */
export function carrierIn(
  branches: readonly Pick<ApiBranch, "id" | "restored_as" | "restore_status">[],
  branchId: string,
): string {
  let current = branchId;
  for (let hops = 0; hops <= branches.length; hops++) {
    // An unfinalized restore (`restored`) has not replaced anything yet.
    const next = branches.find((b) => b.restored_as === current && b.restore_status !== "restored");
    if (next === undefined) return current;
    current = next.id;
  }
  return current;
}

/** `carrierIn` over the project's branch listing (shared by everything a refresh reads). */
export async function carrierOf(
  client: { cached: Pick<CachedListings, "listBranches"> },
  projectId: string,
  branchId: string,
): Promise<string> {
  return carrierIn(await client.cached.listBranches(projectId), branchId);
}

/**
 * Branches this process restored in place (`Branch.restore`): their roles and databases are now
 * those of the restore point, so the `Role` and `Database` resources on them, which the engine
 * reaches after the branch in the same run, read theirs again (`stale`) instead of keeping a state
 * the restore made false. A new engine run starts a new process, with none.
 */
const restoredHere = new Set<string>();

/** Records that this process restored branch `branchId` in place. */
export function restoredInPlace(branchId: string): void {
  restoredHere.add(branchId);
}

/** Forgets the branches this process restored (a new engine run starts a new process; tests start over). */
export function forgetRestoredHere(): void {
  restoredHere.clear();
}

/** Whether this process restored branch `branchId` in place. */
export function wasRestoredHere(branchId: string): boolean {
  return restoredHere.has(branchId);
}
