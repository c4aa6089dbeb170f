/**
 * Following a restore done outside the stack (docs/api-rules.md §9): the service's snapshot
 * restore, once finalized, gives a branch's name and computes to a new branch that records the one
 * it replaced in `restored_as`; the replaced branch stays, renamed. A refresh reads every object
 * that lives on a branch from the branch that carries it now, so the stack keeps pointing at the
 * branch with its name and computes instead of at the renamed one.
 */
import type { Branch as ApiBranch, CachedListings, CloudDbClient } from "../client";
import { ResourceError } from "./errors";

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
 * Refuses a write to branch `branchId` (by the state's id) once a finalized restore outside the
 * stack replaced it: the write would land on the replaced branch, which holds the data before the
 * restore (an update would even give it the declared name back). Pulumi's update cannot change a
 * resource's id, so only a refresh can follow the new branch. One listing of the project's branches;
 * returns the branch as listed (undefined when it is gone) and the listing.
 */
export async function refuseReplaced(
  client: Pick<CloudDbClient, "listBranches">,
  projectId: string,
  branchId: string,
  label: string,
): Promise<{ live: ApiBranch | undefined; branches: ApiBranch[] }> {
  const branches = await client.listBranches(projectId);
  const carrier = carrierIn(branches, branchId);
  if (carrier === branchId) return { live: branches.find((b) => b.id === branchId), branches };
  throw new ResourceError(
    "ChangeRefused",
    `${label}: branch ${branchId} was replaced by a restore done outside Pulumi; branch ${carrier} now carries ` +
      "its name and computes. Nothing was changed: run `pulumi up --refresh` (or `pulumi refresh`) so the stack " +
      "follows the new branch, then apply the change",
  );
}

/**
 * Whether a finalized restore replaced branch `branchId` with a branch since deleted (the replaced
 * branch, renamed, holds the data before the restore: it is not the stack's branch any more). Only
 * a listing with deleted branches shows the successor; `live` is the project's live listing.
 */
export async function replacedByDeleted(
  client: Pick<CloudDbClient, "listBranchesWithDeleted">,
  projectId: string,
  branchId: string,
  live: readonly Pick<ApiBranch, "id">[],
): Promise<boolean> {
  const all = await client.listBranchesWithDeleted(projectId);
  return all.some(
    (b) => b.restored_as === branchId && b.restore_status !== "restored" && !live.some((l) => l.id === b.id),
  );
}

/**
 * Branches this process restored in place (`Branch.restore`) or reset from their parent
 * (`resetTrigger`): their roles, databases and rows are now those of the restore point or the
 * parent, so the `Role`, `Database`, `Migrations` and `RoleGrants` resources on them, which the
 * engine reaches after the branch in the same run, read theirs again (`stale`) instead of keeping a
 * state the restore made false. A new engine run starts a new process, with none.
 */
const restoredHere = new Set<string>();

/** Records that this process restored (or reset) branch `branchId` in place. */
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
