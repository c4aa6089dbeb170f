/**
 * Retry policy: a declared table of rules plus one pure function, `computeRetryDelay`, that decides
 * whether a failed attempt is retried and after how long. The request loop in `request.ts` only asks it.
 */

/**
 * Tunable numbers of the policy. "Attempts" here count retries after the first try. A 429 has no
 * attempt count: it is retried for as long as the request's deadline allows (docs/api-rules.md §2.2).
 */
export interface RetryPolicy {
  /** Retries after a 423 (docs/api-rules.md §2.1: up to 5 attempts). */
  lockedAttempts: number;
  /** First 423 delay; doubles each retry (docs/api-rules.md §2.1: starts at 0.1 s, doubles). */
  lockedBaseMs: number;
  /**
   * Exponential window of a 429's full jitter: `base * 2^(retry - 1)`, capped at `max`. Without
   * Retry-After the delay is drawn below it; with Retry-After it is added to the asked pause, so
   * processes told the same pause do not come back as one burst.
   */
  rateLimitedBaseMs: number;
  rateLimitedMaxMs: number;
  /**
   * Longest Retry-After honoured, for the retry and for the throttle's pause alike; a larger value
   * (a proxy's or a broken gateway's "come back tomorrow") is clamped to this.
   */
  retryAfterMaxMs: number;
  /** Retries after a 503 (any method). */
  unavailableAttempts: number;
  /** Retries after another 5xx (GET only). */
  serverErrorAttempts: number;
  /** Retries after a network failure or attempt timeout (GET only). */
  networkAttempts: number;
  /** Exponential window for 503 / 5xx / network retries (full jitter below it). */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The defaults; `ClientOptions.retry` overrides any of them. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  lockedAttempts: 5,
  lockedBaseMs: 100,
  rateLimitedBaseMs: 500,
  // Low on purpose: the throttle, slowed by every 429, is what lowers this process's rate; the
  // backoff only spreads the retries, and a long one would leave the limit idle while others wait.
  rateLimitedMaxMs: 4_000,
  retryAfterMaxMs: 120_000,
  unavailableAttempts: 4,
  serverErrorAttempts: 3,
  networkAttempts: 3,
  backoffBaseMs: 250,
  backoffMaxMs: 8_000,
});

/** What went wrong on one attempt: an HTTP status, or no response at all (`network` holds the code). */
export type RetryFailure = { status: number } | { network: string };

/** Network codes that mean the request never left: no connection was made, so nothing was sent. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** True when the failure proves the request was never sent. */
export function wasNotSent(networkCode: string): boolean {
  return NOT_SENT_CODES.has(networkCode);
}

/** Which schedule a rule uses. */
export type RetrySchedule = "doubling" | "retry-after-or-full-jitter" | "full-jitter";

/** One row of the policy table. */
export interface RetryRule {
  name: "locked" | "rate-limited" | "unavailable" | "server-error" | "not-sent" | "network";
  /**
   * Statuses matched; `"not-sent"` matches failures where no byte of the request left (the connection
   * was refused or the host not found), `"network"` any other failure without a response.
   */
  matches: readonly number[] | "not-sent" | "network";
  /** Methods retried; `"all"` also covers POST / PATCH / DELETE. */
  methods: "all" | readonly string[];
  /** The policy's retry count for this rule; `"deadline"`: no count, retried while the deadline allows. */
  attemptsKey: keyof RetryPolicy | "deadline";
  schedule: RetrySchedule;
  /** Why this rule exists (the clause it implements). */
  why: string;
}

const FIVE_XX_BUT_503 = Array.from({ length: 100 }, (_, i) => 500 + i).filter((s) => s !== 503);

/** The policy table, first match wins. */
export const RETRY_RULES: readonly RetryRule[] = Object.freeze([
  {
    name: "locked",
    matches: [423],
    methods: "all",
    attemptsKey: "lockedAttempts",
    schedule: "doubling",
    why: "on 423 retry the same request, 0.1 s doubling, up to 5 attempts; the request was refused, so re-sending is safe (docs/api-rules.md §2.1)",
  },
  {
    name: "rate-limited",
    matches: [429],
    methods: "all",
    attemptsKey: "deadline",
    schedule: "retry-after-or-full-jitter",
    why: "on 429 retry with exponential backoff, honouring Retry-After; the limit is shared with other clients of the account, so a count of attempts says nothing and only the request's deadline ends the wait (docs/api-rules.md §2.2)",
  },
  {
    name: "unavailable",
    matches: [503],
    methods: "all",
    attemptsKey: "unavailableAttempts",
    schedule: "full-jitter",
    why: "OpenAPI GeneralError: any request that returns 503 is always safe to retry; its Retry-After is honoured",
  },
  {
    name: "server-error",
    matches: FIVE_XX_BUT_503,
    methods: ["GET", "HEAD", "OPTIONS"],
    attemptsKey: "serverErrorAttempts",
    schedule: "full-jitter",
    why: "OpenAPI GeneralError: a POST/PATCH/DELETE may have succeeded before the 5xx, so only idempotent methods are re-sent",
  },
  {
    name: "not-sent",
    matches: "not-sent",
    methods: "all",
    attemptsKey: "networkAttempts",
    schedule: "full-jitter",
    why: "a refused connection or an unknown host means the request never left this machine, so re-sending it cannot repeat a change",
  },
  {
    name: "network",
    matches: "network",
    methods: ["GET", "HEAD", "OPTIONS"],
    attemptsKey: "networkAttempts",
    schedule: "full-jitter",
    why: "OpenAPI GeneralError: without a response a mutating request may still have been processed; only idempotent methods are re-sent",
  },
]);

/** Input of `computeRetryDelay`. */
export interface RetryDelayInput {
  /** 1 for the first retry (after the first failed attempt), 2 for the second, … */
  attempt: number;
  method: string;
  error: RetryFailure;
  /** The raw `Retry-After` header, if any (seconds or an HTTP date). */
  retryAfter?: string | undefined;
  policy?: Partial<RetryPolicy> | undefined;
  /** Clock for HTTP-date Retry-After values and the deadline; defaults to `Date.now()`. */
  now?: number | undefined;
  /** Epoch ms after which no attempt may start: a retry that would start later is not made. */
  deadline?: number | undefined;
  /** Source of jitter in [0, 1); defaults to `Math.random`. */
  random?: (() => number) | undefined;
}

/** The decision: retry after `delayMs`, or stop (with the rule that matched, if any). */
export type RetryDecision =
  | { retry: true; delayMs: number; rule: RetryRule["name"] }
  | {
      retry: false;
      rule: RetryRule["name"] | undefined;
      reason: "not-retryable" | "attempts-exhausted" | "deadline";
    };

/** Parse a Retry-After header (delta-seconds or HTTP-date) to milliseconds from `now`; undefined if unusable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The Retry-After a client acts on: the header's wait clamped to `retryAfterMaxMs`, and to
 * `untilDeadline` when the caller has one; undefined when the header is absent or unusable.
 */
export function boundedRetryAfter(
  value: string | undefined,
  policy: Pick<RetryPolicy, "retryAfterMaxMs">,
  now: number,
  untilDeadline?: number | undefined,
): number | undefined {
  const asked = parseRetryAfter(value, now);
  if (asked === undefined) return undefined;
  const bound = Math.min(policy.retryAfterMaxMs, untilDeadline ?? Number.POSITIVE_INFINITY);
  return Math.max(0, Math.min(asked, bound));
}

function ruleFor(method: string, error: RetryFailure): RetryRule | undefined {
  const m = method.toUpperCase();
  return RETRY_RULES.find((rule) => {
    const matched =
      "network" in error
        ? rule.matches === (wasNotSent(error.network) ? "not-sent" : "network")
        : typeof rule.matches !== "string" && rule.matches.includes(error.status);
    return matched && (rule.methods === "all" || rule.methods.includes(m));
  });
}

/**
 * Decide whether the `attempt`-th retry happens and its delay: not when no rule matches, when the
 * rule's retries are spent, or when the retry would start after `deadline`. Pure: no clock or
 * randomness unless passed.
 */
export function computeRetryDelay(input: RetryDelayInput): RetryDecision {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...input.policy };
  const rule = ruleFor(input.method, input.error);
  if (rule === undefined) return { retry: false, rule: undefined, reason: "not-retryable" };
  if (rule.attemptsKey !== "deadline" && input.attempt > policy[rule.attemptsKey]) {
    return { retry: false, rule: rule.name, reason: "attempts-exhausted" };
  }
  const random = input.random ?? Math.random;
  const now = input.now ?? Date.now();
  const exponent = Math.max(0, input.attempt - 1);
  let delayMs: number;
  switch (rule.schedule) {
    case "doubling":
      delayMs = policy.lockedBaseMs * 2 ** exponent;
      break;
    case "retry-after-or-full-jitter": {
      const fromHeader = boundedRetryAfter(input.retryAfter, policy, now) ?? 0;
      const window = Math.min(policy.rateLimitedMaxMs, policy.rateLimitedBaseMs * 2 ** exponent);
      delayMs = fromHeader + Math.floor(random() * window);
      break;
    }
    case "full-jitter": {
      // A service that says when to come back (a 503 during maintenance) is waited for, not hammered.
      const fromHeader = boundedRetryAfter(input.retryAfter, policy, now) ?? 0;
      delayMs =
        fromHeader +
        Math.floor(random() * Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** exponent));
      break;
    }
  }
  if (input.deadline !== undefined && now + delayMs > input.deadline) {
    return { retry: false, rule: rule.name, reason: "deadline" };
  }
  return { retry: true, delayMs, rule: rule.name };
}
