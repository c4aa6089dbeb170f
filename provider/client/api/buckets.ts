/**
 * A branch's object-storage buckets (`/projects/{project_id}/branches/{branch_id}/buckets`) and
 * their objects: make, list and delete buckets; list and delete objects, so a bucket can be emptied
 * before it is deleted; find one object by its key, upload it and hash it through presigned URLs
 * (docs/api-rules.md §26). None starts an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { hashPresigned, putPresigned } from "../presigned";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type Bucket,
  type BucketObject,
  BucketObjectsDeletePrefixResponseSchema,
  BucketObjectsListResponseSchema,
  BucketResponseSchema,
  BucketsListResponseSchema,
  type Presigned,
  PresignResponseSchema,
} from "../schemas";

const NO_BODY = z.unknown();
/** Listing pages are bounded: a bucket of millions of keys is not emptied in one run by accident. */
const MAX_OBJECT_PAGES = 1000;

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const bucket = (projectId: string, branchId: string, name: string) => ({
  ...branch(projectId, branchId),
  bucket_name: name,
});

/** `GET .../buckets`: the branch's buckets. */
export async function listBuckets(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Bucket[]> {
  const listed = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/buckets", {
    params: branch(projectId, branchId),
    schema: BucketsListResponseSchema,
  });
  return listed.buckets;
}

/** `POST .../buckets` (201); 409 when the branch has a bucket of that name. */
export async function createBucket(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/buckets"]["Body"],
): Promise<Bucket> {
  const made = await send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/buckets", {
    params: branch(projectId, branchId),
    body,
    schema: BucketResponseSchema,
  });
  return made.bucket;
}

/** `DELETE .../buckets/{bucket_name}` (204); the emulator, like S3, refuses a bucket with objects (409). */
export async function deleteBucket(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}", {
    params: bucket(projectId, branchId, name),
    schema: NO_BODY,
  });
}

/** `GET .../objects` without a delimiter, page by page: every object key of the bucket. */
export async function listBucketObjects(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
): Promise<BucketObject[]> {
  const objects: BucketObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_OBJECT_PAGES; page++) {
    const listed = await send(
      ctx.request,
      "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects",
      {
        params: bucket(projectId, branchId, name),
        query: { cursor },
        schema: BucketObjectsListResponseSchema,
      },
    );
    objects.push(...listed.objects);
    if (!listed.is_truncated || !listed.next_cursor) return objects;
    cursor = listed.next_cursor;
  }
  throw new Error(
    `bucket ${name} on branch ${branchId} lists more than ${MAX_OBJECT_PAGES} pages of objects`,
  );
}

/** `GET .../objects`, its first page only: how many objects it lists, and whether there are more. */
export async function countBucketObjects(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
): Promise<{ count: number; more: boolean }> {
  const listed = await send(
    ctx.request,
    "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects",
    {
      params: bucket(projectId, branchId, name),
      schema: BucketObjectsListResponseSchema,
    },
  );
  return { count: listed.objects.length, more: listed.is_truncated && Boolean(listed.next_cursor) };
}

/** `DELETE .../objects-by-prefix`: deletes every object under the folder `prefix` (ending in `/`); how many. */
export async function deleteBucketObjectsByPrefix(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  prefix: string,
): Promise<number> {
  const done = await send(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix",
    {
      params: bucket(projectId, branchId, name),
      query: { prefix },
      schema: BucketObjectsDeletePrefixResponseSchema,
    },
  );
  return done.deleted;
}

/** `DELETE .../objects/{object_key}` (204); the key is one path segment, its `/` encoded. */
export async function deleteBucketObject(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  key: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}",
    {
      params: { ...bucket(projectId, branchId, name), object_key: key },
      schema: NO_BODY,
    },
  );
}

/**
 * `GET .../objects?prefix={key}&limit=1`: the object of exactly that key, or undefined. A listing is
 * in key order and a key comes before every longer key it begins, so one item tells.
 */
export async function findBucketObject(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  key: string,
): Promise<BucketObject | undefined> {
  const listed = await send(
    ctx.request,
    "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects",
    {
      params: bucket(projectId, branchId, name),
      query: { prefix: key, limit: 1 },
      schema: BucketObjectsListResponseSchema,
    },
  );
  return listed.objects.find((object) => object.key === key);
}

/** `POST .../objects/{object_key}/presign`: a URL to upload (`PUT`) or download (`GET`) the object with. */
export async function presignBucketObject(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  key: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign"]["Body"],
): Promise<Presigned> {
  return send(
    ctx.request,
    "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign",
    {
      params: { ...bucket(projectId, branchId, name), object_key: key },
      body,
      schema: PresignResponseSchema,
    },
  );
}

/**
 * Uploads `bytes` as the object `key`, replacing any object of that key: a presigned upload URL
 * (bound to `contentType` when given), then a `PUT` of the bytes to it with the headers it names.
 */
export async function uploadBucketObject(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  key: string,
  bytes: Uint8Array,
  contentType?: string,
): Promise<void> {
  const presigned = await presignBucketObject(ctx, projectId, branchId, name, key, {
    operation: "upload",
    ...(contentType === undefined ? {} : { content_type: contentType }),
  });
  await putPresigned(
    {
      method: "PUT",
      url: presigned.url,
      headers: presigned.headers,
      what: `object ${JSON.stringify(key)} of bucket ${name}`,
      deadline: ctx.deadline,
    },
    bytes,
  );
}

/** The sha256 (hex) and size of the object `key`'s bytes, read through a presigned download URL. */
export async function hashBucketObject(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
  key: string,
): Promise<{ sha256: string; size: number }> {
  const presigned = await presignBucketObject(ctx, projectId, branchId, name, key, { operation: "download" });
  return hashPresigned({
    method: "GET",
    url: presigned.url,
    headers: presigned.headers,
    what: `object ${JSON.stringify(key)} of bucket ${name}`,
    deadline: ctx.deadline,
  });
}
