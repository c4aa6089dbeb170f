import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Reply, start } from "./helpers";

// 429 from real token buckets, each one separately; Retry-After in seconds; configurable.

async function burst(n: number, send: (i: number) => Promise<Reply>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send(i)).status);
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("rate limits", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("allows bursts of 40 per second per route, then 429 with Retry-After: 1", async () => {
    emu = await start();
    const demo = api(emu, DEMO.personalKey);
    const statuses = await burst(40, () => demo.get("/projects"));
    assert.equal(count(statuses, 200), 40);
    const refused = await demo.get("/projects");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.match(refused.body.message, /rate limit exceeded \(route GET \/projects\)/);
    assert.equal(
      (await demo.get(`/projects/${DEMO.projectId}`)).status,
      200,
      "another route has its own bucket",
    );
    assert.equal(
      (await api(emu, DEMO.memberPersonalKey).get("/projects")).status,
      200,
      "another account has its own bucket",
    );
    emu.control.advance(1000);
    assert.equal((await demo.get("/projects")).status, 200, "the bucket refills in a second");
  });

  it("allows 700 requests per minute per account, then 429", async function () {
    this.timeout(30_000);
    emu = await start({ limits: { perRoutePerSecond: 100_000 } });
    const demo = api(emu, DEMO.personalKey);
    const statuses = await burst(700, () => demo.get("/projects"));
    assert.equal(count(statuses, 200), 700);
    const refused = await demo.get(`/projects/${DEMO.projectId}`);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.match(refused.body.message, /account/);
    emu.control.advance(60_000);
    assert.equal((await demo.get("/projects")).status, 200);
  });

  it("allows 10 organization key creations per second, then 429", async () => {
    emu = await start();
    const demo = api(emu, DEMO.personalKey);
    const path = `/organizations/${DEMO.orgId}/api_keys`;
    const statuses = await burst(10, (i) =>
      demo.post(path, { key_name: `k${i}`, project_id: DEMO.orgProjectId }),
    );
    assert.equal(count(statuses, 200), 10);
    const refused = await demo.post(path, { key_name: "k10", project_id: DEMO.orgProjectId });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.match(refused.body.message, /organization key creation/);
    emu.control.advance(100);
    assert.equal((await demo.post(path, { key_name: "k11", project_id: DEMO.orgProjectId })).status, 200);
  });

  it("takes tighter limits from the options and can be switched off", async () => {
    emu = await start({ limits: { perRoutePerSecond: 3 } });
    const statuses = await burst(4, () => api(emu, DEMO.personalKey).get("/projects"));
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    await emu.stop();
    emu = await start({ limits: false });
    const free = await burst(60, () => api(emu, DEMO.personalKey).get("/projects"));
    assert.equal(count(free, 200), 60);
  });

  it("says how many seconds to wait when the bucket is far from refilled", async () => {
    emu = await start({ limits: { perMinute: 2, perRoutePerSecond: 100 } });
    const demo = api(emu, DEMO.personalKey);
    await burst(2, () => demo.get("/projects"));
    const refused = await demo.get("/projects");
    assert.equal(refused.headers.get("retry-after"), "30");
    emu.control.resetLimits();
    assert.equal((await demo.get("/projects")).status, 200);
  });
});
