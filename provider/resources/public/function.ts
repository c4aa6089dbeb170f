/**
 * The public part of {@link Function}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, source archive, API calls) is `../function.ts`, loaded only in the
 * provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { secret } from "@pulumi/pulumi/output";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, INTEGER, mapOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A function on a branch, declared: its code is deployed from a folder or a .zip archive. */
export const FUNCTION = declareResource({
  type: "Function",
  noun: "function",
  family: "functions",
  importId: ["projectId", "branchId", "slug"],
  inputs: {
    /** The project of the branch. Changing it replaces the function. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the function lives on. Changing it replaces the function. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The function's slug (`^[a-z0-9]{1,20}$`), unique on its branch and part of its invocation URL. Left out, one is generated from the resource's name and a mark of this stack (a run killed during the create takes its function back). Changing it replaces the function. */
    slug: { type: STRING, change: "replace" },
    /** The display name; left out, the one the function has (the slug for a new one). Changed in place. */
    name: { type: STRING, change: "update", computed: true },
    /** The runtime (`nodejs24`, what the API uses when it is left out). A new runtime deploys again. */
    runtime: { type: STRING, change: "update", computed: true },
    /** Environment variables by name: a secret, its values never in the state in plaintext nor returned by the API. A change deploys again. */
    environment: { type: mapOf(STRING), change: "update" },
    /** A folder whose files are the function's code, zipped by the provider the same way every time. Give this or `archive`. */
    source: { type: STRING, change: "update" },
    /** A .zip archive of the function's code. Give this or `source`. */
    archive: { type: STRING, change: "update" },
    /** The slug of an existing function on the branch to take under management (it is deployed again with this source). */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The slug. */
    slug: { type: STRING },
    /** The function's id. */
    functionId: { type: STRING },
    /** The display name, as the API reports it. */
    name: { type: STRING },
    /** The runtime of the active deployment. */
    runtime: { type: STRING },
    /** The environment variables last deployed: a Pulumi secret. */
    environment: { type: mapOf(STRING), secret: true, optional: true },
    /** The sha256 (hex) of the deployed archive's bytes: a new one on the next `up` means a new deployment. */
    sourceHash: { type: STRING },
    /** The URL that invokes the function (empty when the API gives none). */
    invocationUrl: { type: STRING },
    /** The id (version) of the active deployment, the one serving invocations. */
    deploymentId: { type: INTEGER },
    /** The status of the active deployment (`completed`). */
    deploymentStatus: { type: STRING },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING },
  },
});

/** Inputs of a {@link Function}. */
export interface FunctionArgs extends ArgsOf<typeof FUNCTION> {}

/** The plain inputs as the provider sees them. */
export interface FunctionInputs extends InputsOf<typeof FUNCTION> {}

/** Everything the state records of a function. */
export interface FunctionOutputs extends StateOf<typeof FUNCTION> {}

/** The dynamic provider of {@link Function}: it loads `../function` when called (see `lazyProvider`). */
export const functionProvider: pulumi.dynamic.ResourceProvider<FunctionInputs, FunctionOutputs> =
  lazyProvider(FUNCTION.type);

// The class's fields: one Output per declared output.
export interface Function extends OutputFields<typeof FUNCTION> {}

/**
 * A function on a branch, deployed from `source` (a folder, zipped by the provider with sorted entries
 * and fixed timestamps, so the same files make the same archive) or `archive` (a .zip). A preview
 * compares the archive's sha256 with `sourceHash` and shows an update when the code changed; the
 * update deploys again and waits until the deployment completed. `environment` is a secret. Left
 * out, the slug is generated (the resource's name and a mark), so a run killed during the create
 * takes its function back; a new slug replaces it. `pulumi import` takes
 * `<projectId>/<branchId>/<slug>` and cannot recover the code: set `source` or `archive` on the
 * imported resource, and the next `up` deploys it.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
// biome-ignore lint/suspicious/noShadowRestrictedNames: the kind is named as the API names it.
export class Function extends DynamicResource {
  constructor(name: string, args: FunctionArgs, opts?: pulumi.CustomResourceOptions) {
    // The values are secrets: the state keeps the inputs too, so they are encrypted there as well.
    const environment = args.environment === undefined ? undefined : secret(args.environment);
    super(FUNCTION, name, { ...args, ...(environment === undefined ? {} : { environment }) }, opts);
  }
}
