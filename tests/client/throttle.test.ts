import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import { createClient, resetRegistry } from "../../provider/client";
import { accountThrottle, REGISTRY_KEY, registry } from "../../provider/client/registry";
import { Throttle } from "../../provider/client/throttle";
import { fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";

/** Most requests seen in any half-open window of `windowMs`. */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe("client throttle", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    resetRegistry();
    clock = sinon.useFakeTimers({ now: 0 });
  });
  afterEach(() => sinon.restore());

  it("holds org-key creation to 10/s under a burst of 200 calls, at full speed", async () => {
    const { transport, calls } = fakeTransport(() => json(200, { id: 1, key: "napi_new", name: "k" }));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const all = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.createOrgApiKey("org-1", { keyName: `k${i}`, projectId: "p1" }),
      ),
    );
    await clock.runAllAsync();
    await all;
    const times = calls.map((c) => c.at);
    assert.equal(times.length, 200);
    assert.equal(maxInWindow(times, 1_000), 10);
    // 20 windows of 10: the last batch goes at 19 s, i.e. the limit is used fully.
    assert.equal(Math.max(...times), 19_000);
  });

  it("holds the account to 700/min and each route to 40/s under a burst", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(200, { operation: operation({ status: "finished" }) }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const all = Promise.all(Array.from({ length: 900 }, (_, i) => client.getOperation("p1", `op-${i}`)));
    await clock.runAllAsync();
    await all;
    const times = calls.map((c) => c.at);
    assert.equal(times.length, 900);
    assert.equal(maxInWindow(times, 60_000), 700);
    assert.equal(maxInWindow(times, 1_000), 40);
    // The 701st request waits for the first token to come back a minute later.
    assert.equal([...times].sort((a, b) => a - b)[700], 60_000);
  });

  it("does not hold one route back for another route's limit", async () => {
    const { transport, calls } = fakeTransport((request) =>
      request.method === "POST" ? json(200, { id: 1, key: "napi_new" }) : json(200, []),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const keys = Promise.all(
      Array.from({ length: 30 }, () => client.createOrgApiKey("org-1", { keyName: "k" })),
    );
    const list = client.listApiKeys();
    await clock.tickAsync(0);
    await list;
    const get = calls.find((c) => c.request.method === "GET");
    assert.equal(get?.at, 0);
    await clock.runAllAsync();
    await keys;
  });

  it("slows down after a 429: pauses for Retry-After, then halves the route's rate for a window", async () => {
    const throttle = new Throttle();
    const got: number[] = [];
    throttle.penalize("GET", "/api_keys", 2_000);
    const all = Promise.all(
      Array.from({ length: 40 }, () => throttle.acquire("GET", "/api_keys").then(() => got.push(Date.now()))),
    );
    await clock.runAllAsync();
    await all;
    assert.equal(Math.min(...got), 2_000);
    // 40/s halved to 20/s for the first window after the 429.
    assert.equal(got.filter((t) => t < 2_000 + 1_000).length, 20);
  });

  it("slows down when the API answers 429 through the client", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0 ? json(429, { code: "", message: "too many" }, { "retry-after": "1" }) : json(200, []),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const first = client.listApiKeys();
    await clock.tickAsync(0);
    const second = client.listApiKeys();
    await clock.runAllAsync();
    await Promise.all([first, second]);
    // Both the retry and the unrelated second call waited out the pause.
    assert.deepEqual(
      calls.map((c) => c.at),
      [0, 1_000, 1_000],
    );
  });

  it("is shared by every client of one account, in a registry keyed without the key", () => {
    const a = accountThrottle(API, SECRET_KEY);
    assert.equal(accountThrottle(API, SECRET_KEY), a);
    assert.notEqual(accountThrottle(API, `${SECRET_KEY}2`), a);
    assert.notEqual(accountThrottle("http://other.invalid/api/v2", SECRET_KEY), a);
    assert.equal((globalThis as unknown as Record<symbol, unknown>)[REGISTRY_KEY], registry());
    assert.ok(!inspect(registry(), { depth: 3 }).includes(SECRET_KEY));
    assert.ok(![...registry().throttles.keys()].some((k) => k.includes(SECRET_KEY)));
  });

  it("can be turned off", async () => {
    const { transport, calls } = fakeTransport(() => json(200, { id: 1, key: "napi_new" }));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, throttle: false });
    const all = Promise.all(
      Array.from({ length: 30 }, () => client.createOrgApiKey("org-1", { keyName: "k" })),
    );
    await clock.tickAsync(0);
    await all;
    assert.equal(
      maxInWindow(
        calls.map((c) => c.at),
        1_000,
      ),
      30,
    );
  });
});
