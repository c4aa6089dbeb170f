import type { CloudDbClient, CloudFunction, FunctionDeployment } from "../client";
import { isNotFound } from "../client/errors";
import { isResourceError, messageOf, PartialFailure, ResourceError } from "./errors";
import {
  codeDetails,
  environmentDetails,
  FunctionInputsSchema,
  hashOf,
  type Slugged,
  sameCode,
  slugged,
} from "./functionInputs";
import { codeProblem } from "./inputs/functionCode";
import { archiveOf, sha256 } from "./inputs/zip";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { createdSince, defineResource, type Step } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { isSlugGeneratedWith } from "./lifecycle/owner";
import { FUNCTION, type FunctionInputs, type FunctionOutputs } from "./public/function";

export { FunctionInputsSchema } from "./functionInputs";
export type { FunctionInputs, FunctionOutputs } from "./public/function";

// ---------------------------------------------------------------- API calls

/**
 * A function on a branch (docs/api-rules.md §27). There is no create route: the first deployment of
 * a slug makes the function. New code (a changed `sourceHash`), runtime or environment deploys again
 * and waits until the deployment completed; a new name is a `PATCH`; a new slug replaces it.
 */
export const functionDefinition = defineResource<FunctionInputs, FunctionOutputs>(FUNCTION, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: FunctionInputsSchema,
  // Left out, the slug is generated from the resource's name and create key (`lifecycle/owner.ts`).
  generatesName: "slug",
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.slug}`,
  same: { source: sameCode, archive: sameCode },
  // The preview names new code as `sourceHash`, and environment variables by name (values are secret).
  details: {
    source: (olds, news) => codeDetails("source", olds, news),
    archive: (olds, news) => codeDetails("archive", olds, news),
    environment: (olds, news) => environmentDetails(olds.environment, news.environment),
  },
  /**
   * What the preview can tell from the files: code the service could not run fails it, naming the
   * input; runnable code's hash joins the inputs as `sourceHash`, so a preview's diff of the inputs
   * shows new code. A path not known yet is left to the update.
   */
  inspect(inputs) {
    if (isUnknown(inputs.source) || isUnknown(inputs.archive)) return { failures: [] };
    const problem = codeProblem(inputs);
    if (problem !== undefined) return { failures: [problem] };
    const hash = hashOf(inputs);
    return { failures: [], ...(hash === undefined ? {} : { derived: { sourceHash: hash } }) };
  },
  /** Refresh's inputs keep the code's hash `check` adds, so the next preview compares the code with it. */
  inputsOf: (outs) => ({
    ...declaredInputs<FunctionInputs>(FunctionInputsSchema, outs),
    ...(outs.sourceHash === "" ? {} : { sourceHash: outs.sourceHash }),
  }),
  /** Names the environment variables a redeployment changes: the inputs' diff shows only `[secret]`. */
  review(olds, news) {
    if (isUnknown(news.environment)) return undefined;
    const changed = Object.entries(environmentDetails(olds.environment, news.environment)).filter(
      ([path]) => path !== "environment",
    );
    if (changed.length === 0) return undefined;
    const named = changed.map(
      ([path, how]) =>
        `${path.slice("environment.".length)} (${how === "update" ? "new value" : how === "add" ? "added" : "removed"})`,
    );
    return `deploys again with environment variables ${named.join(", ")}`;
  },
  // A slug is unique on its branch: a replacement that keeps it (another project or branch does not) deletes first.
  deleteBeforeReplace: (olds, news) =>
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId &&
    (news.slug ?? olds.slug) === olds.slug,

  /**
   * Deploys the code to a slug the branch lacks, which makes the function. A slug the branch has is
   * this resource's when it was generated with this create key (a killed run of this resource made
   * it): the code is deployed to it again. A slug the program gave carries no such proof: refused.
   */
  async create({ client, deadline, createKey }, given) {
    const inputs = slugged(given);
    const existing = await fnOrUndefined(client, inputs);
    if (existing !== undefined && createKey !== undefined && isSlugGeneratedWith(inputs.slug, createKey))
      return deployAndWait(client, deadline, inputs, existing);
    if (existing !== undefined)
      throw new ResourceError(
        "NameTaken",
        `a function with slug "${inputs.slug}" already exists on branch ${inputs.branchId} in project ` +
          `${inputs.projectId}, and nothing proves this resource made it: either it was made outside this ` +
          "stack, or by an earlier run of this resource that was killed before recording it. If it is this " +
          `resource's, add adoptExisting: "${inputs.slug}" and run \`pulumi up\` again (its code is deployed ` +
          "again); otherwise choose another slug, or omit slug for a generated one.",
      );
    return deployNew(client, deadline, inputs);
  },

  /** The deployment's answer was lost: a function of this slug made since the request is ours. */
  async findLost({ client, deadline }, given, startedAt) {
    const inputs = slugged(given);
    const fn = await fnOrUndefined(client, inputs).catch(() => undefined);
    if (fn === undefined || !(Date.parse(fn.created_at) >= createdSince(startedAt))) return undefined;
    const deployment = fn.current_deployment;
    if (deployment === undefined) return undefined;
    try {
      return outputsOf(
        inputs,
        await waitFor(client, deadline, inputs, deployment.id, true),
        hashOf(inputs) ?? "",
      );
    } catch (err) {
      throw await undoNew(client, inputs, err);
    }
  },

  /** Takes the branch's function `slug` under management and deploys this resource's code to it. */
  async adopt({ client, deadline }, given, slug) {
    if (given.slug !== undefined && slug !== given.slug)
      throw new ResourceError(
        "NotAdoptable",
        `adoptExisting is "${slug}" but slug is "${given.slug}": a function is named by its slug; give both the same value, or omit slug`,
      );
    const inputs = { ...given, slug };
    const fn = await client.getFunction(inputs.projectId, inputs.branchId, slug);
    return deployAndWait(client, deadline, inputs, fn);
  },

  /** The branch's function `slug` as it is now; its code and environment values cannot be read back. */
  async readExisting({ client }, inputs, slug) {
    const fn = await client.getFunction(inputs.projectId, inputs.branchId, slug);
    const { source: _s, archive: _a, environment: _e, ...rest } = inputs;
    const active = fn.active_deployment ?? fn.current_deployment;
    return outputsOf({ ...rest, slug, ...(active === undefined ? {} : { runtime: active.runtime }) }, fn, "");
  },

  /**
   * The function as it is now; gone once deleted elsewhere (or with its branch). A deployment made
   * outside the stack leaves the code unknown (`sourceHash` empty) and an environment whose names
   * changed unknown, so the next `up` deploys this resource's own again.
   */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    let fn: CloudFunction;
    try {
      fn = await client.getFunction(props.projectId, props.branchId, props.slug);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const active = fn.active_deployment ?? fn.current_deployment;
    const foreign = active === undefined || active.id !== props.deploymentId;
    const names = Object.keys(props.environment ?? {}).sort();
    const sameNames = JSON.stringify(names) === JSON.stringify(active?.environment ?? []);
    const { environment: _, ...rest } = props;
    return {
      ...rest,
      ...(sameNames && props.environment !== undefined ? { environment: props.environment } : {}),
      name: fn.name,
      sourceHash: foreign ? "" : props.sourceHash,
      runtime: active?.runtime ?? props.runtime,
      invocationUrl: fn.invocation_url,
      deploymentId: active?.id ?? 0,
      deploymentStatus: active?.status ?? "",
      createdAt: fn.created_at,
    };
  },

  /** A new name is a `PATCH`; new code, runtime or environment a new deployment, waited for. */
  async update({ client, deadline }, _id, outs, olds, given) {
    const news = slugged(given);
    let fn: CloudFunction | undefined;
    if (news.name !== undefined && news.name !== olds.name)
      fn = await client.renameFunction(news.projectId, news.branchId, news.slug, { name: news.name });
    const hash = hashOf(news);
    const redeploy =
      hash !== olds.sourceHash ||
      (news.runtime !== undefined && news.runtime !== olds.runtime) ||
      JSON.stringify(news.environment ?? {}) !== JSON.stringify(olds.environment ?? {});
    if (!redeploy) {
      const now = fn ?? (await client.getFunction(news.projectId, news.branchId, news.slug));
      return {
        ...outs,
        ...declaredInputs<FunctionInputs>(FunctionInputsSchema, news),
        slug: news.slug,
        runtime: outs.runtime,
        name: now.name,
      };
    }
    return deployAndWait(client, deadline, news, undefined, olds);
  },

  async remove({ client }, _id, props) {
    try {
      await client.deleteFunction(props.projectId, props.branchId, props.slug);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
});

/** The branch's function of the inputs' slug; undefined when it has none. */
async function fnOrUndefined(client: CloudDbClient, inputs: Slugged): Promise<CloudFunction | undefined> {
  try {
    return await client.getFunction(inputs.projectId, inputs.branchId, inputs.slug);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Deploys the inputs' code, runtime and environment (a variable the last deployment had and the
 * inputs lack is sent empty, which removes it), renames when a name is given, and waits.
 */
async function deployAndWait(
  client: CloudDbClient,
  deadline: Step["deadline"],
  inputs: Slugged,
  adopted: CloudFunction | undefined,
  olds?: FunctionOutputs,
): Promise<FunctionOutputs> {
  const zip = archiveOf(inputs);
  const removed = Object.keys(olds?.environment ?? {}).filter((k) => !(k in (inputs.environment ?? {})));
  const environment = { ...Object.fromEntries(removed.map((k) => [k, ""])), ...inputs.environment };
  const deployment = await client.deployFunction(inputs.projectId, inputs.branchId, inputs.slug, {
    zip,
    ...(inputs.runtime === undefined ? {} : { runtime: inputs.runtime }),
    ...(Object.keys(environment).length === 0 ? {} : { environment }),
  });
  if (inputs.name !== undefined && (adopted === undefined || adopted.name !== inputs.name))
    await client.renameFunction(inputs.projectId, inputs.branchId, inputs.slug, { name: inputs.name });
  return outputsOf(inputs, await waitFor(client, deadline, inputs, deployment.id), sha256(zip));
}

/**
 * The first deployment of a slug the branch lacks, which makes the function, then the rename and the
 * wait. When a step after the deployment fails, nothing usable was made: the function is deleted (see
 * `undoNew`). A deployment request that fails made nothing, or its answer was lost (`findLost`).
 */
async function deployNew(client: CloudDbClient, deadline: number, inputs: Slugged): Promise<FunctionOutputs> {
  const zip = archiveOf(inputs);
  const deployment = await client.deployFunction(inputs.projectId, inputs.branchId, inputs.slug, {
    zip,
    ...(inputs.runtime === undefined ? {} : { runtime: inputs.runtime }),
    ...(inputs.environment === undefined || Object.keys(inputs.environment).length === 0
      ? {}
      : { environment: inputs.environment }),
  });
  try {
    if (inputs.name !== undefined)
      await client.renameFunction(inputs.projectId, inputs.branchId, inputs.slug, { name: inputs.name });
    return outputsOf(inputs, await waitFor(client, deadline, inputs, deployment.id, true), sha256(zip));
  } catch (err) {
    throw await undoNew(client, inputs, err);
  }
}

/**
 * After a new function's first deployment did not complete (`err`): deletes the function it made, so
 * nothing is left on the branch that the state does not hold, and answers the error saying so and
 * what to fix. When the delete fails too, the function is recorded instead (a partial failure), so
 * the next `up` deploys to it again and `destroy` deletes it.
 */
async function undoNew(client: CloudDbClient, inputs: Slugged, err: unknown): Promise<Error> {
  // The deployment's own failure (`waitFor`'s), or another step's: an API error, a rename refused.
  const ofDeployment = isResourceError(err) && err.kind === "Unusable";
  const what = messageOf(err);
  try {
    await client.deleteFunction(inputs.projectId, inputs.branchId, inputs.slug);
  } catch (gone) {
    if (!isNotFound(gone)) {
      const id = `${inputs.projectId}/${inputs.branchId}/${inputs.slug}`;
      const outs: FunctionOutputs = {
        ...declaredInputs<FunctionInputs>(FunctionInputsSchema, inputs),
        slug: inputs.slug,
        functionId: "",
        name: inputs.name ?? inputs.slug,
        runtime: inputs.runtime ?? "",
        // Empty: the next `up` deploys the code again.
        sourceHash: "",
        invocationUrl: "",
        deploymentId: 0,
        deploymentStatus: "",
        createdAt: "",
      };
      return new PartialFailure(
        id,
        { ...inputs, ...outs },
        [
          `function ${inputs.slug} on branch ${inputs.branchId} was made by its first deployment, which did not ` +
            `complete (${what}), and deleting it failed too (${messageOf(gone)}). It is recorded in the state: ` +
            "fix the cause and run `pulumi up`, which deploys its code again, or `pulumi destroy`, which deletes it.",
        ],
        err,
      );
    }
  }
  const next = !ofDeployment
    ? "run `pulumi up` again"
    : /is still \w+/.test(what)
      ? "raise the resource's timeouts.create, or check the service's status, and run `pulumi up` again"
      : /superseded/.test(what)
        ? "deploy this function from one place only, and run `pulumi up` again"
        : "fix the code (a folder, or a .zip archive, with index.mjs or index.js at its root) and run `pulumi up` again";
  return new ResourceError(
    "Unmade",
    `${what}. The function this first deployment made was deleted, so nothing is left on branch ` +
      `${inputs.branchId} and nothing is recorded: ${next}.`,
    err,
  );
}

/**
 * Waits until deployment `id` completed; its error, and what to do, when it failed or did not end in
 * time. For a new function's first deployment (`first`) the error says what happened alone:
 * `undoNew` says what became of the function and what to do.
 */
async function waitFor(
  client: CloudDbClient,
  deadline: number,
  inputs: Slugged,
  id: number,
  first = false,
): Promise<CloudFunction> {
  const fn = await client.waitForDeployment(inputs.projectId, inputs.branchId, inputs.slug, id, { deadline });
  const deployment: FunctionDeployment | undefined = fn.current_deployment;
  if (deployment?.id === id && deployment.status === "completed") return fn;
  const which = `deployment ${id} of function ${inputs.slug} on branch ${inputs.branchId}`;
  const fail = (what: string, next: string) =>
    new ResourceError("Unusable", first ? what : `${what}: ${next}`);
  if (deployment?.id === id && deployment.status === "failed")
    throw fail(
      `${which} failed: ${deployment.error ?? "the service gave no reason"}`,
      "the function still serves its previous deployment, if any: fix the code (a folder, or a .zip archive, " +
        "with index.mjs or index.js at its root) and run `pulumi up` again.",
    );
  if (deployment !== undefined && deployment.id > id)
    throw fail(
      `${which} was superseded by deployment ${deployment.id}, made outside this stack`,
      "run `pulumi refresh`, then `pulumi up` to deploy this stack's code again.",
    );
  throw fail(
    `${which} is still ${deployment?.status ?? "pending"}`,
    "run `pulumi refresh` to see it once it is built, or raise the resource's timeout.",
  );
}

function outputsOf(inputs: Slugged, fn: CloudFunction, sourceHash: string): FunctionOutputs {
  const active = fn.active_deployment ?? fn.current_deployment;
  return {
    ...declaredInputs<FunctionInputs>(FunctionInputsSchema, inputs),
    slug: inputs.slug,
    functionId: fn.id,
    name: fn.name,
    runtime: active?.runtime ?? inputs.runtime ?? "",
    sourceHash,
    invocationUrl: fn.invocation_url,
    deploymentId: active?.id ?? 0,
    deploymentStatus: active?.status ?? "",
    createdAt: fn.created_at,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(functionDefinition);
