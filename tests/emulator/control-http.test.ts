import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type CallOptions, call, type Json, start } from "./helpers";

// The control API over HTTP (/__emulator/...), for tests in other processes and CLI pipelines.

describe("control API over HTTP", () => {
  let emu: RunningEmulator;
  let demo: ReturnType<typeof api>;
  const ctl = (method: string, path: string, body?: unknown) =>
    call(emu.origin, method, `/__emulator${path}`, (body === undefined ? {} : { body }) as CallOptions);

  beforeEach(async () => {
    emu = await start({ opDurationMs: 1000 });
    demo = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("reads, filters and clears the request log", async () => {
    await demo.get("/projects");
    await demo.get(`/projects/${DEMO.projectId}`);
    const all = await ctl("GET", "/requests");
    assert.deepEqual(
      all.body.requests.map((e: Json) => e.route),
      ["GET /projects", "GET /projects/{project_id}"],
    );
    const some = await ctl(
      "GET",
      `/requests?route=${encodeURIComponent("GET /projects/{project_id}")}&status=200`,
    );
    assert.equal(some.body.requests.length, 1);
    assert.equal((await ctl("DELETE", "/requests")).status, 204);
    assert.deepEqual((await ctl("GET", "/requests")).body.requests, []);
  });

  it("scripts and clears faults", async () => {
    assert.equal(
      (await ctl("POST", "/faults", { route: "GET /projects", response: { status: 503 }, count: 2 })).status,
      204,
    );
    assert.equal((await demo.get("/projects")).status, 503);
    assert.equal((await ctl("DELETE", "/faults")).status, 204);
    assert.equal((await demo.get("/projects")).status, 200);
    assert.equal((await ctl("POST", "/faults", { route: "not a route" })).status, 400);
  });

  it("scripts operation outcomes and advances the clock", async () => {
    await ctl("POST", "/operations/script", {
      match: { action: "create_branch", count: 1 },
      outcome: { kind: "error", message: "boom" },
    });
    const op = (await demo.post(`/projects/${DEMO.projectId}/branches`, {})).body.operations[0];
    const before = (await ctl("GET", "/clock")).body.now;
    const advanced = await ctl("POST", "/clock/advance", { ms: 1000 });
    assert.equal(advanced.body.now, before + 1000);
    const seen = await demo.get(`/projects/${DEMO.projectId}/operations/${op.id}`);
    assert.equal(seen.body.operation.status, "error");
    assert.equal(seen.body.operation.error, "boom");
    assert.equal((await ctl("DELETE", "/operations/script")).status, 204);
    assert.equal((await ctl("POST", "/operations/script", { outcome: { kind: "explode" } })).status, 400);
  });

  it("starts platform operations and bulk history", async () => {
    const started = await ctl("POST", `/projects/${DEMO.projectId}/platform_operations`, {
      action: "check_availability",
    });
    assert.equal(started.body.operation.action, "check_availability");
    assert.equal((await demo.post(`/projects/${DEMO.projectId}/branches`, {})).status, 423);
    const bulk = await ctl("POST", `/projects/${DEMO.orgProjectId}/operations/bulk`, { count: 50 });
    assert.equal(bulk.body.added, 50);
    assert.equal(
      (await ctl("POST", "/projects/no-such-project-1/operations/bulk", { count: 5 })).status,
      404,
    );
  });

  it("creates and revokes keys as the console would", async () => {
    const made = await ctl("POST", "/api_keys", {
      user_id: DEMO.memberUserId,
      org_id: DEMO.orgId,
      project_id: DEMO.orgProjectId,
    });
    assert.match(made.body.key, /^napi_[a-z0-9]{64}$/);
    assert.equal((await api(emu, made.body.key).get(`/projects/${DEMO.orgProjectId}`)).status, 200);
    assert.equal((await ctl("POST", `/api_keys/${made.body.id}/revoke`)).status, 204);
    assert.equal((await api(emu, made.body.key).get(`/projects/${DEMO.orgProjectId}`)).status, 401);
    assert.equal(
      (await ctl("POST", "/api_keys", { user_id: DEMO.memberUserId, org_id: DEMO.orgId })).status,
      403,
      "members make no org keys",
    );
    assert.equal((await ctl("POST", "/api_keys/999999/revoke")).status, 404);
  });

  it("transfers projects and changes memberships", async () => {
    assert.equal(
      (await ctl("POST", `/projects/${DEMO.orgProjectId}/transfer`, { org_id: null })).status,
      204,
    );
    assert.equal((await api(emu, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`)).status, 401);
    assert.equal(
      (await ctl("DELETE", `/organizations/${DEMO.orgId}/members/${DEMO.memberUserId}`)).status,
      204,
    );
    assert.equal(
      (await ctl("DELETE", `/organizations/${DEMO.orgId}/members/${DEMO.memberUserId}`)).status,
      404,
    );
    assert.equal(
      (
        await ctl("POST", `/organizations/${DEMO.orgId}/members`, {
          user_id: DEMO.memberUserId,
          role: "admin",
        })
      ).status,
      204,
    );
    assert.equal(
      (
        await api(emu, DEMO.memberPersonalKey).post(`/organizations/${DEMO.orgId}/api_keys`, {
          key_name: "now-admin",
        })
      ).status,
      200,
    );
  });

  it("deletes branches out of band, with the same refusals", async () => {
    const made = await demo.post(`/projects/${DEMO.projectId}/branches`, { branch: { name: "oob" } });
    const deleted = await ctl("DELETE", `/projects/${DEMO.projectId}/branches/${made.body.branch.id}`);
    assert.deepEqual(
      deleted.body.operations.map((o: Json) => o.action),
      ["delete_timeline"],
    );
    assert.equal((await ctl("DELETE", `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`)).status, 422);
    emu.control.advance(5000);
    assert.equal((await demo.get(`/projects/${DEMO.projectId}/branches/${made.body.branch.id}`)).status, 404);
  });

  it("shows the state without secrets, reseeds, resets limits and flushes", async () => {
    const state = await ctl("GET", "/state");
    assert.equal(state.body.apiKeys.length, 4);
    assert.ok(state.body.apiKeys.every((k: Json) => k.token_hash === undefined));
    assert.ok(!state.text.includes(DEMO.personalKey));
    assert.equal((await ctl("POST", "/seed", { seed: "empty" })).status, 204);
    assert.equal((await demo.get("/projects")).status, 401);
    assert.equal(
      (await ctl("POST", "/seed", { seed: "/etc/passwd" })).status,
      400,
      "no file paths over HTTP",
    );
    assert.equal((await ctl("POST", "/seed", { seed: "demo" })).status, 204);
    assert.equal((await ctl("POST", "/limits/reset")).status, 204);
    assert.equal((await ctl("POST", "/state/flush")).status, 204);
  });
});
