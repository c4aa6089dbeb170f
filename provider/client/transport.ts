/**
 * The seam between the request loop and the wire: one attempt in, one response (any status) out,
 * or a `TransportFailure` when no response arrived. `http.ts` implements it with got; tests may pass
 * their own through `ClientOptions.transport`.
 */

/** Methods the client uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One attempt. `path` starts with `/` and is relative to the API URL. */
export interface TransportRequest {
  method: HttpMethod;
  path: string;
  query: Readonly<Record<string, string>>;
  /** Per-request headers (`x-request-id`); auth and content negotiation are the transport's job. */
  headers: Readonly<Record<string, string>>;
  /** JSON body, if any. */
  json?: unknown;
  /** A multipart/form-data body (a function's deployment), if any; never with `json`. */
  form?: FormData;
  /** Abort the attempt after this long. */
  timeoutMs: number;
}

/** A response of any status, body as text (parsing is the request loop's job). */
export interface TransportResponse {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}

/** Performs one attempt. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

const FAILURE_MARKER: unique symbol = Symbol.for("pulumi-clouddb.transport-failure") as never;

/** No response arrived (reset, refused, DNS, timeout). `code` is the system code, e.g. `ECONNRESET`. */
export class TransportFailure extends Error {
  readonly [FAILURE_MARKER] = true as const;
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "TransportFailure";
    this.code = code;
  }
}

/** Marker-based check (module copies make `instanceof` unreliable). */
export function isTransportFailure(e: unknown): e is TransportFailure {
  return typeof e === "object" && e !== null && (e as Record<PropertyKey, unknown>)[FAILURE_MARKER] === true;
}
