import { compileRoutePattern } from "./route-pattern";

// The request log tests assert on: one entry per /api/v2 request, in arrival order.

/** One logged API request. */
export interface RequestLogEntry {
  method: string;
  /** "METHOD /template" with the OpenAPI parameter names, e.g. "POST /projects/{project_id}/branches". */
  route: string;
  /** The concrete path below /api/v2, without the query string, e.g. "/projects/hidden-river-50598307/branches". */
  path: string;
  query: string;
  /** HTTP status sent; 0 when a fault reset the connection. */
  status: number;
  /** Emulator clock time of arrival (epoch ms). */
  at: number;
  /** Wall-clock time the request took. */
  durationMs: number;
  requestId: string;
  /** The API key that authenticated the request. */
  keyId?: number;
  /** True when a scripted fault answered instead of the API. */
  faulted?: boolean;
}

/** Filters for `requests()`; all given fields must match. */
export interface RequestFilter {
  /** "*" or "METHOD /path" pattern, matched against the concrete path (`{name}` = any segment). */
  route?: string;
  method?: string;
  status?: number;
  keyId?: number;
  /** Only entries at or after this emulator time. */
  since?: number;
}

const MAX_ENTRIES = 200_000;

/** A bounded in-memory request log. */
export class RequestLog {
  #entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
  }

  /** Entries matching the filter, oldest first (copies). */
  list(filter: RequestFilter = {}): RequestLogEntry[] {
    const pattern = filter.route === undefined ? undefined : compileRoutePattern(filter.route);
    return this.#entries
      .filter(
        (e) =>
          (pattern === undefined || pattern.matches(e.method, e.path)) &&
          (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
          (filter.status === undefined || e.status === filter.status) &&
          (filter.keyId === undefined || e.keyId === filter.keyId) &&
          (filter.since === undefined || e.at >= filter.since),
      )
      .map((e) => ({ ...e }));
  }

  clear(): void {
    this.#entries = [];
  }
}
