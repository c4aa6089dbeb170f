// The retry policy as a pure function: which answers are retried, after how long, and when it stops.
import assert from "node:assert/strict";
import sinon from "sinon";
import { boundedRetryAfter, computeRetryDelay } from "../../provider/client";

describe("client retry policy (computeRetryDelay)", () => {
  afterEach(() => sinon.restore());

  it("retries 423 on every method with the contract's 0.1/0.2/0.4/0.8/1.6 s series, then stops", () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const delays = [1, 2, 3, 4, 5].map((attempt) =>
        computeRetryDelay({ attempt, method, error: { status: 423 } }),
      );
      assert.deepEqual(
        delays.map((d) => (d.retry ? d.delayMs : -1)),
        [100, 200, 400, 800, 1600],
      );
      assert.deepEqual(computeRetryDelay({ attempt: 6, method, error: { status: 423 } }), {
        retry: false,
        rule: "locked",
        reason: "attempts-exhausted",
      });
    }
  });

  it("takes the 423 schedule from the policy when configured", () => {
    const d = computeRetryDelay({
      attempt: 3,
      method: "POST",
      error: { status: 423 },
      policy: { lockedBaseMs: 10, lockedAttempts: 3 },
    });
    assert.deepEqual(d, { retry: true, delayMs: 40, rule: "locked" });
    assert.equal(
      computeRetryDelay({ attempt: 4, method: "POST", error: { status: 423 }, policy: { lockedAttempts: 3 } })
        .retry,
      false,
    );
  });

  it("honours Retry-After in seconds on a 429", () => {
    const d = computeRetryDelay({
      attempt: 1,
      method: "POST",
      error: { status: 429 },
      retryAfter: "3",
      random: () => 0,
    });
    assert.deepEqual(d, { retry: true, delayMs: 3000, rule: "rate-limited" });
  });

  it("adds the backoff's full jitter to Retry-After, so clients told the same pause come back spread out", () => {
    const at = (attempt: number, r: number) =>
      computeRetryDelay({
        attempt,
        method: "POST",
        error: { status: 429 },
        retryAfter: "1",
        random: () => r,
      });
    assert.deepEqual(at(1, 0.5), { retry: true, delayMs: 1250, rule: "rate-limited" });
    assert.deepEqual(at(2, 0.5), { retry: true, delayMs: 1500, rule: "rate-limited" });
    assert.deepEqual(at(2, 0.999999), { retry: true, delayMs: 1999, rule: "rate-limited" });
    assert.deepEqual(
      at(9, 0.5),
      { retry: true, delayMs: 3000, rule: "rate-limited" },
      "the window is capped",
    );
  });

  it("never runs out of 429 retries by count: only the deadline ends them", () => {
    const now = 1_000_000;
    const at = (attempt: number, deadline?: number) =>
      computeRetryDelay({
        attempt,
        method: "POST",
        error: { status: 429 },
        retryAfter: "1",
        random: () => 0,
        now,
        deadline,
      });
    assert.deepEqual(at(500), { retry: true, delayMs: 1000, rule: "rate-limited" });
    assert.deepEqual(at(500, now + 1000), { retry: true, delayMs: 1000, rule: "rate-limited" });
    assert.deepEqual(at(2, now + 999), { retry: false, rule: "rate-limited", reason: "deadline" });
  });

  it("stops any retry that would start after the deadline, before its count is spent", () => {
    assert.deepEqual(
      computeRetryDelay({ attempt: 1, method: "GET", error: { status: 423 }, now: 0, deadline: 99 }),
      { retry: false, rule: "locked", reason: "deadline" },
    );
    assert.equal(
      computeRetryDelay({ attempt: 1, method: "GET", error: { status: 423 }, now: 0, deadline: 100 }).retry,
      true,
    );
  });

  it("honours Retry-After as an HTTP date on a 429", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    const d = computeRetryDelay({
      attempt: 1,
      method: "GET",
      error: { status: 429 },
      retryAfter: "Wed, 01 Jan 2025 00:00:07 GMT",
      now,
      random: () => 0,
    });
    assert.deepEqual(d, { retry: true, delayMs: 7000, rule: "rate-limited" });
  });

  it("clamps a Retry-After of a day, in seconds or as a date, to the policy's maximum", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    for (const retryAfter of ["86400", "Thu, 02 Jan 2025 00:00:00 GMT", "99999999999"]) {
      const d = computeRetryDelay({
        attempt: 1,
        method: "GET",
        error: { status: 429 },
        retryAfter,
        now,
        random: () => 0,
      });
      assert.deepEqual(d, { retry: true, delayMs: 120_000, rule: "rate-limited" }, retryAfter);
    }
    assert.equal(boundedRetryAfter("86400", { retryAfterMaxMs: 30_000 }, now), 30_000);
    assert.equal(boundedRetryAfter("86400", { retryAfterMaxMs: 30_000 }, now, 4_000), 4_000);
    assert.equal(boundedRetryAfter("2", { retryAfterMaxMs: 30_000 }, now, 4_000), 2_000);
    assert.equal(boundedRetryAfter("soon", { retryAfterMaxMs: 30_000 }, now), undefined);
  });

  it("uses full-jitter exponential backoff on a 429 without Retry-After", () => {
    const at = (attempt: number, r: number) =>
      computeRetryDelay({ attempt, method: "GET", error: { status: 429 }, random: () => r });
    assert.deepEqual(at(1, 0.5), { retry: true, delayMs: 250, rule: "rate-limited" });
    assert.deepEqual(at(3, 0.5), { retry: true, delayMs: 1000, rule: "rate-limited" });
    assert.deepEqual(at(3, 0), { retry: true, delayMs: 0, rule: "rate-limited" });
    assert.deepEqual(at(6, 0.999999), { retry: true, delayMs: 3999, rule: "rate-limited" });
  });

  it("waits a 503's Retry-After before re-sending, plus jitter", () => {
    const decision = computeRetryDelay({
      attempt: 1,
      method: "POST",
      error: { status: 503 },
      retryAfter: "60",
      random: () => 0.5,
      now: 0,
    });
    assert.deepEqual(decision, { retry: true, delayMs: 60_000 + 125, rule: "unavailable" });
  });

  it("retries 503 on every method", () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      assert.equal(computeRetryDelay({ attempt: 1, method, error: { status: 503 } }).retry, true);
    }
  });

  it("retries other 5xx, network errors and timeouts on GET only", () => {
    for (const error of [
      { status: 500 },
      { status: 502 },
      { status: 524 },
      { network: "ECONNRESET" },
      { network: "ETIMEDOUT" },
    ]) {
      assert.equal(
        computeRetryDelay({ attempt: 1, method: "GET", error }).retry,
        true,
        JSON.stringify(error),
      );
      for (const method of ["POST", "PATCH", "DELETE"]) {
        assert.deepEqual(computeRetryDelay({ attempt: 1, method, error }), {
          retry: false,
          rule: undefined,
          reason: "not-retryable",
        });
      }
    }
  });

  it("retries a refused connection or an unknown host on every method: nothing was sent", () => {
    for (const network of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]) {
      for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
        const d = computeRetryDelay({ attempt: 1, method, error: { network }, random: () => 0.5 });
        assert.deepEqual(d, { retry: true, delayMs: 125, rule: "not-sent" }, `${method} ${network}`);
      }
    }
  });

  it("never retries 4xx other than 423 and 429", () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      assert.equal(computeRetryDelay({ attempt: 1, method: "GET", error: { status } }).retry, false);
    }
  });
});
