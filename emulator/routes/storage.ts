import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { forbidden, notFound } from "../errors";
import { bucketOf, bytesOf, objectOf, putObject } from "../families/buckets";
import { type Grant, verify } from "../presign";

// The emulator's stand-in for a branch's S3 data plane, at the URLs the presign route hands out
// (docs/api-rules.md §26). No API key: a request is let through by the URL's signature, checked
// against the method, the object and the expiry (by the emulator's clock), or, for a GET on a
// `public_read` bucket, by the bucket alone. PUT keeps the body as the object, GET returns it.

/** The largest body an upload takes: the official CLI's own single-upload limit (100 MiB). */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

interface StorageRequest {
  Params: { project_id: string; branch_id: string; bucket: string; key: string };
  Querystring: { "X-Expires"?: string; "X-Signature"?: string };
}

/** The live branch the URL names, with its bucket; 404 otherwise. */
function target(ctx: EmulatorContext, request: FastifyRequest<StorageRequest>) {
  const { project_id, branch_id, bucket } = request.params;
  const project = ctx.store.projects.get(project_id);
  const branch =
    project?.deleted_at_ms === undefined ? ctx.store.liveBranch(project_id, branch_id) : undefined;
  if (!branch) throw notFound(`branch ${branch_id} not found in project ${project_id}`);
  return { branch, bucket: bucketOf(branch, bucket) };
}

/** Refuses (403) a request its URL does not sign: a changed part, an expired URL, another method. */
function checkSigned(
  ctx: EmulatorContext,
  request: FastifyRequest<StorageRequest>,
  method: Grant["method"],
): void {
  const expires = Number(request.query["X-Expires"]);
  const signature = request.query["X-Signature"];
  if (signature === undefined || !Number.isInteger(expires))
    throw forbidden("this URL is not presigned: ask POST .../objects/{object_key}/presign for one");
  const header = request.headers["content-type"];
  const grant: Grant = {
    method,
    projectId: request.params.project_id,
    branchId: request.params.branch_id,
    bucket: request.params.bucket,
    key: request.params.key,
    expires,
    contentType: method === "PUT" && typeof header === "string" ? header : "",
  };
  // An upload signed without a content type accepts any; one signed with it must send it.
  const signed =
    verify(ctx.presignKey(), grant, signature) ||
    (method === "PUT" && verify(ctx.presignKey(), { ...grant, contentType: "" }, signature));
  if (!signed)
    throw forbidden(
      `the presigned URL's signature does not match this ${method} (a changed URL, another method, or a Content-Type other than the signed one): presign again`,
    );
  if (ctx.clock.now() > expires * 1000)
    throw forbidden(`the presigned URL expired at ${new Date(expires * 1000).toISOString()}: presign again`);
}

/** Registers the storage route under its prefix (`/__storage`). */
export function storageRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  // The body of an upload is the object's bytes, whatever its content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  const url = "/:project_id/:branch_id/:bucket/:key";

  app.put<StorageRequest>(url, async (request, reply) => {
    checkSigned(ctx, request, "PUT");
    const { bucket } = target(ctx, request);
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const header = request.headers["content-type"];
    const object = putObject(
      ctx,
      bucket,
      request.params.key,
      bytes,
      typeof header === "string" ? header : undefined,
    );
    return reply.code(200).header("etag", object.etag).send();
  });

  app.get<StorageRequest>(url, async (request, reply) => {
    const { branch, bucket } = target(ctx, request);
    if (!(bucket.access_level === "public_read" && request.query["X-Signature"] === undefined))
      checkSigned(ctx, request, "GET");
    const key = request.params.key;
    const object = objectOf(bucket, key, branch);
    return reply
      .header("etag", object.etag)
      .type(object.content_type ?? "application/octet-stream")
      .send(bytesOf(ctx, object, key));
  });
}
