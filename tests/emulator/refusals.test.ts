import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, call, start } from "./helpers";

// Bad input gets the service's error, and nothing in the emulator's state changes; the control
// API needs its token when the emulator listens beyond loopback.

const P = `/projects/${DEMO.projectId}`;
const DAY = 86_400_000;

describe("refusals change nothing", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start();
  });
  after(() => emu.stop());

  /** The state without the parts every request touches (the clock and keys' last use). */
  const state = () => {
    const { now: _now, apiKeys: _keys, ...rest } = emu.control.dumpState();
    return rest;
  };

  const iso = (offsetMs: number) => new Date(emu.control.now() + offsetMs).toISOString();

  const refusals: Array<[string, string, () => unknown, RegExp]> = [
    [
      "an unknown init_source",
      `${P}/branches`,
      () => ({ branch: { init_source: "all-data" } }),
      /init_source must be one of parent-data, schema-only/,
    ],
    [
      "a minimum above the maximum",
      `${P}/branches`,
      () => ({
        endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 }],
      }),
      /autoscaling_limit_min_cu \(2\) must not be greater/,
    ],
    [
      "an expiry in the past",
      `${P}/branches`,
      () => ({ branch: { expires_at: iso(-1000) } }),
      /must be in the future/,
    ],
    [
      "an expiry beyond 30 days",
      `${P}/branches`,
      () => ({ branch: { expires_at: iso(31 * DAY) } }),
      /at most 30 days/,
    ],
    [
      "a compute unit below the document's minimum",
      `${P}/branches`,
      () => ({ endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.1 }] }),
      /must be >= 0.25/,
    ],
    [
      "a compute size the service does not offer (0.3 CU)",
      `${P}/endpoints`,
      () => ({
        endpoint: {
          branch_id: DEMO.branchId,
          type: "read_only",
          autoscaling_limit_min_cu: 0.3,
          autoscaling_limit_max_cu: 0.3,
        },
      }),
      /endpoint\.autoscaling_limit_min_cu \(0\.3\) is not a compute size/,
    ],
    [
      "autoscaling beyond 16 CU (1-20 CU)",
      `${P}/endpoints`,
      () => ({
        endpoint: {
          branch_id: DEMO.branchId,
          type: "read_only",
          autoscaling_limit_min_cu: 1,
          autoscaling_limit_max_cu: 20,
        },
      }),
      /endpoint\.autoscaling_limit_max_cu \(20\) is above 16/,
    ],
    [
      "an autoscaling range wider than 8 CU (1-12 CU)",
      `${P}/branches`,
      () => ({
        endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 12 }],
      }),
      /the autoscaling range 1-12 CU is 11 CU wide; it may be at most 8/,
    ],
    [
      "a suspend timeout the document rules out",
      `${P}/branches`,
      () => ({ endpoints: [{ type: "read_only", suspend_timeout_seconds: 10 }] }),
      /suspend_timeout_seconds/,
    ],
    [
      "an undocumented provisioner",
      `${P}/branches`,
      () => ({ endpoints: [{ type: "read_only", provisioner: "k8s-magic" }] }),
      /provisioner must be one of/,
    ],
    [
      "a second read_write endpoint on a branch",
      `${P}/endpoints`,
      () => ({ endpoint: { branch_id: DEMO.branchId, type: "read_write" } }),
      /only one read_write endpoint/,
    ],
    [
      "a role name over 63 bytes",
      `${P}/branches/${DEMO.branchId}/roles`,
      () => ({ role: { name: "r".repeat(64) } }),
      /1 to 63 bytes/,
    ],
    [
      "a role name starting with pg_ (Postgres's own roles)",
      `${P}/branches/${DEMO.branchId}/roles`,
      () => ({ role: { name: "pg_app" } }),
      /role\.name "pg_app" is reserved \(names starting with pg_/,
    ],
    [
      "the name of the service's own superuser role",
      `${P}/branches/${DEMO.branchId}/roles`,
      () => ({ role: { name: "clouddb_admin" } }),
      /role\.name "clouddb_admin" is reserved \(it is one of the service's own roles\)/,
    ],
    [
      "a reserved role name for a new project's owner",
      "/projects",
      () => ({ project: { branch: { role_name: "clouddb_superuser" } } }),
      /project\.branch\.role_name "clouddb_superuser" is reserved/,
    ],
    [
      "a database named like one every Postgres server has",
      `${P}/branches/${DEMO.branchId}/databases`,
      () => ({ database: { name: "template1", owner_name: "neondb_owner" } }),
      /database\.name "template1" is reserved/,
    ],
    [
      "a reserved database name for a new project",
      "/projects",
      () => ({ project: { branch: { database_name: "postgres" } } }),
      /project\.branch\.database_name "postgres" is reserved/,
    ],
  ];
  for (const [what, path, body, message] of refusals) {
    it(`refuses ${what} with 400, and nothing changes`, async () => {
      const before = state();
      const reply = await api(emu, DEMO.personalKey).post(path, body());
      assert.equal(reply.status, 400, reply.text);
      assert.match(reply.body.message, message);
      assert.equal(reply.body.request_id, reply.headers.get("x-request-id"));
      assert.deepEqual(state(), before);
    });
  }

  it("deletes an expired branch on the emulator's clock, by the platform", async () => {
    const created = await api(emu, DEMO.personalKey).post(`${P}/branches`, {
      branch: { name: "ttl", expires_at: iso(60_000) },
    });
    assert.equal(created.status, 201, created.text);
    emu.control.advance(59_000);
    assert.equal(
      (await api(emu, DEMO.personalKey).get(`${P}/branches/${created.body.branch.id}`)).status,
      200,
    );
    emu.control.advance(1_000);
    assert.equal(
      (await api(emu, DEMO.personalKey).get(`${P}/branches/${created.body.branch.id}`)).status,
      404,
    );
    const ops = emu.control.dumpState().operations.filter((o) => o.branch_id === created.body.branch.id);
    assert.deepEqual(
      ops.map((o) => [o.action, o.initiator]),
      [
        ["create_branch", "user"],
        ["delete_timeline", "platform"],
      ],
    );
  });
});

describe("the control API beyond loopback", () => {
  it("will not listen beyond loopback without a control token", async () => {
    await assert.rejects(startEmulator({ host: "0.0.0.0", clock: "manual" }), /control token/);
  });

  it("asks for the token there, and stays open on loopback", async () => {
    const token = "a-long-control-token-0123456789";
    const guarded = await startEmulator({ host: "0.0.0.0", clock: "manual", controlToken: token });
    const open = await start();
    try {
      const url = guarded.origin.replace("0.0.0.0", "127.0.0.1");
      assert.equal((await call(url, "GET", "/__emulator/health")).status, 401);
      assert.equal(
        (await call(url, "GET", "/__emulator/health", { key: "wrong-token-0123456789" })).status,
        401,
      );
      assert.equal((await call(url, "GET", "/__emulator/health", { key: token })).status, 200);
      assert.equal((await call(url, "GET", "/api/v2/projects", { key: DEMO.personalKey })).status, 200);
      assert.equal((await call(open.origin, "GET", "/__emulator/health")).status, 200);
    } finally {
      await guarded.stop();
      await open.stop();
    }
  });
});
