import assert from "node:assert/strict";
import { createNeonClient } from "@neon/sdk";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";

// The official SDK (@neon/sdk, unchanged) used as a library against the emulator: the whole
// object model, with its readiness polling waiting on the emulator's operations.

const P = DEMO.projectId;

describe("the official SDK (@neon/sdk) against the emulator", function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let neon: ReturnType<typeof createNeonClient<true>>;

  before(async () => {
    // Real (scaled) time: the SDK polls operations on its own timers; each takes 5 ms.
    emu = await startEmulator({ opDurationMs: 5, limits: false });
    neon = createNeonClient({
      apiKey: DEMO.personalKey,
      baseUrl: emu.url,
      throwOnError: true,
      wait: { pollIntervalMs: 10, timeoutMs: 10_000 },
    });
  });
  after(() => emu.stop());

  it("reads the user and the organizations", async () => {
    assert.equal((await neon.user.me()).id, DEMO.userId);
    assert.deepEqual(
      (await neon.user.organizations()).map((o) => o.id),
      [DEMO.orgId],
    );
  });

  it("creates a project and connects to it, updates, deletes and recovers it", async () => {
    const { project, connectionString } = await neon.projects.createAndConnect({
      name: "sdk-made",
      pooled: true,
    });
    assert.match(connectionString, /^postgresql:\/\/neondb_owner:[^@]+@ep-[a-z0-9-]+-pooler\./);
    assert.equal(
      (await neon.projects.update({ projectId: project.id, name: "sdk-renamed" })).name,
      "sdk-renamed",
    );
    await neon.projects.delete({ projectId: project.id });
    await assert.rejects(neon.projects.get({ projectId: project.id }), /not found/);
    assert.equal((await neon.projects.recover({ projectId: project.id })).id, project.id);
    assert.equal((await neon.projects.get({ projectId: project.id })).name, "sdk-renamed");
  });

  it("branches with compute settings, endpoints, roles, databases and a connection string", async () => {
    const branch = await neon.branches.create({
      projectId: P,
      name: "sdk-dev",
      compute: { minCu: 0.5, maxCu: 2, suspendTimeoutSeconds: 300 },
    });
    const endpoints = await neon.postgres.endpoints.listByBranch({ projectId: P, branchId: branch.id });
    assert.deepEqual(
      endpoints.map((e) => [
        e.type,
        e.autoscaling_limit_min_cu,
        e.autoscaling_limit_max_cu,
        e.suspend_timeout_seconds,
      ]),
      [["read_write", 0.5, 2, 300]],
    );
    const rw = endpoints[0];
    assert.ok(rw);
    const updated = await neon.postgres.endpoints.update({
      projectId: P,
      endpointId: rw.id,
      autoscaling_limit_max_cu: 4,
    });
    assert.equal(updated.autoscaling_limit_max_cu, 4);
    const role = await neon.postgres.roles.create({ projectId: P, branchId: branch.id, name: "bob" });
    const password = await neon.postgres.roles.password({
      projectId: P,
      branchId: branch.id,
      roleName: "bob",
    });
    assert.equal(password, role.password);
    await neon.postgres.databases.create({
      projectId: P,
      branchId: branch.id,
      name: "shop",
      owner_name: "bob",
    });
    const uri = await neon.postgres.connectionString({
      projectId: P,
      branchId: branch.id,
      databaseName: "shop",
      roleName: "bob",
    });
    // The SDK asks for the pooled URI by default: `-pooler` at the end of the host's first label.
    const pooledHost = rw.host?.replace(/^([^.]+)\./, "$1-pooler.");
    assert.equal(uri, `postgresql://bob:${password}@${pooledHost}/shop?sslmode=require`);
    await neon.postgres.databases.delete({ projectId: P, branchId: branch.id, databaseName: "shop" });
    await neon.postgres.roles.delete({ projectId: P, branchId: branch.id, roleName: "bob" });
    assert.equal((await neon.branches.setDefault({ projectId: P, branchId: branch.id })).default, true);
    await neon.branches.setDefault({ projectId: P, branchId: DEMO.branchId });
    await neon.branches.delete({ projectId: P, branchId: branch.id });
    const left = [];
    for await (const b of neon.branches.list({ projectId: P })) left.push(b.name);
    assert.deepEqual(left, ["main"]);
  });

  it("gets the service's refusal for a minimum above the maximum, and nothing is created", async () => {
    const before = emu.control.dumpState().branches.length;
    await assert.rejects(
      neon.branches.create({ projectId: P, name: "too-small", compute: { minCu: 4, maxCu: 1 } }),
      /autoscaling_limit_min_cu \(4\) must not be greater than autoscaling_limit_max_cu \(1\)/,
    );
    assert.equal(emu.control.dumpState().branches.length, before);
  });
});
