/**
 * Objects on a branch that inputs name and the API needs to exist (a trigger's bucket and function, a
 * custom domain's function), as finds `check` looks for at preview (`lifecycle/preflight.ts`): one
 * this run declares is taken as there (`lifecycle/declared.ts`), any other is read.
 */
import { isNotFound } from "../../client/errors";
import type { Find } from "../lifecycle/preflight";

/** The branch the inputs are on. */
interface OnBranch {
  projectId: string;
  branchId: string;
}

/** The bucket `name` of the branch `inputs` name, to find at preview (a storage trigger's). */
export function bucketFind(inputs: OnBranch, property: string, name: string): Find {
  return {
    kind: "onBranch",
    property,
    noun: "bucket",
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    name,
    exists: async (client) =>
      (await client.listBuckets(inputs.projectId, inputs.branchId)).some((b) => b.name === name),
    fix:
      `declare it with a Bucket on this branch and pass its name output as ${property} (this resource then waits ` +
      "for it), or give the name of a bucket the branch has",
  };
}

/** The function of slug `slug` on the branch `inputs` name, to find at preview (a trigger's, a domain's). */
export function functionFind(inputs: OnBranch, property: string, slug: string): Find {
  return {
    kind: "onBranch",
    property,
    noun: "function",
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    name: slug,
    exists: (client) =>
      client.getFunction(inputs.projectId, inputs.branchId, slug).then(
        () => true,
        (err: unknown) => {
          if (isNotFound(err)) return false;
          throw err;
        },
      ),
    fix:
      `deploy it with a Function on this branch and pass its slug output as ${property} (this resource then ` +
      "waits for it), or give the slug of a function the branch has",
  };
}
