/**
 * The public part of {@link Bucket}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../bucket.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, enumOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** Who may read a bucket's objects: `private` (signed requests only) or `public_read` (anyone may GET). */
export const BUCKET_ACCESS_LEVEL = enumOf("BucketAccessLevel", ["private", "public_read"]);

/** An object-storage bucket on a branch, declared. The API has no update: every input but `forceDestroy` replaces it. */
export const BUCKET = declareResource({
  type: "Bucket",
  noun: "bucket",
  family: "buckets",
  importId: ["projectId", "branchId", "name"],
  inputs: {
    /** The project of the branch. Changing it replaces the bucket. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the bucket lives on. Changing it replaces the bucket. */
    branchId: { type: STRING, required: true, change: "replace" },
    /**
     * The bucket name, unique on its branch; changing it replaces the bucket. Omit it for a generated
     * one (the resource's name and a short mark), which a run after a killed one finds again.
     */
    name: { type: STRING, change: "replace" },
    /** `private` (what the API makes when it is left out) or `public_read` (anyone may download an object). Changing it replaces the bucket. */
    accessLevel: { type: BUCKET_ACCESS_LEVEL, change: "replace", computed: true },
    /** When true, deleting the bucket first deletes its objects; otherwise a bucket with objects is not deleted. */
    forceDestroy: { type: BOOLEAN, change: "update" },
    /** The name of an existing bucket on the branch to take under management instead of creating one. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The bucket name. */
    name: { type: STRING },
    /** The access level, as the API reports it. */
    accessLevel: { type: STRING },
    /** Creation time, ISO 8601 UTC (an ancestor branch's time for a bucket the branch inherited). */
    createdAt: { type: STRING },
  },
});

/** Inputs of a {@link Bucket}. */
export interface BucketArgs extends ArgsOf<typeof BUCKET> {}

/** The plain inputs as the provider sees them. */
export interface BucketInputs extends InputsOf<typeof BUCKET> {}

/** Everything the state records of a bucket. */
export interface BucketOutputs extends StateOf<typeof BUCKET> {}

/** The dynamic provider of {@link Bucket}: it loads `../bucket` when called (see `lazyProvider`). */
export const bucketProvider: pulumi.dynamic.ResourceProvider<BucketInputs, BucketOutputs> = lazyProvider(
  BUCKET.type,
);

// The class's fields: one Output per declared output.
export interface Bucket extends OutputFields<typeof BUCKET> {}

/**
 * An object-storage bucket on a branch: an app's file uploads, per preview environment. A child
 * branch starts with its parent's buckets and objects. Objects are moved with presigned URLs
 * (`POST .../objects/{key}/presign`), not by this resource. The API cannot change a bucket, so a
 * new name or access level replaces it; a bucket that still has objects is deleted only with
 * `forceDestroy: true`, which deletes the objects first. `pulumi import` takes
 * `<projectId>/<branchId>/<name>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Bucket extends DynamicResource {
  constructor(name: string, args: BucketArgs, opts?: pulumi.CustomResourceOptions) {
    super(BUCKET, name, args, opts);
  }
}
