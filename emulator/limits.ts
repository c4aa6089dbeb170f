// Rate limits as token buckets (docs/api-rules.md §3): 700 requests per minute per account,
// bursts of 40 per second per route, 10 per second for organization key creation.
// A request takes one token from every bucket that applies, or none when any is empty,
// and is then refused with 429 and `Retry-After` in whole seconds.

/** The three limits; all are per account. */
export interface LimitSettings {
  perMinute: number;
  perRoutePerSecond: number;
  orgKeyCreatePerSecond: number;
}

/** The real service's values. */
export const REAL_LIMITS: LimitSettings = {
  perMinute: 700,
  perRoutePerSecond: 40,
  orgKeyCreatePerSecond: 10,
};

/** The route the organization-key bucket applies to. */
export const ORG_KEY_CREATE_ROUTE = "POST /organizations/{org_id}/api_keys";

interface Bucket {
  tokens: number;
  updatedMs: number;
  capacity: number;
  perMs: number;
}

/** Result of a rate-limit check. */
export type LimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number; bucket: string };

/** Token buckets keyed by account, route and purpose; `now` is the time source they refill on. */
export class RateLimiter {
  readonly #settings: LimitSettings;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(settings: LimitSettings, now: () => number) {
    this.#settings = settings;
    this.#now = now;
  }

  /** Takes a token for `account` calling `route` ("METHOD /template"), or says how long to wait. */
  take(account: string, route: string): LimitVerdict {
    const now = this.#now();
    const wanted: Array<[string, Bucket]> = [
      [`account ${account}`, this.#bucket(`m|${account}`, this.#settings.perMinute, 60_000, now)],
      [`route ${route}`, this.#bucket(`r|${account}|${route}`, this.#settings.perRoutePerSecond, 1000, now)],
    ];
    if (route === ORG_KEY_CREATE_ROUTE) {
      wanted.push([
        "organization key creation",
        this.#bucket(`o|${account}`, this.#settings.orgKeyCreatePerSecond, 1000, now),
      ]);
    }
    let worst: { name: string; waitMs: number } | undefined;
    for (const [name, bucket] of wanted) {
      if (bucket.tokens >= 1) continue;
      const waitMs = (1 - bucket.tokens) / bucket.perMs;
      if (!worst || waitMs > worst.waitMs) worst = { name, waitMs };
    }
    if (worst)
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil(worst.waitMs / 1000)),
        bucket: worst.name,
      };
    for (const [, bucket] of wanted) bucket.tokens -= 1;
    return { ok: true };
  }

  /** Refills every bucket (e.g. between tests). */
  reset(): void {
    this.#buckets.clear();
  }

  #bucket(key: string, capacity: number, windowMs: number, now: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, updatedMs: now, capacity, perMs: capacity / windowMs };
      this.#buckets.set(key, bucket);
    }
    const elapsed = Math.max(0, now - bucket.updatedMs);
    bucket.tokens = Math.min(bucket.capacity, bucket.tokens + elapsed * bucket.perMs);
    bucket.updatedMs = now;
    return bucket;
  }
}
