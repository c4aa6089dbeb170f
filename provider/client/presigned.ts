/**
 * Bytes moved through a presigned URL (docs/api-rules.md §26): the URL the API's presign route
 * answers points at the branch's storage, not at the API, and carries its own signature, so the
 * request goes without the API key, the throttle or the request loop. got sends it; an upload with
 * got's own retry of network failures and 5xx (a PUT of the same bytes is safe to repeat).
 */
import { createHash } from "node:crypto";
import type { Got } from "got";
import { userAgent } from "./version";

/** A presigned request: its method, URL and the headers the presign answer says to send. */
export interface PresignedRequest {
  method: "PUT" | "GET";
  url: string;
  headers: Readonly<Record<string, string>>;
  /** What the transfer is of, for messages: `object docs/a.txt in bucket uploads`. */
  what: string;
  /** Epoch ms by which the transfer must be done. */
  deadline: number;
}

/** A presigned request the storage refused, or that got no answer. */
export class PresignedTransferError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status: number | undefined) {
    super(message);
    this.name = "PresignedTransferError";
    this.status = status;
  }
}

/** The shortest time a transfer is given, however close the deadline. */
const MIN_TIMEOUT_MS = 5_000;

/** Sends `body` with a presigned PUT; the storage's answer on failure, the URL's signature never shown. */
export async function putPresigned(request: PresignedRequest, body: Uint8Array): Promise<void> {
  await transfer(request, body);
}

/** The sha256 (hex) and size of what a presigned GET answers, hashed as it streams. */
export async function hashPresigned(request: PresignedRequest): Promise<{ sha256: string; size: number }> {
  const got = (require("got") as { default: Got }).default;
  const hash = createHash("sha256");
  let size = 0;
  try {
    const stream = got.stream(request.url, {
      method: "GET",
      headers: { ...request.headers, "user-agent": userAgent() },
      timeout: { request: timeoutOf(request) },
      // A stream is not retried: a read that fails is read again by the next refresh.
      retry: { limit: 0 },
      followRedirect: false,
    });
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      hash.update(bytes);
    }
  } catch (err) {
    throw failure(request, err);
  }
  return { sha256: hash.digest("hex"), size };
}

async function transfer(request: PresignedRequest, body: Uint8Array): Promise<void> {
  const got = (require("got") as { default: Got }).default;
  try {
    await got(request.url, {
      method: request.method,
      headers: { ...request.headers, "user-agent": userAgent() },
      body: Buffer.from(body),
      timeout: { request: timeoutOf(request) },
      retry: { limit: 2, methods: ["PUT", "GET"] },
      followRedirect: false,
      responseType: "text",
    });
  } catch (err) {
    throw failure(request, err);
  }
}

function timeoutOf(request: PresignedRequest): number {
  return Math.max(MIN_TIMEOUT_MS, request.deadline - Date.now());
}

/** The error of a failed transfer: the status and the storage's words, the URL without its query (its signature). */
function failure(request: PresignedRequest, err: unknown): PresignedTransferError {
  const response = (err as { response?: { statusCode?: number; body?: unknown } }).response;
  const status = response?.statusCode;
  const said = typeof response?.body === "string" ? response.body.trim().slice(0, 300) : "";
  const where = request.url.split("?")[0];
  const why =
    status === undefined ? (err as Error).message : `HTTP ${status}${said === "" ? "" : `: ${said}`}`;
  return new PresignedTransferError(
    `${request.method === "PUT" ? "uploading" : "downloading"} ${request.what} through its presigned URL (${where}) failed: ${why}`,
    status,
  );
}
