import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import { createClient, isRateLimited, resetRegistry } from "../../provider/client";
import { accountThrottle, REGISTRY_KEY, registry } from "../../provider/client/registry";
import { Throttle } from "../../provider/client/throttle";
import { branch, fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

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

  it("after the account's 429s, a process that spent much of its minute goes on at the slowed pace, not after the minute", async () => {
    const throttle = new Throttle();
    // 400 requests in the first 40 s: under 700 a minute, over the 350 it is about to be halved to.
    for (let i = 0; i < 400; i++) {
      await throttle.acquire("GET", `/r${i % 4}`);
      clock.tick(100);
    }
    // Two routes answer 429 close together: the account's limit answered, halved to 350 a minute.
    throttle.penalize("GET", "/r0", 1_000);
    throttle.penalize("GET", "/r1", 1_000);
    assert.equal(throttle.account.effectiveLimit(Date.now()), 350);
    const got: number[] = [];
    const all = Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        throttle.acquire("GET", `/r${i % 4}`).then(() => got.push(Date.now())),
      ),
    );
    await clock.runAllAsync();
    await all;
    // After the 1 s pause, one request every 60 s / 350 (about 171 ms): the 400 already spent are
    // not paid for again (counted against 350 over the minute, nothing could go before 65 s).
    assert.equal(got[0], 41_000);
    assert.ok((got[9] as number) - 41_000 <= 9 * 172, `${got.join(", ")}`);
    assert.ok((got[9] as number) - 41_000 >= 9 * 171, `${got.join(", ")}`);
  });

  it("counts the 429s of one burst as one slowdown, and keeps slowing down for each later one", () => {
    const throttle = new Throttle();
    const route = () => throttle.routeBucket("POST", "/organizations/{org_id}/api_keys");
    // Ten requests sent together are refused together: their answers arrive within the first pause.
    for (let i = 0; i < 10; i++) throttle.penalize("POST", "/organizations/{org_id}/api_keys", 1_000);
    assert.equal(route().effectiveLimit(Date.now()), 5);
    assert.equal(route().nextFreeAt(Date.now()), 1_000);
    // Refused again after the pause: the rate sent at 5/s was still too much.
    clock.tick(1_000);
    throttle.penalize("POST", "/organizations/{org_id}/api_keys", 1_000);
    assert.equal(route().effectiveLimit(Date.now()), 2);
    clock.tick(1_000);
    throttle.penalize("POST", "/organizations/{org_id}/api_keys", 1_000);
    assert.equal(route().effectiveLimit(Date.now()), 1);
  });

  it("slows down when the API answers 429 through the client", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0 ? json(429, { code: "", message: "too many" }, { "retry-after": "1" }) : json(200, []),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, random: () => 0 });
    const first = client.listApiKeys();
    await clock.tickAsync(0);
    const second = client.listApiKeys();
    await clock.runAllAsync();
    await Promise.all([first, second]);
    // Both the retry and the unrelated second call waited out the pause, then went at the route's
    // halved pace (20/s: one every 50 ms), not as one burst.
    assert.deepEqual(
      calls.map((c) => c.at),
      [0, 1_000, 1_050],
    );
  });

  it("pauses for a day-long Retry-After no longer than the policy's maximum, and only on that route", async () => {
    const { transport, calls } = fakeTransport((request, i) =>
      i === 0
        ? json(429, { code: "", message: "come back tomorrow" }, { "retry-after": "86400" })
        : request.method === "POST"
          ? json(200, { id: 1, key: "napi_new", name: "k" })
          : json(200, []),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, random: () => 0 });
    const created = client.createOrgApiKey("org-1", { keyName: "k" });
    await clock.tickAsync(0);
    const listed = client.listApiKeys();
    await clock.tickAsync(0);
    // Another route of the account goes at once: one 429 is no evidence about the account's limit.
    assert.deepEqual(
      calls.map((c) => [c.request.method, c.at]),
      [
        ["POST", 0],
        ["GET", 0],
      ],
    );
    await clock.runAllAsync();
    await Promise.all([created, listed]);
    assert.equal(calls[2]?.at, 120_000);
    // The route is usable again after the bounded pause, not after a day: at its halved pace (5/s).
    assert.equal(
      accountThrottle(API, SECRET_KEY)
        .routeBucket("POST", "/organizations/{org_id}/api_keys")
        .nextFreeAt(Date.now()),
      Date.now() + 200,
    );
  });

  it("bounds the pause by the request's deadline: a Retry-After past it fails at once and names the wait", async () => {
    const { transport, calls } = fakeTransport((_r, i) =>
      i === 0
        ? json(429, { code: "", message: "come back tomorrow" }, { "retry-after": "86400" })
        : json(201, { branch: branch(), operations: [] }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const failed = client.createBranch("p1", {}, { deadline: 5_000, wait: false }).catch((e: unknown) => e);
    await clock.tickAsync(0);
    const error = await failed;
    assert.ok(isRateLimited(error));
    assert.match(String((error as Error).message), /pause of 24 h \(Retry-After\)/);
    assert.equal(calls.length, 1);
    const next = client.createBranch("p1", {}, { wait: false });
    await clock.runAllAsync();
    await next;
    assert.equal(calls[1]?.at, 5_000);
  });

  it("slows the account too when two routes answer 429 close together", () => {
    const throttle = new Throttle();
    assert.equal(throttle.penalize("POST", "/organizations/{org_id}/api_keys", 1_000), "route");
    assert.equal(throttle.account.effectiveLimit(Date.now()), 700);
    clock.tick(500);
    assert.equal(throttle.penalize("GET", "/api_keys", 1_000), "account");
    assert.equal(throttle.account.effectiveLimit(Date.now()), 350);
    assert.equal(throttle.account.nextFreeAt(Date.now()), Date.now() + 1_000);
    // The same route again is still one limit answering.
    clock.tick(5_000);
    assert.equal(throttle.penalize("GET", "/api_keys", 1_000), "route");
  });

  it("serves a retried request before work that arrived after it", async () => {
    const { transport, calls } = fakeTransport((request, i) =>
      i === 0
        ? json(429, { code: "", message: "slow down" }, { "retry-after": "1" })
        : json(200, { id: i, key: "napi_new", name: (request.json as { key_name: string }).key_name }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, random: () => 0 });
    const first = client.createOrgApiKey("org-1", { keyName: "first" });
    await clock.tickAsync(10);
    const later = Array.from({ length: 12 }, (_, i) =>
      client.createOrgApiKey("org-1", { keyName: `later-${i}` }),
    );
    await clock.runAllAsync();
    await Promise.all([first, ...later]);
    const names = calls.map((c) => (c.request.json as { key_name: string }).key_name);
    assert.deepEqual(names.slice(0, 2), ["first", "first"]);
    assert.equal(calls[1]?.at, 1_000);
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
