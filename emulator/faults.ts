import { defaultMessage } from "./errors";
import { compileRoutePattern, type RoutePattern } from "./route-pattern";

// Scripted responses for the next N requests matching a route, for reliability tests:
// any status and body, HTML bodies (gateway pages), Retry-After, added latency, a reset
// connection, or a delay before the real handler runs.

/** What a scripted fault does. */
export interface FaultResponse {
  /** HTTP status; default 500 (or 524 with `html`). */
  status?: number;
  /** JSON body; default the API's error shape `{request_id, code, message}`. */
  body?: unknown;
  /** Sent as `text/html` instead of JSON, like a gateway error page. */
  html?: string;
  headers?: Record<string, string>;
  /** `Retry-After` value: seconds or an HTTP date. */
  retryAfter?: number | string;
  /** Latency added before answering (wall time). */
  delayMs?: number;
  /** Destroys the connection without an answer. */
  reset?: boolean;
  /** Only adds `delayMs`, then the real handler answers. */
  passThrough?: boolean;
  /**
   * Runs the real handler first (the change is made), then answers with this fault instead of its
   * success (`reset`, a status and body, or a string body such as truncated JSON): a response lost
   * on the way back. Does nothing when the handler itself fails.
   */
  afterHandler?: boolean;
  /**
   * Runs the real handler first (the change is made), then holds its success this long before
   * sending it: an answer slow on the way back, during which the client may be killed.
   */
  holdMs?: number;
}

interface Fault {
  pattern: RoutePattern;
  response: FaultResponse;
  remaining: number;
}

/** The queue of scripted faults, first registered first served. */
export class FaultQueue {
  #faults: Fault[] = [];

  /** Scripts `response` for the next `count` requests matching `route` ("*" or "METHOD /path"). */
  add(route: string, response: FaultResponse, count = 1): void {
    if (!(Number.isInteger(count) && count >= 1))
      throw new RangeError("failNext: count must be an integer >= 1");
    if (
      response.status !== undefined &&
      !(Number.isInteger(response.status) && response.status >= 100 && response.status <= 599)
    ) {
      throw new RangeError(`failNext: status must be an HTTP status, got ${String(response.status)}`);
    }
    this.#faults.push({ pattern: compileRoutePattern(route), response, remaining: count });
  }

  /** Takes the first fault matching the request, if any. */
  take(method: string, path: string): FaultResponse | undefined {
    const index = this.#faults.findIndex((f) => f.pattern.matches(method, path));
    if (index < 0) return undefined;
    const fault = this.#faults[index] as Fault;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault.response;
  }

  /** Number of scripted responses still pending. */
  pending(): number {
    return this.#faults.reduce((n, f) => n + f.remaining, 0);
  }

  /** Drops every scripted fault. */
  clear(): void {
    this.#faults = [];
  }
}

/** A scripted fault as an HTTP answer. */
export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  payload: string;
}

/**
 * The one rendering of a scripted fault, before or after the handler: its status (`fallback`
 * unless given; 524 for HTML pages), headers with `Retry-After`, and its body (HTML, the given
 * JSON, or the API's error shape with the request id).
 */
export function renderFault(fault: FaultResponse, requestId: string, fallback: number): FaultAnswer {
  const status = fault.status ?? (fault.html !== undefined ? 524 : fallback);
  const headers: Record<string, string> = { ...(fault.headers ?? {}) };
  if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
  if (fault.html !== undefined) {
    return { status, headers, contentType: "text/html; charset=utf-8", payload: fault.html };
  }
  const json = "application/json; charset=utf-8";
  if (fault.body !== undefined) {
    return {
      status,
      headers,
      contentType: json,
      payload: typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body),
    };
  }
  return {
    status,
    headers,
    contentType: json,
    payload: JSON.stringify({ request_id: requestId, code: "", message: defaultMessage(status) }),
  };
}
