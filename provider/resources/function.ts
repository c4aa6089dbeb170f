import { z } from "zod";
import type { CloudDbClient, CloudFunction, FunctionDeployment } from "../client";
import { isNotFound } from "../client/errors";
import { givenOrGenerated, ResourceError } from "./errors";
import { adoptInput, ProjectOfBranchInput, requiredId } from "./inputs/common";
import { archiveOf, sha256 } from "./inputs/zip";
import { declaredInputs } from "./lifecycle/check";
import { createdSince, defineResource, type Same, type Step } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { isSlugGeneratedWith } from "./lifecycle/owner";
import { FUNCTION, type FunctionInputs, type FunctionOutputs } from "./public/function";

export type { FunctionInputs, FunctionOutputs } from "./public/function";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const FunctionInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the function is on (br-...)"),
    slug: z
      .string({ error: "slug must be a string: the function's slug on its branch" })
      .regex(/^[a-z0-9]{1,20}$/, "slug is 1 to 20 lowercase letters and digits; omit it for a generated one")
      .optional(),
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, "name must not be blank; omit it to show the slug")
      .max(256, "name is at most 256 characters")
      .optional(),
    runtime: z.string({ error: "runtime must be a string" }).min(1, "runtime must not be empty").optional(),
    environment: z.record(z.string(), z.string({ error: "environment values must be strings" })).optional(),
    source: z.string({ error: "source must be a folder path" }).min(1, "source must not be empty").optional(),
    archive: z
      .string({ error: "archive must be a .zip path" })
      .min(1, "archive must not be empty")
      .optional(),
    adoptExisting: adoptInput("function (its slug on the branch)"),
  })
  .refine((inputs) => (inputs.source === undefined) !== (inputs.archive === undefined), {
    path: ["source"],
    message: "give exactly one of source (a folder) or archive (a .zip file) with the function's code",
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof FunctionInputsSchema>, FunctionInputs>;

/** Inputs whose slug is known: the program's, or the one `check` generated. */
type Slugged = FunctionInputs & { slug: string };

function slugged(inputs: FunctionInputs): Slugged {
  return { ...inputs, slug: givenOrGenerated("function", "slug", inputs.slug) };
}

/** The hash of the code the inputs name; read from disk at every preview, nothing uploaded. */
function hashOf(inputs: FunctionInputs): string | undefined {
  try {
    return sha256(archiveOf(inputs));
  } catch {
    return undefined;
  }
}

/** A code input is the same when the path is and the archive it gives still hashes to `sourceHash`. */
function sameCode(
  news: string | undefined,
  olds: unknown,
  all: { news: FunctionInputs; olds: FunctionOutputs },
) {
  return news === olds && (news === undefined || hashOf(all.news) === all.olds.sourceHash);
}

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
    return deployAndWait(client, deadline, inputs, undefined);
  },

  /** The deployment's answer was lost: a function of this slug made since the request is ours. */
  async findLost({ client, deadline }, given, startedAt) {
    const inputs = slugged(given);
    const fn = await fnOrUndefined(client, inputs).catch(() => undefined);
    if (fn === undefined || !(Date.parse(fn.created_at) >= createdSince(startedAt))) return undefined;
    const deployment = fn.current_deployment;
    if (deployment === undefined) return undefined;
    return outputsOf(inputs, await waitFor(client, deadline, inputs, deployment.id), hashOf(inputs) ?? "");
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

/** Waits until deployment `id` completed; its error, and what to do, when it failed or did not end in time. */
async function waitFor(
  client: CloudDbClient,
  deadline: number,
  inputs: Slugged,
  id: number,
): Promise<CloudFunction> {
  const fn = await client.waitForDeployment(inputs.projectId, inputs.branchId, inputs.slug, id, { deadline });
  const deployment: FunctionDeployment | undefined = fn.current_deployment;
  if (deployment?.id === id && deployment.status === "completed") return fn;
  if (deployment?.id === id && deployment.status === "failed")
    throw new ResourceError(
      "Unusable",
      `deployment ${id} of function ${inputs.slug} on branch ${inputs.branchId} failed: ` +
        `${deployment.error ?? "the service gave no reason"}. The function still serves its previous ` +
        "deployment, if any: fix the code (a .zip archive, or a folder whose files make one) and run `pulumi up` again.",
    );
  if (deployment !== undefined && deployment.id > id)
    throw new ResourceError(
      "Unusable",
      `deployment ${id} of function ${inputs.slug} was superseded by deployment ${deployment.id}, made ` +
        "outside this stack: run `pulumi refresh`, then `pulumi up` to deploy this stack's code again.",
    );
  throw new ResourceError(
    "Unusable",
    `deployment ${id} of function ${inputs.slug} on branch ${inputs.branchId} is still ${deployment?.status ?? "pending"}: ` +
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

// The module a Function provider stored in a stack's state requires by path: keep it stable.
export const { configure, check, diff, create, read, update, remove } = providerMethods(functionDefinition);
