/**
 * Process-wide client state on `globalThis`, so every copy of this module (Pulumi deserializes
 * provider code, possibly several times per process) shares one set of throttles and queues.
 *
 * Throttles are per account: keyed by API URL + a SHA-256 fingerprint of the key (never the key).
 * Project queues and learned operation durations are per API URL: a project's lock and the
 * platform's speed are the same whichever key asks.
 */
import { createHash } from "node:crypto";
import { ListingCache } from "./listing-cache";
import { ProjectQueues } from "./queue";
import { createSharedLimiter, type SharedLimiter } from "./shared-limiter";
import { DEFAULT_RATE_LIMITS, Throttle } from "./throttle";
import { OperationDurations } from "./wait";

/** The `globalThis` slot. Bump the version if the stored shapes change incompatibly. */
export const REGISTRY_KEY: unique symbol = Symbol.for("pulumi-clouddb.registry.v1") as never;

/** What the registry holds. */
export interface Registry {
  throttles: Map<string, Throttle>;
  queues: Map<string, ProjectQueues>;
  durations: Map<string, OperationDurations>;
  /** Shared limiters, keyed by server URL + account (created only when a limiter URL is set). */
  limiters?: Map<string, SharedLimiter>;
  /** Cached listings, per account (what a key can list depends on the key). */
  listings?: Map<string, ListingCache>;
}

/** First 16 hex chars of SHA-256 of the key: enough to tell keys apart, useless to an attacker. */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

/** The registry, created on first use. */
export function registry(): Registry {
  const slot = globalThis as unknown as Record<symbol, Registry | undefined>;
  let reg = slot[REGISTRY_KEY];
  if (reg === undefined) {
    reg = { throttles: new Map(), queues: new Map(), durations: new Map() };
    slot[REGISTRY_KEY] = reg;
  }
  return reg;
}

/** The shared throttle for this URL + key. */
export function accountThrottle(apiUrl: string, apiKey: string): Throttle {
  return slotOf(registry().throttles, `${apiUrl}#${keyFingerprint(apiKey)}`, () => new Throttle());
}

/** The listing cache of this URL + key. */
export function accountListingCache(apiUrl: string, apiKey: string): ListingCache {
  const reg = registry();
  reg.listings ??= new Map();
  return slotOf(reg.listings, `${apiUrl}#${keyFingerprint(apiKey)}`, () => new ListingCache());
}

/** `map`'s entry for `id`, made by `make` on first use. */
function slotOf<T>(map: Map<string, T>, id: string, make: () => T): T {
  let value = map.get(id);
  if (value === undefined) {
    value = make();
    map.set(id, value);
  }
  return value;
}

/**
 * The shared limiter on the server at `limiterUrl` for this account: `account` when several keys of
 * one account should share a budget, else the API URL and the key's fingerprint.
 */
export function accountSharedLimiter(
  limiterUrl: string,
  apiUrl: string,
  apiKey: string,
  account?: string | undefined,
): SharedLimiter {
  const id = account ?? `${apiUrl}#${keyFingerprint(apiKey)}`;
  const reg = registry();
  reg.limiters ??= new Map();
  return slotOf(reg.limiters, `${limiterUrl}#${id}`, () =>
    createSharedLimiter(
      limiterUrl,
      createHash("sha256").update(id).digest("hex").slice(0, 24),
      DEFAULT_RATE_LIMITS,
    ),
  );
}

/** The shared per-project queues for this URL. */
export function projectQueues(apiUrl: string): ProjectQueues {
  return slotOf(registry().queues, apiUrl, () => new ProjectQueues());
}

/** The operation durations learned for this URL. */
export function operationDurations(apiUrl: string): OperationDurations {
  const reg = registry();
  reg.durations ??= new Map();
  return slotOf(reg.durations, apiUrl, () => new OperationDurations());
}

/** Forget all shared state (tests). */
export function resetRegistry(): void {
  delete (globalThis as unknown as Record<symbol, unknown>)[REGISTRY_KEY];
}
