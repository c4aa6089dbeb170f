/**
 * The opt-in shared limiter: every process of every pipeline that names the same Redis or Valkey
 * server draws from one budget per account, so several `pulumi up`s on one account stay under the
 * API's limits together instead of each one learning them from 429s.
 *
 * The service keeps each limit as a token bucket (the emulator models it so, docs/api-rules.md §3):
 * `limit` tokens, refilled evenly over `window`, one taken per request, 429 when it is empty. The
 * server holds a copy of every bucket a request draws from, the account's and the route's, as the
 * time at which that bucket will be full again (GCRA). One Lua script, atomic and on the server's
 * clock, reserves an instant for a request in all its buckets at once: the earliest at which each
 * of them holds a token. The request sleeps until then and is sent. Nothing is taken from one
 * bucket while the request waits for another, so no point is ever held unused; and each request
 * has its own instant, so waiters never wake up as a burst.
 *
 * Margin, where the service's bucket is drained: a request reaches the service some time after its
 * instant (the first requests of a process are the slowest: connections, code run for the first
 * time). While the service's bucket is full, that delay wastes refill the copy would count on, and
 * the next requests would find it short. So the copy books each token as taken `LATE_MS` after its
 * instant: a request may arrive that late without harm. This costs `LATE_MS` once, after the first
 * burst that follows a quiet spell; the steady rate stays the limit itself. The copy also holds one
 * token fewer than the service's bucket, so no request depends on the service's last token.
 *
 * The server is optional infrastructure: if it cannot be reached, requests go on under the
 * process's own throttle and the client reports it once. `redis` is loaded only when a limiter URL
 * is set.
 */
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
/** How late after its instant a request may reach the service without draining the service's bucket. */
const LATE_MS = 700;

// Hand-written: rate-limiter-flexible counts fixed windows only, and no fixed window follows a token bucket.
// KEYS: the buckets' keys. ARGV: per bucket, the milliseconds between tokens, the tolerance (how far
// ahead of the steady schedule a request may go: the burst) and the lateness booked. Returns the wait in ms.
const RESERVE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local at = now
local full = {}
for i, key in ipairs(KEYS) do
  full[i] = math.max(now, tonumber(redis.call('GET', key) or '0'))
  at = math.max(at, full[i] - tonumber(ARGV[3 * i - 1]))
end
for i, key in ipairs(KEYS) do
  local next = math.max(full[i], at + tonumber(ARGV[3 * i])) + tonumber(ARGV[3 * i - 2])
  redis.call('SET', key, string.format('%.3f', next), 'PX', math.max(1, math.ceil(next - now)))
end
return math.ceil(at - now)
`;

/** One process's handle on the shared budget of one account. */
export interface SharedLimiter {
  /** Wait for the account's and the route's budget; resolves with the milliseconds waited. */
  acquire(method: string, template: string, emit: EventSink): Promise<number>;
  /** Close the connection (tests; processes exit without it, the socket does not hold them open). */
  close(): Promise<void>;
}

/** A limit as the script's arguments: milliseconds between tokens, the burst's tolerance, the lateness booked. */
function bucketArguments(rate: RateLimit): string[] {
  const limit = Math.max(1, Math.floor(rate.limit));
  const intervalMs = rate.windowMs / limit;
  const toleranceMs = (Math.max(1, limit - 1) - 1) * intervalMs;
  // Booking a token later than the tolerance reaches would slow the steady rate, not just the first burst.
  return [intervalMs, toleranceMs, Math.min(LATE_MS, toleranceMs)].map(String);
}

// A waiting request is work in progress: these timers keep the process alive, the socket does not.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * A limiter on the server at `url` for the account `account` (an opaque id: the API URL and a key
 * fingerprint, or a name shared by several keys of one account). Connects on first use.
 */
export function createSharedLimiter(url: string, account: string, limits: RateLimits): SharedLimiter {
  const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : "";
  const secrets = password === "" ? [] : [password];
  // Loaded here, not at import: without a limiter URL the package is never required.
  let redis: typeof import("redis");
  try {
    redis = require("redis");
  } catch {
    throw new ConfigError(
      `A shared limiter URL is set (clouddb:limiterUrl or ${LIMITER_URL_ENV}), but its package is not installed: run \`npm install redis\` in the program's folder, or unset the URL.`,
    );
  }

  const client = redis.createClient({
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

  // The hash tag keeps an account's keys in one slot, so the script may touch them together on a cluster.
  const keyOf = (name: string) => `clouddb:{${account}}:${name}`;
  const accountArguments = bucketArguments(limits.account);

  let inFlight = 0;
  let reportedDown = false;
  const reportDown = (emit: EventSink, error: unknown) => {
    if (reportedDown) return;
    reportedDown = true;
    const reason = error instanceof Error ? error.message : String(error);
    emit({ type: "limiter-unavailable", reason: redactSecrets(reason, secrets) });
  };

  /** Reserve the route's and the account's next common instant; resolves with the wait until it. */
  const reserve = async (routeKey: string): Promise<number> => {
    const reply = await client.eval(RESERVE_SCRIPT, {
      keys: [keyOf(`route ${routeKey}`), keyOf("account")],
      arguments: [...bucketArguments(limits.routes[routeKey] ?? limits.route), ...accountArguments],
    });
    if (typeof reply !== "number") throw new Error(`the limiter server answered ${typeof reply}, not a wait`);
    return reply;
  };

  return {
    async acquire(method, template, emit) {
      const started = Date.now();
      // The socket holds the process open only while a request waits on the server.
      if (inFlight++ === 0 && client.isOpen) client.ref();
      let waitMs: number;
      try {
        await connected();
        waitMs = await reserve(`${method.toUpperCase()} ${template}`);
      } catch (error) {
        if (!client.isReady) downUntil = Math.max(downUntil, Date.now() + RECHECK_MS);
        reportDown(emit, error);
        return Date.now() - started;
      } finally {
        if (--inFlight === 0 && client.isOpen) client.unref();
      }
      await sleep(waitMs);
      return Date.now() - started;
    },
    async close() {
      if (connecting === undefined) return;
      await connecting.catch(() => undefined);
      if (client.isOpen) await client.quit();
    },
  };
}
