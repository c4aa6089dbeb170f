/**
 * Objects on a branch that inputs name and the API needs to exist (a trigger's bucket and function, a
 * custom domain's function), as finds `check` looks for at preview (`lifecycle/preflight.ts`): one
 * this run declares is taken as there (`lifecycle/declared.ts`), any other is read.
 */
import type { CloudDbClient } from "../../client";
import { isNotFound } from "../../client/errors";
import { isDeclared } from "../lifecycle/declared";
import { BRANCH_FIX, type Find } from "../lifecycle/preflight";

/** The branch the inputs are on. */
interface OnBranch {
  projectId: string;
  branchId: string;
}

/**
 * The `noun` named `name` on the branch `inputs` name, named by input `property`: there when this
 * run declares it or `exists` reads it (undefined: nothing to read); `fix` says what to do when it
 * is neither.
 */
function onBranchFind(
  inputs: OnBranch,
  property: string,
  noun: string,
  name: string,
  exists: (client: CloudDbClient) => Promise<boolean>,
  fix: string,
): Find | undefined {
  const { projectId, branchId } = inputs;
  if (isDeclared(noun, projectId, branchId, name)) return undefined;
  return {
    key: `${noun} ${projectId} ${branchId} ${name}`,
    ids: [projectId, branchId, name],
    subject: { property: "branchId", what: `branch ${branchId} of project ${projectId}`, fix: BRANCH_FIX },
    read: async (client) =>
      (await exists(client))
        ? undefined
        : {
            property,
            reason:
              `${property}: branch ${branchId} of project ${projectId} has no ${noun} ${JSON.stringify(name)}, ` +
              `and this program declares none: ${fix}`,
          },
  };
}

/** The bucket `name` of the branch `inputs` name, to find at preview (a storage trigger's). */
export function bucketFind(inputs: OnBranch, property: string, name: string): Find | undefined {
  return onBranchFind(
    inputs,
    property,
    "bucket",
    name,
    async (client) =>
      (await client.listBuckets(inputs.projectId, inputs.branchId)).some((b) => b.name === name),
    `declare it with a Bucket on this branch and pass its name output as ${property} (this resource then waits ` +
      "for it), or give the name of a bucket the branch has",
  );
}

/** The function of slug `slug` on the branch `inputs` name, to find at preview (a trigger's, a domain's). */
export function functionFind(inputs: OnBranch, property: string, slug: string): Find | undefined {
  return onBranchFind(
    inputs,
    property,
    "function",
    slug,
    (client) =>
      client.getFunction(inputs.projectId, inputs.branchId, slug).then(
        () => true,
        (err: unknown) => {
          if (isNotFound(err)) return false;
          throw err;
        },
      ),
    `deploy it with a Function on this branch and pass its slug output as ${property} (this resource then ` +
      "waits for it), or give the slug of a function the branch has",
  );
}
