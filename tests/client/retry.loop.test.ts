// The client's retry loop under fake timers: what is re-sent, when, and what is thrown at the end.
import assert from "node:assert/strict";
import sinon from "sinon";
import {
  type ClientEvent,
  type ClientOptions,
  createClient,
  isLocked,
  isNetworkError,
  isRateLimited,
  isServerError,
  resetRegistry,
} from "../../provider/client";
import { type Transport, TransportFailure } from "../../provider/client/transport";
import { branch, connectionReset, fakeTransport, json, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";
const LOCKED = { code: "", message: "project already has running conflicting operations" };

/** A client on `transport` without throttle or jitter unless `extra` says otherwise. */
function pinnedClient(transport: Transport, extra: ClientOptions = {}) {
  return createClient({
    apiKey: SECRET_KEY,
    apiUrl: API,
    transport,
    throttle: false,
    random: () => 0,
    ...extra,
  });
}

describe("client retry loop (fake timers)", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    resetRegistry();
    clock = sinon.useFakeTimers({ now: 0 });
  });
  afterEach(() => sinon.restore());

  it("re-sends a 423 after 0.1, 0.2, 0.4, 0.8 and 1.6 s, then throws LockedError", async () => {
    const { transport, calls } = fakeTransport(() => json(423, LOCKED));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const result = client.getBranch("p1", "br1").catch((e: unknown) => e);
    await clock.runAllAsync();
    const error = await result;
    assert.ok(isLocked(error));
    assert.deepEqual(
      calls.map((c) => c.at),
      [0, 100, 300, 700, 1500, 3100],
    );
    assert.equal(error.attempts, 6);
    assert.equal(error.status, 423);
  });

  it("keeps the same X-Request-ID across the retries of one logical request", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i < 2 ? json(423, LOCKED) : json(200, { branch: branch() }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const done = client.getBranch("p1", "br1");
    await clock.runAllAsync();
    await done;
    await client.getBranch("p1", "br1");
    const ids = calls.map((c) => c.request.headers["x-request-id"]);
    assert.equal(ids.length, 4);
    assert.equal(new Set(ids.slice(0, 3)).size, 1);
    assert.notEqual(ids[3], ids[0]);
  });

  it("waits the Retry-After seconds of a 429 before re-sending", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0 ? json(429, { code: "", message: "slow down" }, { "retry-after": "2" }) : json(200, []),
    );
    const client = pinnedClient(transport);
    const done = client.listApiKeys();
    await clock.runAllAsync();
    assert.deepEqual(await done, []);
    assert.deepEqual(
      calls.map((c) => c.at),
      [0, 2000],
    );
  });

  it("waits until the Retry-After HTTP date of a 429 before re-sending", async () => {
    clock.setSystemTime(Date.parse("2025-01-01T00:00:00Z"));
    const start = Date.now();
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0
        ? json(429, { code: "", message: "slow down" }, { "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" })
        : json(200, {
            id: 7,
            key: "napi_created",
            name: "k",
            created_at: "2025-01-01T00:00:05Z",
            created_by: "u-1",
          }),
    );
    const client = pinnedClient(transport);
    const done = client.createOrgApiKey("org-1", { keyName: "k" });
    await clock.runAllAsync();
    assert.equal((await done).id, 7, "the re-sent POST succeeds");
    assert.deepEqual(
      calls.map((c) => c.at - start),
      [0, 5000],
    );
  });

  it("waits out a 429 storm far longer than any count of attempts, within the deadline", async () => {
    // 40 answers of 429 with Retry-After 1 s: the old bound of 7 attempts gave up after about 9 s.
    const { transport, calls } = fakeTransport((_r, i) =>
      i < 40
        ? json(429, { code: "", message: "slow down" }, { "retry-after": "1" })
        : json(200, { id: 7, key: "napi_created", name: "k" }),
    );
    const client = pinnedClient(transport, { throttle: true, random: () => 0.5, deadline: 10 * 60_000 });
    const done = client.createOrgApiKey("org-1", { keyName: "k" });
    await clock.runAllAsync();
    assert.equal((await done).id, 7);
    assert.equal(calls.length, 41);
    const gaps = calls.slice(1).map((c, i) => c.at - (calls[i]?.at ?? 0));
    assert.ok(
      gaps.every((gap) => gap >= 1000),
      `every retry waits at least the Retry-After: ${gaps.join(",")}`,
    );
  });

  it("stops waiting at the deadline: says how long it waited, that the limit is shared, what to do, and the request id", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(429, { code: "", message: "slow down" }, { "retry-after": "1", "x-request-id": "req-429" }),
    );
    const client = pinnedClient(transport, { throttle: true, random: () => 0.5, deadline: 30_000 });
    const result = client.createOrgApiKey("org-1", { keyName: "k" }).catch((e: unknown) => e);
    await clock.runAllAsync();
    const error = await result;
    assert.ok(isRateLimited(error));
    assert.ok(calls.length > 7, `kept trying past the old attempt count (${calls.length} attempts)`);
    assert.ok(
      calls.every((c) => c.at <= 30_000),
      "no attempt after the deadline",
    );
    assert.ok((calls.at(-1)?.at ?? 0) > 25_000, "waited until close to the deadline");
    assert.match(
      error.message,
      /It waited (2\d|30) s for its turn; the next retry would start after its deadline/,
    );
    assert.match(error.message, /shared by every client of the account/);
    assert.match(error.message, /clouddb:operationTimeoutSeconds/);
    assert.match(error.message, /clouddb:limiterUrl/);
    assert.match(error.message, /request id req-429/);
    assert.ok(!error.message.includes(SECRET_KEY));
  });

  it("bounds a 429 wait by the client's timeout when the call names no deadline", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(429, { code: "", message: "slow down" }, { "retry-after": "1" }),
    );
    const client = pinnedClient(transport, { timeoutMs: 20_000 });
    const result = client.listApiKeys().catch((e: unknown) => e);
    await clock.runAllAsync();
    assert.ok(isRateLimited(await result));
    assert.equal(calls.length, 21, "one attempt per Retry-After second, until 20 s");
    assert.equal(calls.at(-1)?.at, 20_000);
  });

  it("does not re-send a POST after a 502", async () => {
    const { transport, calls } = fakeTransport(() => json(502, { code: "", message: "bad gateway" }));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const result = client.createApiKey({ keyName: "k" }).catch((e: unknown) => e);
    await clock.runAllAsync();
    const error = await result;
    assert.ok(isServerError(error));
    assert.match(error.message, /not re-sent/);
    assert.equal(calls.length, 1);
  });

  it("does not re-send a POST after a reset connection", async () => {
    const { transport, calls } = fakeTransport(() => {
      throw connectionReset();
    });
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const result = client.createApiKey({ keyName: "k" }).catch((e: unknown) => e);
    await clock.runAllAsync();
    const error = await result;
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ECONNRESET");
    assert.equal(calls.length, 1);
  });

  it("re-sends a POST whose connection was refused, and says nothing reached the service when it gives up", async () => {
    const { transport, calls } = fakeTransport((_r, i) => {
      if (i < 2) throw new TransportFailure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9");
      return json(200, { id: 1, key: "napi_new", name: "k" });
    });
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const done = client.createApiKey({ keyName: "k" });
    await clock.runAllAsync();
    assert.equal((await done).id, 1);
    assert.equal(calls.length, 3);

    const { transport: refusing } = fakeTransport(() => {
      throw new TransportFailure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9");
    });
    const failing = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport: refusing, throttle: false });
    const result = failing.createApiKey({ keyName: "k" }).catch((e: unknown) => e);
    await clock.runAllAsync();
    const error = await result;
    assert.ok(isNetworkError(error));
    assert.equal(error.mayHaveChanged, false);
    assert.match(error.message, /Nothing reached the service/);
    assert.doesNotMatch(error.message, /may have reached/);
  });

  it("re-sends a GET after a reset connection and a 500", async () => {
    const { transport, calls } = fakeTransport((_r, i) => {
      if (i === 0) throw connectionReset();
      return i === 1 ? json(500, { code: "", message: "oops" }) : json(200, []);
    });
    const client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: API,
      transport,
      throttle: false,
      random: () => 0.5,
    });
    const done = client.listApiKeys();
    await clock.runAllAsync();
    assert.deepEqual(await done, []);
    assert.deepEqual(
      calls.map((c) => c.at),
      [0, 125, 375],
    );
  });

  it("re-sends a POST after a 503", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0 ? json(503, { code: "", message: "unavailable" }) : json(200, { id: 1, key: "napi_x" }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const done = client.createApiKey({ keyName: "k" });
    await clock.runAllAsync();
    assert.equal((await done).id, 1);
    assert.equal(calls.length, 2);
  });

  it("gives up before a retry that would pass the caller's deadline", async () => {
    const { transport, calls } = fakeTransport((request) =>
      request.method === "POST" ? json(423, LOCKED) : json(200, { operations: [], pagination: {} }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    let settled: unknown;
    void client.createBranch("p1", {}, { deadline: 250, wait: false }).catch((e: unknown) => {
      settled = e;
    });
    await clock.tickAsync(300);
    assert.ok(isLocked(settled));
    assert.ok(calls.every((c) => c.at <= 250));
    assert.ok(calls.filter((c) => c.request.method === "POST").length >= 2);
  });

  it("reports each retry as an event without the key", async () => {
    const events: ClientEvent[] = [];
    const { transport } = fakeTransport((_r, i) => (i === 0 ? json(423, LOCKED) : json(200, [])));
    const client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: API,
      transport,
      throttle: false,
      onEvent: (e) => events.push(e),
    });
    const done = client.listApiKeys();
    await clock.runAllAsync();
    await done;
    const retry = events.find((e) => e.type === "retry");
    assert.ok(retry && retry.type === "retry");
    assert.equal(retry.status, 423);
    assert.equal(retry.delayMs, 100);
    assert.equal(retry.rule, "locked");
    assert.ok(!JSON.stringify(events).includes(SECRET_KEY));
  });
});
