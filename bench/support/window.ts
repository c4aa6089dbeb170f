// The span of one route's requests in the emulator's request log.
import type { RequestLogEntry } from "../../emulator";

/** When `route`'s requests ran: the first one's arrival to the last successful response, and how many succeeded. */
export interface RouteWindow {
  first: number;
  last: number;
  spanMs: number;
  ok: number;
}

/** The window of `route` in `log` (NaN span when no request of it succeeded). */
export function routeWindow(log: readonly RequestLogEntry[], route: string): RouteWindow {
  const requests = log.filter((r) => r.route === route);
  const ok = requests.filter((r) => r.status >= 200 && r.status < 300);
  const first = Math.min(...requests.map((r) => r.at));
  const last = Math.max(...ok.map((r) => r.at + r.durationMs));
  return { first, last, spanMs: last - first, ok: ok.length };
}
