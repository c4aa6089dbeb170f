/**
 * How a Branch's create finds what an earlier run made for it: the branch an interrupted run
 * created (`findOwn`, by the create key in its annotation) or one whose create response was lost
 * (`findLost`, by name), and the parent a new branch's state records.
 */
import type { CloudDbClient, Operation } from "../client";
import { anonymizedAtCreate, existingBranch } from "./branchAnonymize";
import { converge } from "./branchConverge";
import { carriedFor, madeByCreate } from "./branchCreate";
import { baseOutputs, opIds, outputsOf, refreshed } from "./branchOutputs";
import { deleteScratches, deleteStrayScratches, leftScratches } from "./branchRestore";
import { withConnection } from "./connection";
import { unfinished } from "./errors";
import { createdSince, type Step } from "./lifecycle/define";
import { firstListing } from "./lifecycle/firstListings";
import { openOperations } from "./lifecycle/openOperations";
import { CREATED_BY } from "./lifecycle/owner";
import type { BranchInputs, BranchOutputs } from "./public/branch";
import { replacedByDeleted } from "./restores";

/**
 * The parent a new branch's state records: the declared one; for a schema-only branch made of the
 * project's default branch (no parentId declared), that branch, which the API does not report as a
 * schema-only branch's parent. It is found in the listing the create took to look for a branch an
 * interrupted run made (`findOwn`), so it costs no request of its own there.
 */
export async function recordedParent(
  client: CloudDbClient,
  inputs: BranchInputs,
): Promise<string | undefined> {
  if (inputs.parentId !== undefined || inputs.initSource !== "schema-only") return inputs.parentId;
  const { branches } = await firstListing(`branches of ${inputs.projectId}`, () =>
    client.listAnnotatedBranches(inputs.projectId),
  ).catch(() => ({ branches: [] as { id: string; default?: boolean | undefined }[] }));
  return branches.find((b) => b.default === true)?.id;
}

/**
 * The branch an interrupted run created for this resource carries its create key as an
 * annotation (set by the definition's `create`): its operations are awaited (the branch is recorded even
 * if they fail), it is taken, and brought to the declared inputs as `adopt` does (the program may
 * have renamed it since). A branch without that annotation is never taken, nor one that has since
 * become something else (`madeByCreate`).
 */
export async function findOwnBranch(
  step: Step,
  inputs: BranchInputs,
  key: string,
): Promise<BranchOutputs | undefined> {
  const { client, deadline } = step;
  const { branches, annotations } = await firstListing(`branches of ${inputs.projectId}`, () =>
    client.listAnnotatedBranches(inputs.projectId),
  );
  const marked = branches.filter((b) => annotations.get(b.id)?.[CREATED_BY] === key);
  const made = marked.find((b) => madeByCreate(b, annotations.get(b.id), inputs, branches));
  // A restore finalized outside replaced the branch the interrupted create made: the branch it
  // swapped in carries that branch's name and computes (and the data the user restored), so it is
  // the one taken while it has that name, as a refresh of a recorded create follows it; never the
  // replaced branch itself.
  let branch = made ?? carriedFor(marked, annotations, inputs, branches);
  // Unless a later restore replaced that one too with a branch since deleted: then it holds data a
  // restore replaced, and the create makes a new branch.
  if (made === undefined && branch !== undefined) {
    if (await replacedByDeleted(client, inputs.projectId, branch.id, branches)) branch = undefined;
  }
  // A marked branch not taken (a restore replaced it, or it was renamed) stays, but a scratch branch a
  // killed restore of it left is a copy no run would ever come back to: it goes.
  for (const refused of marked.filter((b) => b !== branch)) {
    await deleteScratches(client, inputs.projectId, refused.id, branches, deadline);
  }
  await deleteStrayScratches(client, inputs.projectId, branches, deadline);
  if (branch === undefined) return undefined;
  const ops = await openOperations(client, inputs.projectId, (op) => op.branch_id === branch.id);
  const outs = outputsOf(
    { ...inputs, parentId: await recordedParent(client, inputs) },
    branch,
    [],
    opIds(ops),
  );
  try {
    await client.waitForOperations(inputs.projectId, ops, { deadline });
  } catch (err) {
    throw unfinished("branch", branch.id, inputs, outs, err, " by an interrupted run");
  }
  const olds = await existingBranch(client, inputs, branch.id);
  // A create with a restore restores after making the branch: a branch never restored since it was
  // made (no `last_reset_at`) did not get there, and one a scratch branch is left of may not have.
  // A carried branch holds what the user's later restore put there: it is not restored again.
  const restore =
    made !== undefined &&
    inputs.restore?.snapshotId !== undefined &&
    (branch.last_reset_at == null || leftScratches(branches, branch.id).length > 0)
      ? inputs.restore
      : undefined;
  // Not restoring (the program dropped the restore since, or it was applied): a scratch branch the
  // interrupted create's restore left is a copy no run comes back to.
  if (restore === undefined) await deleteScratches(client, inputs.projectId, branch.id, branches, deadline);
  return converge(step, branch.id, { ...olds, ...baseOutputs(inputs) }, olds, inputs, false, restore);
}

/**
 * Branch names are unique per project: a named branch created since the request is the one the
 * lost create made; its operations are awaited and it is recorded. Unnamed branches cannot be
 * told apart, so the original error stands.
 */
export async function findLostBranch(
  { client, deadline }: Step,
  inputs: BranchInputs,
  startedAt: number,
): Promise<BranchOutputs | undefined> {
  if (inputs.name === undefined) return undefined;
  const since = createdSince(startedAt);
  const branch = await client
    .listBranches(inputs.projectId)
    .then((branches) => branches.find((b) => b.name === inputs.name))
    .catch(() => undefined);
  if (branch === undefined || !(Date.parse(branch.created_at) >= since)) return undefined;
  const ops: Operation[] = [];
  for await (const op of client.listOperations(inputs.projectId, { pageSize: 100, maxItems: 100 })) {
    if (op.branch_id === branch.id && Date.parse(op.created_at) >= since) ops.push(op);
  }
  const outs = outputsOf(inputs, branch, [], opIds(ops));
  try {
    await client.waitForOperations(inputs.projectId, ops, { deadline });
  } catch (err) {
    throw unfinished("branch", branch.id, inputs, outs, err, " (found by name after its response was lost)");
  }
  // A lost anonymized create started its anonymization: its computes come once the data is masked.
  if (inputs.initSource === "anonymized") return anonymizedAtCreate({ client, deadline }, inputs, outs);
  return withConnection(client, inputs, await refreshed(client, outs).catch(() => outs));
}
