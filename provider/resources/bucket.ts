import { z } from "zod";
import type { Bucket as ApiBucket, CloudDbClient } from "../client";
import { isConflict, NotFoundError } from "../client/errors";
import { nameOf, ResourceError, unprovenNameConflict } from "./errors";
import { adoptInput, ProjectOfBranchInput, requiredId } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { createdSince, defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { isGeneratedWith } from "./lifecycle/owner";
import { BUCKET, BUCKET_ACCESS_LEVEL, type BucketInputs, type BucketOutputs } from "./public/bucket";

export type { BucketInputs, BucketOutputs } from "./public/bucket";

// ---------------------------------------------------------------- inputs

/**
 * A bucket name (docs/api-rules.md §26): the document allows 1 to 255 characters, and the storage's S3
 * endpoint takes the name as one segment of its path (path-style addressing), so no `/`, whitespace
 * or control character, and not `.` or `..`.
 */
const BUCKET_NAME = /^[^/\s\p{Cc}]+$/u;

/** Inputs as the provider sees them. */
export const BucketInputsSchema = z.object({
  projectId: ProjectOfBranchInput,
  branchId: requiredId("branchId", "the branch the bucket is on (br-...)"),
  name: z
    .string({ error: "name must be a string" })
    .min(1, "name must not be empty; omit it for a generated one")
    .max(255, "name is at most 255 characters")
    .refine((name) => BUCKET_NAME.test(name) && name !== "." && name !== "..", {
      error: (issue) =>
        `name must be a bucket name such as "uploads": 1 to 255 characters without "/", spaces or control characters ` +
        `(S3 clients address the bucket as one segment of a path), not ${JSON.stringify(issue.input)}; omit it for a generated one`,
    })
    .optional(),
  accessLevel: z
    .enum(BUCKET_ACCESS_LEVEL.enum, { error: `accessLevel is one of ${BUCKET_ACCESS_LEVEL.enum.join(", ")}` })
    .optional(),
  forceDestroy: z.boolean({ error: "forceDestroy must be true or false" }).optional(),
  adoptExisting: adoptInput("bucket (its name on the branch)"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof BucketInputsSchema>, BucketInputs>;

// ---------------------------------------------------------------- API calls

/**
 * An object-storage bucket on a branch (docs/api-rules.md §26). The API makes, lists and deletes
 * buckets and changes none, so every input but `forceDestroy` replaces it, the old bucket deleted
 * first when the new one takes its name. A bucket that still has objects is deleted only with
 * `forceDestroy`, which deletes its folders by prefix and its other objects one by one first.
 */
export const bucketDefinition = defineResource<BucketInputs, BucketOutputs>(BUCKET, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: BucketInputsSchema,
  // Left out, the name is generated from the resource's name and create key (`lifecycle/owner.ts`).
  generatesName: true,
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.name}`,
  // A name is unique on its branch: a replacement that keeps it (a new access level) deletes first.
  deleteBeforeReplace: (olds, news) =>
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId &&
    (news.name ?? olds.name) === olds.name,

  /**
   * Creates the bucket. A name generated with this create key that is taken was taken by a killed
   * run of this resource: that bucket is taken. A name the program gave carries no such proof.
   */
  async create({ client, createKey }, inputs) {
    const name = nameOf("bucket", inputs);
    try {
      const made = await client.createBucket(inputs.projectId, inputs.branchId, {
        name,
        ...(inputs.accessLevel === undefined ? {} : { access_level: inputs.accessLevel }),
      });
      return outputsOf(inputs, made);
    } catch (err) {
      if (!isConflict(err)) throw err;
      if (createKey === undefined || !isGeneratedWith(name, createKey))
        throw unprovenNameConflict("bucket", inputs, err);
    }
    return outputsOf(inputs, await found(client, inputs.projectId, inputs.branchId, name));
  },

  /** Bucket names are unique per branch: one of this name created since the request is ours. */
  async findLost({ client }, inputs, startedAt) {
    const listed = await client.listBuckets(inputs.projectId, inputs.branchId).catch(() => []);
    const bucket = listed.find((b) => b.name === nameOf("bucket", inputs));
    if (bucket === undefined || !(Date.parse(bucket.created_at) >= createdSince(startedAt))) return undefined;
    return outputsOf(inputs, bucket);
  },

  /** Takes the branch's bucket `name` under management, with the access level it has. */
  async adopt({ client }, inputs, name) {
    const bucket = await found(client, inputs.projectId, inputs.branchId, name);
    if (inputs.accessLevel !== undefined && bucket.access_level !== inputs.accessLevel)
      throw new ResourceError(
        "NotAdoptable",
        `bucket ${name} on branch ${inputs.branchId} is ${bucket.access_level}, not ${inputs.accessLevel}: the API ` +
          "cannot change a bucket's access level; declare the one it has, or let this resource make a new bucket",
      );
    return outputsOf({ ...inputs, name }, bucket);
  },

  /** The branch's bucket `name` as it is now. */
  async readExisting({ client }, inputs, name) {
    const bucket = await found(client, inputs.projectId, inputs.branchId, name);
    return outputsOf({ ...inputs, name, accessLevel: accessOf(bucket) }, bucket);
  },

  /** The bucket as it is now; gone once deleted elsewhere (or with its branch). */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const listed = await client.listBuckets(props.projectId, props.branchId);
    const bucket = listed.find((b) => b.name === props.name);
    if (bucket === undefined) return undefined;
    // An access level changed elsewhere is reported as it is: the next `up` replaces the bucket.
    return { ...props, accessLevel: bucket.access_level, createdAt: bucket.created_at };
  },

  /**
   * A replacement deletes the old bucket: the preview says the objects go with it under
   * `forceDestroy`, or that the delete is refused while it has any (a delete reads the state's
   * `forceDestroy`, so turning it on in the same change does not count).
   */
  review(olds, news) {
    const replaced =
      news.projectId !== olds.projectId ||
      news.branchId !== olds.branchId ||
      (news.name !== undefined && news.name !== olds.name) ||
      (news.accessLevel !== undefined && news.accessLevel !== olds.accessLevel);
    if (!replaced) return undefined;
    return olds.forceDestroy === true
      ? `replacing bucket ${olds.name} deletes its objects with it (forceDestroy)`
      : `replacing bucket ${olds.name} deletes it, which is refused while it has objects: set forceDestroy: true alone and run \`pulumi up\` first to let them go`;
  },

  /** `forceDestroy` only changes what a delete does: nothing to send. */
  async update(_step, _id, outs) {
    return outs;
  },

  async remove({ client }, _id, props) {
    if (props.forceDestroy === true) await empty(client, props);
    try {
      await client.deleteBucket(props.projectId, props.branchId, props.name);
    } catch (err) {
      if (!isConflict(err)) throw err;
      const held = await client
        .countBucketObjects(props.projectId, props.branchId, props.name)
        .then(({ count, more }) => (count === 0 ? "" : ` (${more ? "more than " : ""}${count} objects)`))
        .catch(() => "");
      const id = err.requestId === undefined ? "" : ` (request id ${err.requestId})`;
      throw new ResourceError(
        "DeleteRefused",
        `bucket ${props.name} on branch ${props.branchId} is not empty${held}, so it was not deleted: set ` +
          "forceDestroy: true on the resource, with no other change, and run `pulumi up` (nothing is sent), then " +
          "`pulumi destroy` (or the replacement) again, which deletes its objects first; or empty it yourself " +
          `(\`neon bucket object delete ${props.name}/<folder>/ --recursive\`)${id}`,
        err,
      );
    }
  },
});

/** The branch's bucket `name`; the client's not-found error otherwise. */
async function found(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  name: string,
): Promise<ApiBucket> {
  const bucket = (await client.listBuckets(projectId, branchId)).find((b) => b.name === name);
  if (bucket === undefined)
    throw new NotFoundError(
      `branch ${branchId} of project ${projectId} has no bucket named ${JSON.stringify(name)}`,
    );
  return bucket;
}

/** Deletes every object of the bucket: each top folder with one call, the keys outside folders one by one. */
async function empty(client: CloudDbClient, props: BucketOutputs): Promise<void> {
  const objects = await client.listBucketObjects(props.projectId, props.branchId, props.name);
  const folders = new Set<string>();
  for (const { key } of objects) {
    const slash = key.indexOf("/");
    if (slash >= 0) folders.add(key.slice(0, slash + 1));
    else await client.deleteBucketObject(props.projectId, props.branchId, props.name, key);
  }
  for (const folder of folders)
    await client.deleteBucketObjectsByPrefix(props.projectId, props.branchId, props.name, folder);
}

/** The access level as an input value; undefined for one this provider does not know. */
function accessOf(bucket: ApiBucket): BucketInputs["accessLevel"] {
  return BUCKET_ACCESS_LEVEL.enum.find((level) => level === bucket.access_level);
}

function outputsOf(inputs: BucketInputs, bucket: ApiBucket): BucketOutputs {
  return {
    ...declaredInputs<BucketInputs>(BucketInputsSchema, inputs),
    name: bucket.name,
    accessLevel: bucket.access_level,
    createdAt: bucket.created_at,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(bucketDefinition);
