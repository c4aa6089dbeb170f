import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import {
  configure,
  type EngineStandIn,
  isSecret,
  isSecretUri,
  type Plugin,
  proto,
  rejection,
  secret,
  startPlugin,
  struct,
  usePlugins,
} from "./support";

// The data sources as provider functions: Invoke runs the function a Node.js program calls, under the
// settings of the provider instance it was sent to, its arguments checked against the declaration.

describe("the provider plugin's functions (Invoke)", function () {
  this.timeout(60_000);
  const suite = usePlugins({ opDurationMs: 20 }, [DEMO.personalKey, DEMO.memberPersonalKey]);
  let emulator: RunningEmulator;
  let engine: EngineStandIn;
  let demo: Plugin;
  let member: Plugin;
  before(() => {
    ({ emulator, engine } = suite);
    [demo, member] = suite.plugins as [Plugin, Plugin];
  });

  async function invoke(plugin: Plugin, name: string, args: Record<string, unknown>) {
    const request = new proto.InvokeRequest().setTok(`clouddb:index:${name}`).setArgs(struct(args));
    const response = await plugin.call<proto.InvokeRequest, proto.InvokeResponse>("invoke", request);
    return {
      result: (response.getReturn()?.toJavaScript() ?? {}) as Record<string, unknown>,
      failures: response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
    };
  }

  const projectIds = (result: Record<string, unknown>) =>
    (result.projects as { id: string }[]).map((p) => p.id).sort();

  it("lists each instance's own account's projects with getProjects", async () => {
    const mine = await invoke(demo, "getProjects", {});
    assert.deepEqual(mine.failures, []);
    assert.ok(projectIds(mine.result).includes(DEMO.projectId));
    assert.ok(
      !projectIds(mine.result).includes(DEMO.memberProjectId),
      "the member's project is not the demo user's",
    );
    const theirs = await invoke(member, "getProjects", {});
    assert.ok(
      projectIds(theirs.result).includes(DEMO.memberProjectId),
      "the second instance uses the second key",
    );
    assert.ok(!projectIds(theirs.result).includes(DEMO.projectId));
  });

  it("keeps each instance's key when invokes on both run at once", async () => {
    const rounds = await Promise.all(
      [1, 2, 3].flatMap(() => [invoke(demo, "getProjects", {}), invoke(member, "getProjects", {})]),
    );
    rounds.forEach(({ result }, i) => {
      const [own, other] =
        i % 2 === 0 ? [DEMO.projectId, DEMO.memberProjectId] : [DEMO.memberProjectId, DEMO.projectId];
      assert.ok(projectIds(result).includes(own), `call ${i}: ${projectIds(result)}`);
      assert.ok(!projectIds(result).includes(other), `call ${i} used the other instance's key`);
    });
  });

  it("sends each instance's requests to its own API URL", async () => {
    const elsewhere = await startEmulator({ seed: "demo", opDurationMs: 20 });
    const other = await startPlugin(engine.address);
    try {
      await configure(other, { apiKey: secret(DEMO.personalKey), apiUrl: elsewhere.url });
      const here = emulator.control.requests().length;
      const { result } = await invoke(other, "getProjects", {});
      assert.ok(projectIds(result).includes(DEMO.projectId));
      assert.equal(
        elsewhere.control.requests({ route: "GET /projects" }).length > 0,
        true,
        "sent to its URL",
      );
      assert.equal(emulator.control.requests().length, here, "nothing reached the other instances' API");
    } finally {
      await other.stop();
      await elsewhere.stop();
    }
  });

  it("answers getConnectionUri with the connection string as a secret", async () => {
    const { result, failures } = await invoke(demo, "getConnectionUri", {
      projectId: DEMO.projectId,
      databaseName: "neondb",
      roleName: "neondb_owner",
    });
    assert.deepEqual(failures, []);
    assert.ok(isSecretUri(result.uri), JSON.stringify(result.uri));
  });

  it("answers getOperations and getOperation with the emulator's operations", async () => {
    const { result } = await invoke(demo, "getOperations", { projectId: DEMO.projectId, maxItems: 1 });
    const operations = result.operations as { id: string; projectId: string }[];
    assert.equal(operations.length, 1);
    const one = await invoke(demo, "getOperation", {
      projectId: DEMO.projectId,
      operationId: operations[0]?.id,
    });
    assert.equal((one.result.operation as { id: string }).id, operations[0]?.id);
  });

  it("answers getRegions with the regions projects can be created in", async () => {
    const { result, failures } = await invoke(demo, "getRegions", {});
    assert.deepEqual(failures, []);
    const regions = result.regions as { regionId: string; default: boolean }[];
    assert.deepEqual(
      regions.filter((r) => r.default).map((r) => r.regionId),
      ["aws-us-east-2"],
    );
  });

  it("answers getSchemaDiff with the diff of two schemas, and names a missing database argument before any request", async () => {
    const { result, failures } = await invoke(demo, "getSchemaDiff", {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
      baseBranchId: DEMO.branchId,
      databaseName: "neondb",
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(result, { diff: "", changed: false });
    const before = emulator.control.requests().length;
    const missing = await invoke(demo, "getSchemaDiff", {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
    });
    assert.deepEqual(missing.failures, ["databaseName: getSchemaDiff: databaseName is required"]);
    assert.equal(emulator.control.requests().length, before, "nothing was sent");
  });

  it("answers getAiGateway with the branch's endpoint, and an unknown branch with the route's reason", async () => {
    const gateway = await invoke(demo, "getAiGateway", {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
    });
    assert.deepEqual(gateway, {
      result: { enabled: true, baseUrl: `https://${DEMO.branchId}-api.ai.us-east-2.aws.clouddb.local` },
      failures: [],
    });
    await assert.rejects(
      invoke(demo, "getAiGateway", { projectId: DEMO.projectId, branchId: "br-no-such-branch-00000000" }),
      /branch br-no-such-branch-00000000 not found/,
    );
  });

  it("answers the lookups under the instance's own key, and a name that is not there with what there is", async () => {
    const found = await invoke(demo, "getBranch", { projectId: DEMO.projectId, name: "main" });
    assert.deepEqual(found.failures, []);
    assert.equal((found.result.branch as { id: string }).id, DEMO.branchId);
    const compute = await invoke(demo, "getEndpoint", { projectId: DEMO.projectId, branchId: DEMO.branchId });
    assert.equal((compute.result.endpoint as { id: string }).id, DEMO.endpointId);
    await assert.rejects(
      invoke(demo, "getRole", { projectId: DEMO.projectId, branchId: DEMO.branchId, name: "app" }),
      /getRole: branch br-damp-glitter-adqd4hk5 of project hidden-river-50598307 has no role "app" \(its roles: "neondb_owner"\)/,
    );
    const password = await invoke(demo, "getRolePassword", {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
      roleName: "neondb_owner",
    });
    assert.ok(isSecret(password.result.password), "the role's password is answered as a secret");
    // The member's key cannot see the demo project: the API's refusal, with its request id.
    await assert.rejects(
      invoke(member, "getBranches", { projectId: DEMO.projectId }),
      /403 Forbidden: this personal API key's user has no access to project hidden-river-50598307.*\(request id [0-9a-f-]{36};/,
    );
  });

  it("answers getPreloadLibraries, getAdvisors and getConsumption, and refuses a granularity the declaration does not list", async () => {
    const libraries = await invoke(demo, "getPreloadLibraries", { projectId: DEMO.projectId });
    assert.deepEqual(libraries.failures, []);
    assert.ok(
      (libraries.result.libraries as { name: string }[]).some((l) => l.name === "pg_stat_statements"),
    );
    const advisors = await invoke(demo, "getAdvisors", { projectId: DEMO.projectId, minSeverity: "WARN" });
    assert.deepEqual(advisors, { result: { issues: [] }, failures: [] });
    const at = new Date(emulator.control.now()).toISOString().replace(/\.\d+Z$/, "Z");
    const consumption = await invoke(demo, "getConsumption", {
      projectId: DEMO.orgProjectId,
      from: at,
      to: at,
      granularity: "daily",
      metrics: ["compute_unit_seconds"],
    });
    assert.deepEqual(consumption.failures, []);
    assert.deepEqual(
      (consumption.result.rows as { metric: string }[]).map((r) => r.metric),
      ["compute_unit_seconds"],
    );
    const before = emulator.control.requests().length;
    const weekly = await invoke(demo, "getConsumption", {
      projectId: DEMO.orgProjectId,
      from: at,
      to: at,
      granularity: "weekly",
    });
    assert.equal(weekly.failures.length, 1, weekly.failures.join("; "));
    assert.match(
      weekly.failures[0] ?? "",
      /^granularity: getConsumption: granularity must be one of hourly, daily, monthly/,
    );
    assert.equal(emulator.control.requests().length, before, "nothing was sent");
  });

  it("refuses arguments the declaration does not take, naming each, before any request", async () => {
    const before = emulator.control.requests().length;
    const { failures } = await invoke(demo, "getConnectionUri", {
      projectId: 7,
      databaseName: "neondb",
      nope: 1,
    });
    assert.deepEqual(failures, [
      "projectId: getConnectionUri: projectId must be a string, got 7",
      "roleName: getConnectionUri: roleName is required",
      "nope: getConnectionUri takes no argument nope; it takes projectId, branchId, endpointId, databaseName, roleName, pooled",
    ]);
    assert.equal(emulator.control.requests().length, before, "nothing was sent");
  });

  it("fails with the API's error, naming what is missing and the request id, never the key", async () => {
    const err = await rejection(
      invoke(demo, "getConnectionUri", {
        projectId: DEMO.projectId,
        databaseName: "nodb",
        roleName: "nobody",
      }),
    );
    assert.match(err.details, /getConnectionUri: no connection string for role "nobody" and database "nodb"/);
    assert.match(err.details, /\(request id [0-9a-f-]{36}; /);
    assert.ok(!err.details.includes(DEMO.personalKey));
  });

  it("names the functions it serves when asked for another", async () => {
    const err = await rejection(invoke(demo, "getNothing", {}));
    assert.match(
      err.details,
      /unknown function clouddb:index:getNothing: this provider serves .*clouddb:index:getProjects/,
    );
  });
});
