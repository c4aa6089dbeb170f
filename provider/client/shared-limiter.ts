/**
 * The opt-in shared limiter: every process of every pipeline that names the same Redis or Valkey
 * server draws from one budget per account, so several `pulumi up`s on one account stay under the
 * API's limits together instead of each one learning them from 429s.
 *
 * Counting is `rate-limiter-flexible` (atomic increment-with-expiry in the server). Each limit of
 * `limit` requests per `window` becomes fixed slots of half the window holding half the limit: any
 * span then holds at most `limit` plus the refill the service's own token bucket grants, so the
 * slots never overrun it (a whole-window slot would allow two full windows back to back at a
 * boundary). A request takes a point from its route's slot, then from the account's; a point taken
 * and not used is given back. When a slot is full the request waits for the next one.
 *
 * The server is optional infrastructure: if it cannot be reached, requests go on under the
 * process's own throttle and the client reports it once. `redis` and `rate-limiter-flexible` are
 * loaded only when a limiter URL is set.
 */
import type { RateLimiterRedis } from "rate-limiter-flexible";
import type { RedisClientType } from "redis";
import { LIMITER_URL_ENV } from "./config";
import { ConfigError } from "./errors";
import type { EventSink } from "./events";
import { redactSecrets } from "./redact";
import type { RateLimit, RateLimits } from "./throttle";

/** How long a request waits for the limiter's server before going on without it. */
const SERVER_TIMEOUT_MS = 2_000;
/** After the server failed, requests go on without it for this long before it is tried again. */
const RECHECK_MS = 30_000;
/** Spread of the wake-ups of requests waiting for the same slot, so they do not arrive as one burst. */
const WAKE_SPREAD_MS = 15;

/** One process's handle on the shared budget of one account. */
export interface SharedLimiter {
  /** Wait for a point of the account's and the route's budget; resolves with the milliseconds waited. */
  acquire(method: string, template: string, emit: EventSink): Promise<number>;
  /** Close the connection (tests; processes exit without it, the socket does not hold them open). */
  close(): Promise<void>;
}

interface Slotted {
  limiter: RateLimiterRedis;
  slotMs: number;
}

// A waiting request is work in progress: these timers keep the process alive, the socket does not.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** True for `rate-limiter-flexible`'s "no points left" answer, as opposed to a server failure. */
function isRejection(error: unknown): boolean {
  return typeof error === "object" && error !== null && "msBeforeNext" in error && !(error instanceof Error);
}

/**
 * A limiter on the server at `url` for the account `account` (an opaque id: the API URL and a key
 * fingerprint, or a name shared by several keys of one account). Connects on first use.
 */
export function createSharedLimiter(url: string, account: string, limits: RateLimits): SharedLimiter {
  const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : "";
  const secrets = password === "" ? [] : [password];
  // Loaded here, not at import: without a limiter URL neither package is ever required.
  let redis: typeof import("redis");
  let flexible: typeof import("rate-limiter-flexible");
  try {
    redis = require("redis");
    flexible = require("rate-limiter-flexible");
  } catch {
    throw new ConfigError(
      `A shared limiter URL is set (clouddb:limiterUrl or ${LIMITER_URL_ENV}), but its packages are not installed: run \`npm install redis rate-limiter-flexible\` in the program's folder, or unset the URL.`,
    );
  }
  const { createClient } = redis;
  const { RateLimiterRedis } = flexible;

  const client = createClient({
    url,
    // No reconnect loop of its own: `connected()` decides when to try the server again.
    socket: { connectTimeout: SERVER_TIMEOUT_MS, reconnectStrategy: false },
    disableOfflineQueue: true,
  }) as RedisClientType;
  client.on("error", () => {
    // Reported through `emit` on the request that meets it; a listener must exist or node-redis throws.
  });
  let connecting: Promise<unknown> | undefined;
  let downUntil = 0;
  /** Connected, or throws at once while the server is known to be down (retried after a pause). */
  const connected = async (): Promise<void> => {
    if (client.isReady) return;
    if (Date.now() < downUntil) throw new Error("the limiter server was unreachable moments ago");
    connecting ??= client.connect().then(() => (inFlight === 0 ? client.unref() : client.ref()));
    try {
      await Promise.race([
        connecting,
        sleep(SERVER_TIMEOUT_MS).then(() => {
          throw new Error(`no answer from the limiter server within ${SERVER_TIMEOUT_MS} ms`);
        }),
      ]);
    } catch (error) {
      connecting = undefined;
      downUntil = Date.now() + RECHECK_MS;
      if (client.isOpen) void client.disconnect().catch(() => undefined);
      throw error;
    }
  };

  const buckets = new Map<string, Slotted>();
  const bucket = (name: string, rate: RateLimit): Slotted => {
    let slotted = buckets.get(name);
    if (slotted === undefined) {
      const slotMs = Math.max(1, Math.floor(rate.windowMs / 2));
      slotted = {
        slotMs,
        limiter: new RateLimiterRedis({
          storeClient: client,
          useRedisPackage: true,
          keyPrefix: `clouddb:${account}:${name}`,
          points: Math.max(1, Math.floor(rate.limit / 2)),
          // The key outlives its slot a little; the slot itself is in the key.
          duration: Math.ceil((2 * slotMs) / 1000),
        }),
      };
      buckets.set(name, slotted);
    }
    return slotted;
  };

  let inFlight = 0;
  let reportedDown = false;
  const reportDown = (emit: EventSink, error: unknown) => {
    if (reportedDown) return;
    reportedDown = true;
    const reason = error instanceof Error ? error.message : String(error);
    emit({ type: "limiter-unavailable", reason: redactSecrets(reason, secrets) });
  };

  /** Take a point in the current slot of `b`; resolves false when the slot is full. */
  const take = async (b: Slotted): Promise<{ ok: boolean; key: string; retryAt: number }> => {
    const now = Date.now();
    const slot = Math.floor(now / b.slotMs);
    const key = String(slot);
    try {
      await b.limiter.consume(key);
      return { ok: true, key, retryAt: now };
    } catch (error) {
      if (!isRejection(error)) throw error;
      return { ok: false, key, retryAt: (slot + 1) * b.slotMs };
    }
  };

  return {
    async acquire(method, template, emit) {
      const started = Date.now();
      // The socket holds the process open only while a request waits on the server.
      if (inFlight++ === 0 && client.isOpen) client.ref();
      const routeKey = `${method.toUpperCase()} ${template}`;
      const route = bucket(`route ${routeKey}`, limits.routes[routeKey] ?? limits.route);
      const account = bucket("account", limits.account);
      try {
        await connected();
        for (;;) {
          const r = await take(route);
          if (!r.ok) {
            await sleep(r.retryAt - Date.now() + Math.random() * WAKE_SPREAD_MS);
            continue;
          }
          const a = await take(account);
          if (a.ok) return Date.now() - started;
          // The route's point would go unused while this request waits for the account: give it back.
          await route.limiter.reward(r.key);
          await sleep(a.retryAt - Date.now() + Math.random() * WAKE_SPREAD_MS);
        }
      } catch (error) {
        if (!client.isReady) downUntil = Math.max(downUntil, Date.now() + RECHECK_MS);
        reportDown(emit, error);
        return Date.now() - started;
      } finally {
        if (--inFlight === 0 && client.isOpen) client.unref();
      }
    },
    async close() {
      if (connecting === undefined) return;
      await connecting.catch(() => undefined);
      if (client.isOpen) await client.quit();
    },
  };
}
