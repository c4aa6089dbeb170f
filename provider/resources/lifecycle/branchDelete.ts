/**
 * Whether a branch's delete would be refused, judged before the objects on it are deleted
 * (docs/api-rules.md §13). The engine deletes a branch's roles, databases, computes, backup
 * schedule and snapshots before the branch itself; when the branch then cannot be deleted, a `pulumi destroy` would have deleted them
 * for nothing. So the delete of an object on a branch first asks whether its branch is about to be
 * deleted and would be refused, and if so deletes nothing and says what to do.
 *
 * A branch is about to be deleted when this run has not found it in the program (the engine diffs
 * every resource the program declares before it deletes any that it no longer declares, and a
 * destroy diffs none) and a Branch resource made it (it carries the create-key mark, see
 * `owner.ts`): a branch made elsewhere, which no Branch of a stack deletes, never blocks anything.
 * A branch a finalized restore replaced is never deleted: the Branch follows the branch that took
 * its place (its read and its delete both act on `carrierIn`), so the objects left on the replaced
 * branch are blocked by what blocks the carrier's delete: its protection (a finalize carries it
 * over), unless the program still declares the carrier. One listing of the project's branches per
 * process answers for every object on them.
 */
import type { CloudDbClient } from "../../client";
import { carrierIn } from "../restores";
import { CREATED_BY } from "./owner";

/** Branches the engine diffed in this process, by `projectId/branchId`: the program still declares them. */
const declared = new Set<string>();

/** The answer for each branch asked about in this process, by `projectId/branchId`. */
const answers = new Map<string, Promise<string | undefined>>();

/** Records that the program declares branch `branchId` of `projectId` in this run (its diff was asked for). */
export function branchDeclared(projectId: string, branchId: string): void {
  declared.add(`${projectId}/${branchId}`);
}

/** Forgets what this process learnt (a new engine run starts a new process; tests start over). */
export function forgetBranchDeletes(): void {
  declared.clear();
  answers.clear();
}

/**
 * Why the delete of branch `branchId` that this run is about to make would be refused, as a sentence
 * saying what to do in the program's terms; undefined when the program keeps the branch, when no
 * Branch resource made it, or when nothing would refuse its delete.
 */
export function branchDeleteBlock(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<string | undefined> {
  const key = `${projectId}/${branchId}`;
  if (declared.has(key)) return Promise.resolve(undefined);
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = client.listAnnotatedBranches(projectId).then(({ branches, annotations }) => {
      if (annotations.get(branchId)?.[CREATED_BY] === undefined) return undefined;
      // The Branch deletes the branch that carries its name now, which a finalized restore may have
      // swapped in: that one's delete is what would be refused.
      const carrier = carrierIn(branches, branchId);
      if (carrier !== branchId && declared.has(`${projectId}/${carrier}`)) return undefined;
      const branch = branches.find((b) => b.id === carrier);
      if (branch === undefined || branch.protected !== true) return undefined;
      return (
        `its branch ${carrier} (${branch.name}) is protected, so the branch's delete would be refused after ` +
        "everything on it was deleted. If the program's Branch does not set `protected: true`, it was protected " +
        "outside Pulumi: run `pulumi up --refresh` (the Branch then turns the protection off) or unprotect it in " +
        "the console; if it sets it, set `protected: false` and run `pulumi up`. Then run the destroy again"
      );
    });
    answers.set(key, answer);
  }
  return answer;
}
