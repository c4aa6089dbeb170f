/**
 * The per-call context: options resolved against the environment (now, not at import), the shared
 * throttle and queues for this account, and the transport.
 */
import { type ConfigInput, resolveConfig, resolveLimiter } from "./config";
import { type ClientEvent, type EventSink, safeSink } from "./events";
import { createGotTransport } from "./http";
import type { ProjectQueues } from "./queue";
import {
  accountListingCache,
  accountSharedLimiter,
  accountThrottle,
  keyFingerprint,
  operationDurations,
  projectQueues,
} from "./registry";
import type { RequestContext } from "./request";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import type { Transport } from "./transport";
import { DEFAULT_POLL_INTERVAL, type OperationDurations, type PollInterval } from "./wait";

/** Options of `createClient`. Everything is optional; the key and URL fall back to the environment. */
export interface ClientOptions extends ConfigInput {
  /** Overrides of the retry policy, e.g. `{ lockedAttempts: 8, lockedBaseMs: 50 }`. */
  retry?: Partial<RetryPolicy> | undefined;
  /** Timeout of one HTTP attempt in ms (default 30000). */
  attemptTimeoutMs?: number | undefined;
  /** Operation polling: first poll after `first` ms, doubling to `max` (default 250 / 5000). */
  pollIntervalMs?: PollInterval | undefined;
  /** Time polls by operation running times learned in the process (default true); false backs off blindly. */
  learnDurations?: boolean | undefined;
  /** Client-side rate limiting (default true). */
  throttle?: boolean | undefined;
  /**
   * A Redis or Valkey server (`redis://host:port`) whose budget every process of the account shares;
   * default `CLOUDDB_LIMITER_URL`, else none. Only used while `throttle` is on.
   */
  limiterUrl?: string | undefined;
  /** The budget's name on that server when several keys belong to one account; default `CLOUDDB_LIMITER_ACCOUNT`, else per key. */
  limiterAccount?: string | undefined;
  /** Per-project serialization of mutating calls (default true). */
  queue?: boolean | undefined;
  /**
   * Bound in ms from each call on everything it does, when neither `deadline` nor the call sets one
   * (default 20 minutes): waiting out 429s and 423s, queues and operation waits.
   */
  timeoutMs?: number | undefined;
  /** Epoch ms bound of every call of this client that sets none (a resource step's deadline); overrides `timeoutMs`. */
  deadline?: number | undefined;
  /** Listener for retries, throttling, queueing and operation progress; never sees a key. */
  onEvent?: ((event: ClientEvent) => void) | undefined;
  /** Replaces the got transport (tests, instrumentation). */
  transport?: Transport | undefined;
  /** Source of retry jitter in [0, 1) (tests); `Math.random` by default. */
  random?: (() => number) | undefined;
}

/** Default timeout of one HTTP attempt. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
/** Default bound of one call: a mutation with its operation wait, or a request waiting out a rate limit. */
export const DEFAULT_TIMEOUT_MS = 20 * 60_000;

/** What a route function (`api/*.ts`) works with. */
export interface ClientContext {
  request: RequestContext;
  /** Undefined when `queue: false`. */
  queues: ProjectQueues | undefined;
  pollIntervalMs: PollInterval;
  /** Learned operation running times, shared in the process; undefined when polling is fixed. */
  durations: OperationDurations | undefined;
  timeoutMs: number;
  /** Epoch ms by which this call is done: the client's `deadline`, else `timeoutMs` from the call. */
  deadline: number;
  emit: EventSink;
}

/** `ctx` bound by `deadline`: its requests and waits stop there. */
export function withDeadline(ctx: ClientContext, deadline: number): ClientContext {
  return { ...ctx, deadline, request: { ...ctx.request, deadline } };
}

/** Builds contexts for one client; caches one transport per URL + key fingerprint. */
export function contextFactory(options: ClientOptions): () => ClientContext {
  const transports = new Map<string, Transport>();
  const emit = safeSink(options.onEvent);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  return () => {
    const config = resolveConfig({ apiKey: options.apiKey, apiUrl: options.apiUrl });
    const limiter = options.throttle === false ? undefined : resolveLimiter(options);
    const id = `${config.apiUrl}#${keyFingerprint(config.apiKey)}`;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = options.deadline ?? Date.now() + timeoutMs;
    let transport = options.transport ?? transports.get(id);
    if (transport === undefined) {
      transport = createGotTransport(config);
      transports.set(id, transport);
    }
    return {
      request: {
        apiUrl: config.apiUrl,
        transport,
        throttle: options.throttle === false ? undefined : accountThrottle(config.apiUrl, config.apiKey),
        sharedLimiter:
          limiter === undefined
            ? undefined
            : accountSharedLimiter(limiter.url, config.apiUrl, config.apiKey, limiter.account),
        policy,
        attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
        emit,
        secrets: [config.apiKey],
        random: options.random,
        listingCache: accountListingCache(config.apiUrl, config.apiKey),
        deadline,
      },
      queues: options.queue === false ? undefined : projectQueues(config.apiUrl),
      pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL,
      durations: options.learnDurations === false ? undefined : operationDurations(config.apiUrl),
      timeoutMs,
      deadline,
      emit,
    };
  };
}
