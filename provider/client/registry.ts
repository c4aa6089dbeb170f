/**
 * Process-wide client state on `globalThis`, so every copy of this module (Pulumi deserializes
 * provider code, possibly several times per process) shares one set of throttles and queues.
 *
 * Throttles are per account: keyed by API URL + a SHA-256 fingerprint of the key (never the key).
 * Project queues and learned operation durations are per API URL: a project's lock and the
 * platform's speed are the same whichever key asks.
 */
import { createHash } from "node:crypto";
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
  const id = `${apiUrl}#${keyFingerprint(apiKey)}`;
  const reg = registry();
  let throttle = reg.throttles.get(id);
  if (throttle === undefined) {
    throttle = new Throttle();
    reg.throttles.set(id, throttle);
  }
  return throttle;
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
  const slot = `${limiterUrl}#${id}`;
  let limiter = reg.limiters.get(slot);
  if (limiter === undefined) {
    limiter = createSharedLimiter(
      limiterUrl,
      createHash("sha256").update(id).digest("hex").slice(0, 24),
      DEFAULT_RATE_LIMITS,
    );
    reg.limiters.set(slot, limiter);
  }
  return limiter;
}

/** The shared per-project queues for this URL. */
export function projectQueues(apiUrl: string): ProjectQueues {
  const reg = registry();
  let queues = reg.queues.get(apiUrl);
  if (queues === undefined) {
    queues = new ProjectQueues();
    reg.queues.set(apiUrl, queues);
  }
  return queues;
}

/** The operation durations learned for this URL. */
export function operationDurations(apiUrl: string): OperationDurations {
  const reg = registry();
  reg.durations ??= new Map();
  let durations = reg.durations.get(apiUrl);
  if (durations === undefined) {
    durations = new OperationDurations();
    reg.durations.set(apiUrl, durations);
  }
  return durations;
}

/** Forget all shared state (tests). */
export function resetRegistry(): void {
  delete (globalThis as unknown as Record<symbol, unknown>)[REGISTRY_KEY];
}
