/**
 * The public surface of the client: `createClient(options)` and the types, schemas, error helpers and
 * policy functions others code against.
 *
 * `createClient` is cheap and holds no connection: the key and URL are resolved on every call (explicit
 * options, else CLOUDDB_API_KEY / CLOUDDB_API_URL), and throttles and project queues live in the
 * process-wide registry. In Pulumi dynamic providers, `require()` this module inside the provider
 * methods rather than capturing a client at module level, so no credential is serialized.
 */

import { type ClientOptions, contextFactory } from "./context";
import { bindRoutes, type Methods } from "./route";
import { ROUTE_MODULES } from "./routes";

type RouteModules = typeof ROUTE_MODULES;

/** `A | B` as `A & B`. */
type UnionToIntersection<U> = (U extends unknown ? (member: U) => void : never) extends (
  intersection: infer I,
) => void
  ? I
  : never;

/** Every route of the client: each export of a route module is one client method of the same name. */
// Object.assign copies every export of every module, which is what the type says.
const ROUTES = Object.assign({}, ...Object.values(ROUTE_MODULES)) as UnionToIntersection<
  RouteModules[keyof RouteModules]
>;

/** The client's methods, one per route, each with its route module's parameters and doc. */
type RouteMethods = UnionToIntersection<
  { [K in keyof RouteModules]: Methods<RouteModules[K]> }[keyof RouteModules]
>;

/** The listings a refresh reads objects from, through the listing cache. */
const CACHED = [
  "listApiKeys",
  "listOrgApiKeys",
  "listBranches",
  "listEndpoints",
  "listRoles",
  "listDatabases",
  "listProjectPermissions",
  "listSnapshots",
] as const;

/**
 * The listings a refresh reads objects from, each answer reused by identical listings asked for
 * while it is in flight or within a few seconds after, until this process changes something
 * (`listing-cache.ts`). The arrays are reused: do not modify them.
 */
export type CachedListings = {
  [K in keyof Pick<RouteMethods, (typeof CACHED)[number]>]: (
    ...args: Parameters<RouteMethods[K]>
  ) => Promise<Readonly<Awaited<ReturnType<RouteMethods[K]>>>>;
};

/**
 * A client of the Cloud Database Control API v2: one method per route of `api/`, documented there.
 * Every method rejects with an `ApiError` on failure (a `UsageError` for the configuration or an
 * argument).
 */
export type CloudDbClient = RouteMethods & {
  /** Listings for refresh, through the listing cache of this account. */
  cached: CachedListings;
};

/** Create a client. Cheap; shares throttles and project queues with every other client in the process. */
export function createClient(options: ClientOptions = {}): CloudDbClient {
  const context = contextFactory(options);
  const methods: RouteMethods = bindRoutes(context, ROUTES);
  const cached: Record<string, (...args: string[]) => Promise<unknown>> = {};
  for (const name of CACHED) {
    // Each cached name is a listing method whose arguments are ids.
    const list = methods[name] as (...args: string[]) => Promise<unknown>;
    cached[name] = async (...args) => {
      const cache = context().request.listingCache;
      return cache === undefined ? list(...args) : cache.get([name, ...args].join(" "), () => list(...args));
    };
  }
  // The loop gives every name of CACHED its listing.
  return { ...methods, cached: cached as CachedListings };
}

export type { ListOperationsOptions, WaitOptions } from "./api/operations";
export type { ConnectionUriQuery, ListProjectsQuery, ProjectListing } from "./api/projects";
export {
  API_KEY_ENV,
  API_URL_ENV,
  type ConfigInput,
  DEFAULT_API_URL,
  normalizeApiUrl,
  type ResolvedConfig,
  resolveConfig,
} from "./config";
export { type ClientOptions, DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from "./context";
export * from "./errors";
export type { ClientEvent } from "./events";
export { preloadTransport } from "./http";
export type { MutationOptions } from "./mutation";
export { type ApiRoute, apiRoute } from "./path";
export { redactSecrets } from "./redact";
export { keyFingerprint, resetRegistry } from "./registry";
export {
  boundedRetryAfter,
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  RETRY_RULES,
  type RetryDecision,
  type RetryDelayInput,
  type RetryFailure,
  type RetryPolicy,
  type RetryRule,
} from "./retry";
export * from "./schemas";
export { DEFAULT_RATE_LIMITS, type RateLimit, type RateLimits } from "./throttle";
export {
  type HttpMethod,
  isTransportFailure,
  type Transport,
  TransportFailure,
  type TransportRequest,
  type TransportResponse,
} from "./transport";
export {
  DEFAULT_POLL_INTERVAL,
  DONE_STATUSES,
  FAILED_STATUSES,
  isOperationTerminal,
  type PollInterval,
} from "./wait";
