/**
 * The public part of {@link BucketObject}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, API calls) is `../bucketObject.ts`, loaded only in the provider
 * process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, INTEGER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** An object of a bucket, declared: a file or inline content uploaded under a key, changed in place by uploading again. */
export const BUCKET_OBJECT = declareResource({
  type: "BucketObject",
  noun: "bucket object",
  family: "buckets",
  importId: ["projectId", "branchId", "bucketName", "key"],
  inputs: {
    /** The project of the branch. Changing it replaces the object. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the bucket is on. Changing it replaces the object. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The name of the bucket (a `Bucket`'s `name` output). Changing it replaces the object. */
    bucketName: { type: STRING, required: true, change: "replace" },
    /** The object's key in the bucket (`docs/readme.txt`); a `/` in it makes folders in a listing. Changing it replaces the object. */
    key: { type: STRING, required: true, change: "replace" },
    /** A local file whose bytes are the object, read and hashed at every preview. Give this or `content`. New bytes upload again in place. */
    source: { type: STRING, change: "update" },
    /** The object's bytes as text (UTF-8). Give this or `source`. New text uploads again in place. */
    content: { type: STRING, change: "update" },
    /** The `Content-Type` the upload is signed with and sends (`text/plain`); left out, none is sent. A new one uploads again. */
    contentType: { type: STRING, change: "update" },
    /** The key of an existing object to take under management (the same as `key`): its bytes are replaced by this resource's. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The bucket name. */
    bucketName: { type: STRING },
    /** The sha256 (hex) of the object's bytes: this resource's when it uploaded them, else read back from the bucket. */
    sha256: { type: STRING },
    /** The object's entity tag, as the bucket's listing reports it: a new one after a change made outside. */
    etag: { type: STRING },
    /** The object's size in bytes. */
    size: { type: INTEGER },
    /** The `Content-Type` the object was uploaded with, when given (the API's listing does not report it). */
    contentType: { type: STRING, optional: true },
    /** When the object was last written, ISO 8601 UTC. */
    lastModified: { type: STRING },
  },
});

/** Inputs of a {@link BucketObject}. */
export interface BucketObjectArgs extends ArgsOf<typeof BUCKET_OBJECT> {}

/** The plain inputs as the provider sees them. */
export interface BucketObjectInputs extends InputsOf<typeof BUCKET_OBJECT> {}

/** Everything the state records of a bucket object. */
export interface BucketObjectOutputs extends StateOf<typeof BUCKET_OBJECT> {}

/** The dynamic provider of {@link BucketObject}: it loads `../bucketObject` when called (see `lazyProvider`). */
export const bucketObjectProvider: pulumi.dynamic.ResourceProvider<BucketObjectInputs, BucketObjectOutputs> =
  lazyProvider(BUCKET_OBJECT.type);

// The class's fields: one Output per declared output.
export interface BucketObject extends OutputFields<typeof BUCKET_OBJECT> {}

/**
 * An object of a bucket: a local file (`source`) or inline text (`content`) uploaded under `key`
 * through a presigned URL. A preview hashes the bytes (sha256) and shows an update when they
 * changed; the API's upload replaces the object of a key, so new bytes or a new `contentType`
 * upload again in place, and a new key, bucket or branch replaces it. Refresh reads the object by
 * its key: one deleted outside is dropped, one written outside (a new `etag`) is read and hashed
 * again, so the next `up` uploads this resource's bytes again. `pulumi import` takes
 * `<projectId>/<branchId>/<bucketName>/<key>`, a `/` in the key written `%2F`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class BucketObject extends DynamicResource {
  constructor(name: string, args: BucketObjectArgs, opts?: pulumi.CustomResourceOptions) {
    super(BUCKET_OBJECT, name, args, opts);
  }
}
