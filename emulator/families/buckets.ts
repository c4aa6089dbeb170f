import { createHash } from "node:crypto";
import type { EmulatorContext } from "../context";
import { badRequest, HttpError, notFound } from "../errors";
import type { BranchRecord, BucketObjectRecord, BucketRecord } from "../records";
import { holdOnBranch, sweepBlobs } from "./branch-data";

// A branch's object-storage buckets and their objects (docs/api-rules.md §26). The branch record
// holds each object's metadata; its bytes are in the object store, named by their SHA-256, so a
// child branch starts with its parent's buckets and objects by copying the records alone. A
// bucket that still has objects is not deleted (409): its objects are deleted first.

declare module "../records" {
  interface BranchData {
    /** The branch's object-storage buckets and their objects' metadata (the bytes are in the object store). */
    buckets?: BucketRecord[];
  }
}

// A child sees its parent's buckets and objects as they are now (their bytes are shared); a
// schema-only child has no data, so no objects. A preserved branch keeps them: they are data.
holdOnBranch({
  field: "buckets",
  toChild: (buckets, { schemaOnly }) => (schemaOnly ? undefined : structuredClone(buckets)),
  preserved: true,
  blobs: (buckets) => buckets.flatMap((bucket) => Object.values(bucket.objects).map((o) => o.blob)),
});

/** The branch's buckets (none yet: an empty list, kept on the branch). */
export function bucketsOf(branch: BranchRecord): BucketRecord[] {
  branch.buckets ??= [];
  return branch.buckets;
}

/** The branch's bucket of that name; 404 naming the branch otherwise. */
export function bucketOf(branch: BranchRecord, name: string): BucketRecord {
  const bucket = branch.buckets?.find((b) => b.name === name);
  if (!bucket) throw notFound(`bucket ${JSON.stringify(name)} not found on branch ${branch.id}`);
  return bucket;
}

/** Makes a bucket on the branch; 409 when the branch already has one of that name. */
export function createBucket(
  ctx: EmulatorContext,
  branch: BranchRecord,
  name: string,
  accessLevel: BucketRecord["access_level"],
): BucketRecord {
  const buckets = bucketsOf(branch);
  if (buckets.some((b) => b.name === name))
    throw new HttpError(409, `bucket ${JSON.stringify(name)} already exists on branch ${branch.id}`);
  const bucket: BucketRecord = {
    name,
    access_level: accessLevel,
    created_at_ms: ctx.clock.now(),
    objects: {},
  };
  buckets.push(bucket);
  ctx.changed();
  return bucket;
}

/** Deletes an empty bucket; 409 telling how to empty it when it still has objects. */
export function deleteBucket(ctx: EmulatorContext, branch: BranchRecord, name: string): void {
  const bucket = bucketOf(branch, name);
  const count = Object.keys(bucket.objects).length;
  if (count > 0)
    throw new HttpError(
      409,
      `bucket ${JSON.stringify(name)} on branch ${branch.id} still has ${count} object(s): delete them ` +
        "(DELETE .../objects/{object_key}, or .../objects-by-prefix for a folder) before the bucket",
    );
  branch.buckets = bucketsOf(branch).filter((b) => b !== bucket);
  ctx.changed();
}

/** Keeps the bytes as the object `key` of the bucket, replacing any object of that key. */
export function putObject(
  ctx: EmulatorContext,
  bucket: BucketRecord,
  key: string,
  bytes: Buffer,
  contentType: string | undefined,
): BucketObjectRecord {
  const object: BucketObjectRecord = {
    size: bytes.length,
    etag: `"${createHash("md5").update(bytes).digest("hex")}"`,
    last_modified_ms: ctx.clock.now(),
    blob: ctx.objects.put(bytes),
    ...(contentType === undefined || contentType === "" ? {} : { content_type: contentType }),
  };
  bucket.objects[key] = object;
  ctx.changed();
  sweep(ctx);
  return object;
}

/** The bucket's object of that key; 404 naming it otherwise. */
export function objectOf(bucket: BucketRecord, key: string, branch: BranchRecord): BucketObjectRecord {
  const object = bucket.objects[key];
  if (!object)
    throw notFound(`object ${JSON.stringify(key)} not found in bucket ${bucket.name} on branch ${branch.id}`);
  return object;
}

/** The bytes of an object; a 500 when the object store lost them (a state folder edited by hand). */
export function bytesOf(ctx: EmulatorContext, object: BucketObjectRecord, key: string): Buffer {
  const bytes = ctx.objects.get(object.blob);
  if (!bytes)
    throw new HttpError(500, `the bytes of object ${JSON.stringify(key)} are missing from the object store`);
  return bytes;
}

/** Deletes the object; 404 when the bucket has no such key. */
export function deleteObject(
  ctx: EmulatorContext,
  branch: BranchRecord,
  bucket: BucketRecord,
  key: string,
): void {
  objectOf(bucket, key, branch);
  delete bucket.objects[key];
  ctx.changed();
  sweep(ctx);
}

/**
 * Deletes every object whose key starts with the prefix (a folder); returns how many. The prefix
 * must end with `/` and hold no control character, so it cannot take a sibling's keys by accident.
 */
export function deleteObjectsByPrefix(ctx: EmulatorContext, bucket: BucketRecord, prefix: string): number {
  if (!prefix.endsWith("/"))
    throw badRequest(
      `prefix ${JSON.stringify(prefix)} must end with "/": it names a folder, not part of a key`,
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  if (/[\u0000-\u001f\u007f]/.test(prefix)) throw badRequest("prefix must not contain control characters");
  const keys = Object.keys(bucket.objects).filter((k) => k.startsWith(prefix));
  for (const key of keys) delete bucket.objects[key];
  if (keys.length > 0) {
    ctx.changed();
    sweep(ctx);
  }
  return keys.length;
}

/** One page of a bucket listing: folders and objects in key order. */
export interface ObjectPage {
  folders: string[];
  objects: [string, BucketObjectRecord][];
  /** The last item of the page, when more items follow. */
  next?: string;
}

/**
 * Lists the bucket's keys under `prefix`; with a delimiter, keys with it after the prefix collapse
 * into folders (the prefix up to and with the delimiter). Folders and objects share one key order
 * and one `limit`; a page resumes after the item its cursor names.
 */
export function listObjects(
  bucket: BucketRecord,
  query: {
    prefix?: string | undefined;
    delimiter?: string | undefined;
    after?: string | undefined;
    limit: number;
  },
): ObjectPage {
  const prefix = query.prefix ?? "";
  const delimiter = query.delimiter === "" ? undefined : query.delimiter;
  const items = new Map<string, BucketObjectRecord | undefined>();
  for (const key of Object.keys(bucket.objects).sort()) {
    if (!key.startsWith(prefix)) continue;
    const at = delimiter === undefined ? -1 : key.indexOf(delimiter, prefix.length);
    if (at >= 0) items.set(key.slice(0, at + (delimiter as string).length), undefined);
    else items.set(key, bucket.objects[key]);
  }
  const ordered = [...items.keys()].sort().filter((k) => query.after === undefined || k > query.after);
  const page = ordered.slice(0, query.limit);
  const out: ObjectPage = { folders: [], objects: [] };
  for (const name of page) {
    const object = items.get(name);
    if (object === undefined) out.folders.push(name);
    else out.objects.push([name, object]);
  }
  const last = page.at(-1);
  if (ordered.length > page.length && last !== undefined) out.next = last;
  return out;
}

/** Forgets the bytes nothing of any branch (live or deleted, which may come back) names any more. */
function sweep(ctx: EmulatorContext): void {
  sweepBlobs(ctx.store.branches.values(), ctx.objects);
}
