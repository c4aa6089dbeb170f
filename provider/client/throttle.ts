/**
 * Client-side rate limiting, shared by everything in the process that uses one account.
 *
 * Each limit is a bucket of `limit` tokens where a token spent at time t comes back at t + window, so
 * no window of that length ever holds more than `limit` requests: the API's documented limits are never
 * exceeded, whatever the server's own accounting is. A request takes a token from the account bucket
 * and from its route bucket (method + path template).
 *
 * A 429 slows only the limit that answered it: the route's bucket is halved for a while and paused for
 * the (already bounded) Retry-After time; each later 429 after that pause halves it again. The account's bucket is slowed too only when the evidence
 * says the account limit answered: 429s on two different routes close together. Waiters are served in
 * the order their logical request first asked, so a retry never queues behind later work.
 */

/** A limit: at most `limit` requests in any `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** The limits, as data. */
export interface RateLimits {
  /** 700 requests per minute per account (docs/api-rules.md §3). */
  account: RateLimit;
  /** Bursts of 40 requests per second per route (docs/api-rules.md §3). */
  route: RateLimit;
  /** Routes with their own limit, keyed `METHOD /template`. */
  routes: Readonly<Record<string, RateLimit>>;
}

/** The API's documented limits (docs/api-rules.md §3). */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({
  account: { limit: 700, windowMs: 60_000 },
  route: { limit: 40, windowMs: 1_000 },
  routes: Object.freeze({
    // Organization key creation is limited to 10 requests per second (docs/api-rules.md §3).
    "POST /organizations/{org_id}/api_keys": { limit: 10, windowMs: 1_000 },
  }),
});

/** How far a bucket may be slowed: its limit is divided by 2 per 429, at most this many times. */
const MAX_PENALTY_LEVEL = 3;
/** Pause after a 429 without Retry-After. */
const DEFAULT_PAUSE_MS = 1_000;
/** 429s on two different routes within this span point at the account's limit, not a route's. */
const ACCOUNT_EVIDENCE_MS = 2_000;

/** One bucket: tokens spent at t return at t + window. */
export class WindowBucket {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  private readonly spent: number[] = [];
  private penaltyLevel = 0;
  private penaltyAt = 0;
  private pausedUntil = 0;

  constructor(name: string, rate: RateLimit) {
    this.name = name;
    this.limit = Math.max(1, Math.floor(rate.limit));
    this.windowMs = rate.windowMs;
  }

  private level(now: number): number {
    if (this.penaltyLevel === 0) return 0;
    // Each quiet window after the pause of the last 429 restores one halving.
    const quietWindows = Math.max(0, Math.floor((now - this.penaltyAt) / this.windowMs));
    return Math.max(0, this.penaltyLevel - quietWindows);
  }

  /** The limit in force at `now` (lower for a while after a 429). */
  effectiveLimit(now: number): number {
    return Math.max(1, Math.floor(this.limit / 2 ** this.level(now)));
  }

  private prune(now: number): void {
    while (this.spent.length > 0 && (this.spent[0] as number) + this.windowMs <= now) this.spent.shift();
  }

  /**
   * Earliest time (>= now) a token can be taken: never more than `limit` in any window, and while
   * slowed after a 429, tokens evenly paced at the lowered limit. The lowered limit is a pace, not
   * a count over the whole window: counted over the window, a process that had just spent its
   * window would wait out most of it (up to a minute for the account), and every process of the
   * account, slowed by the same refusals, would go quiet at once.
   */
  nextFreeAt(now: number): number {
    this.prune(now);
    let at = Math.max(now, this.pausedUntil);
    const spent = this.spent.length;
    if (spent >= this.limit) at = Math.max(at, (this.spent[spent - this.limit] as number) + this.windowMs);
    if (this.level(now) > 0 && spent > 0) {
      at = Math.max(at, (this.spent[spent - 1] as number) + this.windowMs / this.effectiveLimit(now));
    }
    return at;
  }

  /** Spend one token at `now` (call only when `nextFreeAt(now) <= now`). */
  take(now: number): void {
    this.spent.push(now);
  }

  /**
   * React to a 429: halve the limit (recovering one step per quiet window) and pause for `pauseMs`.
   * A 429 answered while the pause of an earlier one runs was sent before that slowdown took effect:
   * it extends the pause but halves nothing more, so one burst of refusals counts as one.
   */
  slowDown(now: number, pauseMs: number | undefined): void {
    const earlier = now < this.pausedUntil;
    if (!earlier) this.penaltyLevel = Math.min(MAX_PENALTY_LEVEL, this.level(now) + 1);
    this.pausedUntil = Math.max(this.pausedUntil, now + (pauseMs ?? DEFAULT_PAUSE_MS));
    this.penaltyAt = this.pausedUntil;
  }

  /** Tokens spent in the current window (for tests and diagnostics). */
  inUse(now: number): number {
    this.prune(now);
    return this.spent.length;
  }
}

interface Waiter {
  buckets: WindowBucket[];
  /** When the waiter's logical request first asked: the serving order. */
  since: number;
  /** Not served before this time (a retry's backoff); what `waitedMs` counts from. */
  notBefore: number;
  resolve: (waitedMs: number) => void;
}

/** The throttle of one account: the account bucket plus one bucket per route. */
export class Throttle {
  readonly limits: RateLimits;
  readonly account: WindowBucket;
  private readonly routes = new Map<string, WindowBucket>();
  private waiters: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** The route and time of the latest 429, the evidence for an account-wide limit. */
  private last429: { route: string; at: number } | undefined;

  constructor(limits: RateLimits = DEFAULT_RATE_LIMITS) {
    this.limits = limits;
    this.account = new WindowBucket("account", limits.account);
  }

  /** The bucket of `METHOD /template`. */
  routeBucket(method: string, template: string): WindowBucket {
    const key = `${method.toUpperCase()} ${template}`;
    let bucket = this.routes.get(key);
    if (bucket === undefined) {
      bucket = new WindowBucket(key, this.limits.routes[key] ?? this.limits.route);
      this.routes.set(key, bucket);
    }
    return bucket;
  }

  /**
   * Wait for a token on the account and the route, not before `notBefore` (a retry's backoff); resolves
   * with the milliseconds waited beyond that. Waiters are served by `since` (when their logical request
   * first asked; now by default), so a retry that waits here keeps its place ahead of later work.
   */
  acquire(
    method: string,
    template: string,
    { since = Date.now(), notBefore = Date.now() }: { since?: number; notBefore?: number } = {},
  ): Promise<number> {
    const buckets = [this.account, this.routeBucket(method, template)];
    return new Promise<number>((resolve) => {
      const waiter: Waiter = { buckets, since, notBefore: Math.max(notBefore, Date.now()), resolve };
      const later = this.waiters.findIndex((w) => w.since > since);
      if (later === -1) this.waiters.push(waiter);
      else this.waiters.splice(later, 0, waiter);
      this.pump();
    });
  }

  /**
   * After a 429 on this route: slow down and pause the route's bucket for `pauseMs` (bounded by the
   * caller). The account's bucket too when another route had a 429 just before: then the account's
   * limit is what answered. Says which limit it slowed.
   */
  penalize(method: string, template: string, pauseMs: number | undefined): "route" | "account" {
    const now = Date.now();
    const route = `${method.toUpperCase()} ${template}`;
    const accountWide =
      this.last429 !== undefined &&
      this.last429.route !== route &&
      now - this.last429.at <= ACCOUNT_EVIDENCE_MS;
    this.last429 = { route, at: now };
    this.routeBucket(method, template).slowDown(now, pauseMs);
    if (accountWide) this.account.slowDown(now, pauseMs);
    this.pump();
    return accountWide ? "account" : "route";
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.waiters.length;
  }

  private pump(): void {
    const now = Date.now();
    const still: Waiter[] = [];
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const waiter of this.waiters) {
      // Earlier waiters were served first, so a later waiter only overtakes one blocked on another bucket.
      const readyAt = Math.max(waiter.notBefore, ...waiter.buckets.map((b) => b.nextFreeAt(now)));
      if (readyAt <= now) {
        for (const bucket of waiter.buckets) bucket.take(now);
        waiter.resolve(now - waiter.notBefore);
      } else {
        still.push(waiter);
        wakeAt = Math.min(wakeAt, readyAt);
      }
    }
    this.waiters = still;
    if (still.length === 0 || wakeAt !== this.timerAt) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
    }
    if (still.length > 0 && this.timer === undefined) {
      this.timerAt = wakeAt;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      }, wakeAt - now);
    }
  }
}
