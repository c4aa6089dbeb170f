import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// Operations advance on the emulator clock; scripted outcomes; platform-initiated operations; 423.

const P = `/projects/${DEMO.projectId}`;
const LOCKED = "project already has running conflicting operations, scheduling of new ones is prohibited";

describe("operations on the emulator clock", () => {
  let emu: RunningEmulator;
  let demo: ReturnType<typeof api>;
  const statusOf = async (id: string) => (await demo.get(`${P}/operations/${id}`)).body.operation;

  beforeEach(async () => {
    emu = await start({ opDurationMs: 1000 });
    demo = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("moves an operation from scheduling to running to finished as the clock advances", async () => {
    const created = await demo.post(`${P}/branches`, {});
    const [op] = created.body.operations;
    assert.equal(op.status, "scheduling");
    emu.control.advance(100);
    assert.equal((await statusOf(op.id)).status, "running");
    emu.control.advance(899);
    assert.equal((await statusOf(op.id)).status, "running");
    emu.control.advance(1);
    const done = await statusOf(op.id);
    assert.equal(done.status, "finished");
    assert.equal(done.total_duration_ms, 1000);
    assert.equal(done.failures_count, 0);
  });

  it("runs a request's operations one after another: start_compute waits for create_branch", async () => {
    const created = await demo.post(`${P}/branches`, { endpoints: [{ type: "read_write" }] });
    const [createOp, startOp] = created.body.operations;
    assert.deepEqual([createOp.action, startOp.action], ["create_branch", "start_compute"]);
    assert.equal(startOp.endpoint_id, created.body.endpoints[0].id);
    assert.equal(createOp.endpoint_id, undefined, "a branch creation concerns no endpoint");
    emu.control.advance(1000);
    assert.equal((await statusOf(createOp.id)).status, "finished");
    assert.equal((await statusOf(startOp.id)).status, "scheduling");
    emu.control.advance(1000);
    assert.equal((await statusOf(startOp.id)).status, "finished");
  });

  it("shows the branch as init, then ready, and the endpoint as init, then active", async () => {
    const created = await demo.post(`${P}/branches`, { endpoints: [{ type: "read_write" }] });
    assert.equal(created.body.branch.current_state, "init");
    assert.equal(created.body.branch.pending_state, "ready");
    assert.equal(created.body.endpoints[0].current_state, "init");
    emu.control.advance(2000);
    const branch = await demo.get(`${P}/branches/${created.body.branch.id}`);
    assert.equal(branch.body.branch.current_state, "ready");
    assert.equal(branch.body.branch.pending_state, undefined);
  });

  it("takes per-action durations", async () => {
    await emu.stop();
    emu = await start({ opDurationMs: { create_branch: 300, default: 50 } });
    demo = api(emu, DEMO.personalKey);
    const created = await demo.post(`${P}/branches`, { endpoints: [{ type: "read_only" }] });
    const [createOp, startOp] = created.body.operations;
    emu.control.advance(300);
    assert.equal((await statusOf(createOp.id)).status, "finished");
    emu.control.advance(50);
    assert.equal((await statusOf(startOp.id)).total_duration_ms, 350);
    assert.equal((await statusOf(startOp.id)).status, "finished");
  });

  it("gives strictly ordered, unique microsecond created_at values even within one millisecond", async () => {
    emu.control.addOperations(DEMO.projectId, 5);
    await demo.post(`${P}/branches`, { endpoints: [{ type: "read_write" }, { type: "read_only" }] });
    const list = (await demo.get(`${P}/operations?limit=1000`)).body.operations as Json[];
    const stamps = list.map((o) => o.created_at as string);
    for (const s of stamps) assert.match(s, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(new Set(stamps).size, stamps.length);
    assert.deepEqual([...stamps].sort().reverse(), stamps, "newest first");
  });

  describe("scripted outcomes", () => {
    it("fails K times (failed, failures_count rising, retry_at), then finishes; failed is not terminal", async () => {
      emu.control.scriptOperations({ action: "create_branch" }, { kind: "fail", times: 2 });
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      emu.control.advance(1000);
      let seen = await statusOf(op.id);
      assert.equal(seen.status, "failed");
      assert.equal(seen.failures_count, 1);
      assert.equal(Date.parse(seen.retry_at), emu.control.now() + 500);
      assert.equal(
        (await demo.post(`${P}/branches`, {})).status,
        423,
        "a failed operation still locks the project",
      );
      emu.control.advance(500);
      seen = await statusOf(op.id);
      assert.equal(seen.status, "running");
      assert.equal(seen.failures_count, 1);
      emu.control.advance(900);
      seen = await statusOf(op.id);
      assert.equal(seen.status, "failed");
      assert.equal(seen.failures_count, 2);
      emu.control.advance(500 + 900);
      seen = await statusOf(op.id);
      assert.equal(seen.status, "finished");
      assert.equal(seen.failures_count, 2);
      assert.equal((await demo.post(`${P}/branches`, {})).status, 201);
    });

    it("cancels: running, then cancelling, then cancelled", async () => {
      emu.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "cancelled" });
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      emu.control.advance(100);
      assert.equal((await statusOf(op.id)).status, "running");
      emu.control.advance(450);
      assert.equal((await statusOf(op.id)).status, "cancelling");
      emu.control.advance(450);
      assert.equal((await statusOf(op.id)).status, "cancelled");
      assert.equal((await demo.post(`${P}/branches`, {})).status, 201, "cancelled is terminal");
    });

    it("ends in error with the scripted text", async () => {
      emu.control.scriptOperations(
        { action: "create_branch", count: 1 },
        { kind: "error", message: "disk full" },
      );
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      emu.control.advance(1000);
      const seen = await statusOf(op.id);
      assert.equal(seen.status, "error");
      assert.equal(seen.error, "disk full");
    });

    it("skips: straight from scheduling to skipped", async () => {
      emu.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "skipped" });
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      assert.equal(op.status, "scheduling");
      emu.control.advance(100);
      assert.equal((await statusOf(op.id)).status, "skipped");
    });

    it("gets stuck: running forever, and the project stays locked", async () => {
      emu.control.scriptOperations({ action: "create_branch", count: 1 }, { kind: "stuck" });
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      emu.control.advance(86_400_000);
      assert.equal((await statusOf(op.id)).status, "running");
      assert.equal((await demo.post(`${P}/branches`, {})).status, 423);
    });

    it("applies a script to the next N matching operations only, by action and project", async () => {
      emu.control.scriptOperations(
        { action: "create_branch", projectId: DEMO.orgProjectId, count: 1 },
        { kind: "skipped" },
      );
      emu.control.scriptOperations(
        { action: "create_branch", projectId: DEMO.projectId, count: 2 },
        { kind: "error" },
      );
      const statuses: string[] = [];
      for (let i = 0; i < 3; i++) {
        const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
        emu.control.advance(1000);
        statuses.push((await statusOf(op.id)).status);
      }
      assert.deepEqual(statuses, ["error", "error", "finished"]);
    });

    it("forgets scripts on clearOperationScripts", async () => {
      emu.control.scriptOperations({}, { kind: "stuck" });
      emu.control.clearOperationScripts();
      const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
      emu.control.advance(1000);
      assert.equal((await statusOf(op.id)).status, "finished");
    });
  });

  describe("423 Locked", () => {
    it("refuses new work while the project has an unfinished operation, with the real message", async () => {
      assert.equal((await demo.post(`${P}/branches`, { branch: { name: "a" } })).status, 201);
      const refused = await demo.post(`${P}/branches`, { branch: { name: "b" } });
      assert.equal(refused.status, 423);
      assert.equal(refused.body.message, LOCKED);
      assert.equal(refused.body.code, "");
      emu.control.advance(1000);
      assert.equal((await demo.post(`${P}/branches`, { branch: { name: "b" } })).status, 201);
    });

    it("refuses a branch deletion while operations run", async () => {
      const created = await demo.post(`${P}/branches`, {});
      assert.equal((await demo.delete(`${P}/branches/${created.body.branch.id}`)).status, 423);
      emu.control.advance(1000);
      assert.equal((await demo.delete(`${P}/branches/${created.body.branch.id}`)).status, 200);
    });

    it("never refuses reads or a rename, and only locks the busy project", async () => {
      const created = await demo.post(`${P}/branches`, {});
      assert.equal((await demo.get(P)).status, 200);
      assert.equal((await demo.get(`${P}/branches`)).status, 200);
      assert.equal((await demo.get(`${P}/operations`)).status, 200);
      assert.equal(
        (await demo.patch(`${P}/branches/${created.body.branch.id}`, { branch: { name: "renamed" } })).status,
        200,
      );
      assert.equal((await demo.post(`/projects/${DEMO.orgProjectId}/branches`, {})).status, 201);
    });

    it("is caused by a platform-initiated operation too (a 423 storm until it ends)", async () => {
      const op = emu.control.startPlatformOperation(DEMO.projectId, "check_availability", 3000);
      assert.equal(op.action, "check_availability");
      assert.equal(op.endpoint_id, DEMO.endpointId);
      for (let i = 0; i < 3; i++) {
        assert.equal((await demo.post(`${P}/branches`, {})).status, 423);
        emu.control.advance(900);
      }
      emu.control.advance(300);
      assert.equal((await demo.post(`${P}/branches`, {})).status, 201);
    });
  });

  it("starts platform operations on a schedule when asked to", async () => {
    await emu.stop();
    emu = await start({ opDurationMs: 1000, platformOperations: { everyMs: 60_000 } });
    demo = api(emu, DEMO.personalKey);
    emu.control.advance(60_000);
    const ops = (await demo.get(`${P}/operations?limit=1`)).body.operations;
    assert.equal(ops[0].action, "check_availability");
    assert.equal(ops[0].branch_id, DEMO.branchId);
    assert.equal((await demo.post(`${P}/branches`, {})).status, 423);
    emu.control.advance(60_000);
    const next = (await demo.get(`${P}/operations?limit=1`)).body.operations;
    assert.equal(next[0].action, "suspend_compute");
    const platform = emu.control.dumpState().operations.filter((o) => o.initiator === "platform");
    assert.equal(platform.length, 6, "one per project with a compute per tick (3 projects, 2 ticks)");
  });

  it("runs on wall time scaled by timeScale without a manual clock", async () => {
    await emu.stop();
    emu = await startEmulator({ opDurationMs: 2000, timeScale: 100 });
    demo = api(emu, DEMO.personalKey);
    const op = (await demo.post(`${P}/branches`, {})).body.operations[0];
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal((await statusOf(op.id)).status, "finished");
  });
});
