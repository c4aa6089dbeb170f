import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

// Presigned URLs for the buckets' objects (docs/api-rules.md §26). The service signs a URL to its
// branch's S3 data plane; the emulator signs one to its own server (`/__storage/...`, no API key),
// with an HMAC-SHA256 over the method, the object's project, branch, bucket and key, the expiry and
// the content type an upload binds. The storage route recomputes it: a URL whose any part was
// changed, or used after its expiry by the emulator's clock, is refused.

/** What a presigned URL allows: one method on one object until a time. */
export interface Grant {
  method: "PUT" | "GET";
  projectId: string;
  branchId: string;
  bucket: string;
  key: string;
  /** Epoch seconds after which the URL is refused. */
  expires: number;
  /** The `Content-Type` an upload must send; empty when none was bound. */
  contentType: string;
}

/** The path of the storage route that presigned URLs point at. */
export const STORAGE_PREFIX = "/__storage";

/** The signature of a grant: hex HMAC-SHA256 of its fields, one per line. */
export function sign(secret: Buffer, grant: Grant): string {
  const text = [
    grant.method,
    grant.projectId,
    grant.branchId,
    grant.bucket,
    grant.key,
    String(grant.expires),
    grant.contentType,
  ].join("\n");
  return createHmac("sha256", secret).update(text).digest("hex");
}

/** Whether `signature` is the grant's (compared in constant time). */
export function verify(secret: Buffer, grant: Grant, signature: string): boolean {
  const expected = Buffer.from(sign(secret, grant), "hex");
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The path (and query) of a presigned URL for the grant, under the storage route. */
export function presignedPath(secret: Buffer, grant: Grant): string {
  const segments = [grant.projectId, grant.branchId, grant.bucket, grant.key].map(encodeURIComponent);
  const query = new URLSearchParams({
    "X-Expires": String(grant.expires),
    "X-Signature": sign(secret, grant),
  });
  return `${STORAGE_PREFIX}/${segments.join("/")}?${query}`;
}

/**
 * The key presigned URLs are signed with, made when first asked for: kept in `<state>.presign.key`
 * with a state file, so a URL handed out before a restart still works until it expires; a fresh one
 * per run without.
 */
export function signingKeyFor(stateFile: string | undefined): () => Buffer {
  let secret: Buffer | undefined;
  return () => {
    secret ??= stateFile === undefined ? randomBytes(32) : keptKey(`${stateFile}.presign.key`);
    return secret;
  };
}

/** The key in the file `path`, or a new one written there (mode 0600). */
function keptKey(path: string): Buffer {
  try {
    const kept = Buffer.from(readFileSync(path, "utf8").trim(), "hex");
    if (kept.length === 32) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32);
  writeFileSync(path, `${secret.toString("hex")}\n`, { mode: 0o600 });
  return secret;
}
