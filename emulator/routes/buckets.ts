import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
import {
  bucketOf,
  bucketsOf,
  bytesOf,
  createBucket,
  deleteBucket,
  deleteObject,
  deleteObjectsByPrefix,
  listObjects,
  objectOf,
} from "../families/buckets";
import { type Grant, presignedPath } from "../presign";
import { renderBucket, renderObjectPage } from "../render/buckets";
import { branchOf } from "./lookup";
import { originOf } from "./origin";
import { route } from "./route";

// A branch's buckets and their objects (docs/api-rules.md §26): make, list and delete buckets;
// list, download and delete objects, delete a folder; presign an upload or a download. Presigned
// URLs point at this server's storage route (routes/storage.ts), which moves the bytes.

/** How long a presigned URL lasts when the request does not say (the document's default). */
const DEFAULT_EXPIRY_SECONDS = 900;

/** The last item a cursor names: the base64url of the previous page's last key or folder. */
function cursorItem(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const item = Buffer.from(cursor, "base64url").toString();
  if (item === "" || Buffer.from(item).toString("base64url") !== cursor)
    throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: pass the next_cursor of a previous page`);
  return item;
}

/** `attachment`, with the key's last segment as the file name a browser or CLI saves it under. */
function disposition(key: string): string {
  const name = key.slice(key.lastIndexOf("/") + 1) || key;
  return `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Registers the bucket and object routes. */
export function bucketRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = "/projects/{project_id}/branches/{branch_id}/buckets";

  route(app, `GET ${base}`, async (request) => ({
    buckets: bucketsOf(branchOf(ctx, request).branch).map(renderBucket),
  }));

  route(app, `POST ${base}`, async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const { name, access_level } = request.body;
    const bucket = createBucket(ctx, branch, name, access_level ?? "private");
    return reply.code(201).send({ bucket: renderBucket(bucket) });
  });

  route(app, `DELETE ${base}/{bucket_name}`, async (request, reply) => {
    deleteBucket(ctx, branchOf(ctx, request).branch, request.params.bucket_name);
    return reply.code(204).send();
  });

  route(app, `GET ${base}/{bucket_name}/objects`, async (request) => {
    const bucket = bucketOf(branchOf(ctx, request).branch, request.params.bucket_name);
    const { prefix, delimiter, cursor, limit } = request.query;
    const page = listObjects(bucket, { prefix, delimiter, after: cursorItem(cursor), limit: limit ?? 1000 });
    return renderObjectPage(prefix ?? "", page);
  });

  route(app, `DELETE ${base}/{bucket_name}/objects-by-prefix`, async (request) => {
    const bucket = bucketOf(branchOf(ctx, request).branch, request.params.bucket_name);
    return { deleted: deleteObjectsByPrefix(ctx, bucket, request.query.prefix) };
  });

  route(app, `DELETE ${base}/{bucket_name}/objects/{object_key}`, async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    deleteObject(ctx, branch, bucketOf(branch, request.params.bucket_name), request.params.object_key);
    return reply.code(204).send();
  });

  route(app, `GET ${base}/{bucket_name}/objects/{object_key}/download`, async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const key = request.params.object_key;
    const object = objectOf(bucketOf(branch, request.params.bucket_name), key, branch);
    const bytes = bytesOf(ctx, object, key);
    return reply
      .headers({
        etag: object.etag,
        "x-content-type-options": "nosniff",
        "content-disposition": disposition(key),
      })
      .type("application/octet-stream")
      .send(bytes);
  });

  route(app, `POST ${base}/{bucket_name}/objects/{object_key}/presign`, async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const bucket = bucketOf(branch, request.params.bucket_name);
    const { operation, content_type, expires_in_seconds } = request.body;
    const upload = operation === "upload";
    const expires = Math.floor(ctx.clock.now() / 1000) + (expires_in_seconds ?? DEFAULT_EXPIRY_SECONDS);
    const grant: Grant = {
      method: upload ? "PUT" : "GET",
      projectId: project.id,
      branchId: branch.id,
      bucket: bucket.name,
      key: request.params.object_key,
      expires,
      contentType: upload ? (content_type ?? "") : "",
    };
    return {
      url: `${originOf(request)}${presignedPath(ctx.presignKey(), grant)}`,
      method: grant.method,
      headers: grant.contentType === "" ? {} : { "Content-Type": grant.contentType },
      expires_at: new Date(expires * 1000).toISOString(),
    };
  });
}
