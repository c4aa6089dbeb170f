/**
 * What a Branch's create does besides its request: which marked branch a killed run left it takes
 * (`madeByCreate`, `carriedFor`), the restore of a branch created from a snapshot, a branch whose
 * create the API never finished undone, and the errors for a name another branch holds and for an
 * adoption that would replace the branch.
 */
import type { Branch as ApiBranch, ApiError, CloudDbClient } from "../client";
import { isOperationFailed } from "../client/errors";
import { redactSecrets } from "../client/redact";
import { BranchCreateResponseSchema } from "../client/schemas";
import { refreshed } from "./branchOutputs";
import { restoreInPlace } from "./branchRestore";
import { withConnection } from "./connection";
import { ResourceError, unfinished } from "./errors";
import { labelOf, type Step } from "./lifecycle/define";
import { CREATED_NAME } from "./lifecycle/owner";
import type { BranchInputs, BranchOutputs, BranchRestore } from "./public/branch";
import { carrierIn, restoredInPlace } from "./restores";

/**
 * Restores a branch `create` just made from the snapshot `restore` names, as an update's restore
 * does (`restoreInPlace`), then reads it again with its connection strings. When the restore
 * fails, the branch is recorded without it (a partial failure), so the next `up` restores it.
 */
export async function restoredAtCreate(
  { client, deadline }: Pick<Step, "client" | "deadline">,
  id: string,
  outs: BranchOutputs,
  inputs: BranchInputs,
  restore: BranchRestore,
): Promise<BranchOutputs> {
  try {
    await restoreInPlace(client, id, outs, restore, deadline);
  } catch (err) {
    const unrestored = { ...outs, restore: undefined };
    throw unfinished(
      "branch",
      id,
      inputs,
      unrestored,
      err,
      " (its restore from the snapshot did not finish)",
    );
  }
  restoredInPlace(id);
  const current = await refreshed(client, outs).catch(() => outs);
  return withConnection(client, inputs, current);
}

/**
 * Whether `branch`, which carries this resource's mark, is still what an interrupted create left:
 * it has the name that create gave it (its `CREATED_NAME` annotation; for a branch made before that
 * annotation or unnamed, the declared name, or its id, the API's name for an unnamed branch), and
 * no restore replaced it. A restore finalized outside the stack renames the branch it
 * replaces and keeps its annotation (docs/api-rules.md §9): taking it would bring back the data the
 * restore replaced. Its successor's `restored_as` names it while that one lives, and the rename
 * tells it apart once the successor is gone (a `destroy`, an expiry).
 */
export function madeByCreate(
  branch: Pick<ApiBranch, "id" | "name">,
  annotation: Readonly<Record<string, unknown>> | undefined,
  inputs: BranchInputs,
  branches: readonly Pick<ApiBranch, "restored_as" | "restore_status">[],
): boolean {
  const createdName = annotation?.[CREATED_NAME];
  const declared = inputs.name ?? branch.id;
  // The name its create gave it, or the declared one: a branch the program renamed in place since
  // (then taken again by `pulumi up --replace`) has that; a restore's rename gives it neither.
  if (branch.name !== declared && branch.name !== createdName) return false;
  return !branches.some((b) => b.restored_as === branch.id && b.restore_status !== "restored");
}

/**
 * The live branch that a finalized restore outside the stack swapped in for one of `marked` (the
 * branches an interrupted create of this resource made), followed through repeated restores, while
 * it has the declared name or the one that create gave.
 */
export function carriedFor(
  marked: readonly ApiBranch[],
  annotations: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
  inputs: BranchInputs,
  branches: readonly ApiBranch[],
): ApiBranch | undefined {
  for (const replaced of marked) {
    const carrier = carrierIn(branches, replaced.id);
    const branch = carrier === replaced.id ? undefined : branches.find((b) => b.id === carrier);
    // Renamed outside since (to neither the declared name nor the one the create gave): the user's.
    const names = [inputs.name ?? replaced.id, annotations.get(replaced.id)?.[CREATED_NAME]];
    if (branch !== undefined && names.includes(branch.name)) return branch;
  }
  return undefined;
}

/**
 * When the create's `create_branch` operation ended cancelled or in error, the branch it began was
 * never made: it is deleted at once and nothing is recorded, so the next `up` simply creates the
 * branch (its create key marks nothing any more). Returns the error to throw: that one, or `err`
 * itself when the failure was another one or the delete failed too (then the lifecycle records
 * the branch, and the next `update` deletes it, see `madeBy`).
 */
export async function undoUnmade(
  client: CloudDbClient,
  inputs: BranchInputs,
  err: unknown,
  deadline: number,
): Promise<unknown> {
  if (!isOperationFailed(err) || err.operation.action !== "create_branch") return err;
  const made = BranchCreateResponseSchema.safeParse(err.response);
  if (!made.success) return err;
  const { branch } = made.data;
  const deleted = await client.deleteBranch(inputs.projectId, branch.id, { deadline }).then(
    () => true,
    () => false,
  );
  if (!deleted) return err;
  const { operation: op } = err;
  return new ResourceError(
    "Unmade",
    `the branch's create_branch operation ${op.id} ended ${op.status}${op.error ? ` (${redactSecrets(op.error)})` : ""}, ` +
      `so ${labelOf("branch", branch.id, branch)} in project ${inputs.projectId} was never made: it was deleted and ` +
      "nothing is recorded in the state. Run `pulumi up` again to create the branch anew.",
    err,
  );
}

/** A 409 on create: the name belongs to a branch this resource did not make (`findOwn` found none of its own). */
export function nameHeldByOtherBranch(inputs: BranchInputs, err: ApiError): ResourceError {
  return new ResourceError(
    "NameTaken",
    `a branch named "${inputs.name ?? ""}" already exists in project ${inputs.projectId} and was not created by this ` +
      "resource (it carries no mark of it), so it is not taken over: choose another name, or manage that branch with " +
      `adoptExisting: "<its id>" (API: ${err.message}${err.requestId ? `; request id ${err.requestId}` : ""})`,
    err,
  );
}

/** Adoption refused: branch `branchId` has `has` where `input` asks for `wanted`, a change that replaces it. */
export function notAdoptable(branchId: string, has: string, wanted: string, input: string): ResourceError {
  return new ResourceError(
    "NotAdoptable",
    `adoptExisting: branch ${branchId} has ${has}, not ${wanted}; fix ${input} (or remove it) so adopting ` +
      "does not replace the branch",
  );
}
