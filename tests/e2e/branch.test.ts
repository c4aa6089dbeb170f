// A preview environment's branch under the real Pulumi engine, installed from `npm pack`, against
// the emulator: its connection string is a secret everywhere in the state (after up and refresh),
// the same program is a no-change, a rename and a reset happen in place.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, isEncryptedSecret, mutatingRequests } from "./support/stack";

interface StateResource {
  type: string;
  outputs: Record<string, unknown>;
}

describe("e2e: a preview environment's Branch under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let branchId: string;

  const pr = {
    res: "pr",
    projectId: DEMO.projectId,
    name: "pr-7",
    endpoints: [{ type: "read_write" }],
    extra: { ttl: "7d", resetTrigger: "r1" } as Record<string, unknown>,
  };
  const setScenario = () => e2e.stack.setConfig("scenario", { value: JSON.stringify({ branches: [pr] }) });
  const mutations = () => mutatingRequests(emulator).map((r) => r.route);
  const changes = changesOf;
  const up = async () => e2e.stack.up(collect(e2e.output));
  /** The branch's two connection strings and the stack output made from one: each encrypted in the state file. */
  const assertStoredEncrypted = () => {
    const resources = (JSON.parse(e2e.rawState()).checkpoint.latest as { resources: StateResource[] })
      .resources;
    const branch = resources.find((r) => r.type === "pulumi-nodejs:dynamic/clouddb:Branch");
    const stack = resources.find((r) => r.type === "pulumi:pulumi:Stack");
    for (const value of [
      branch?.outputs.connectionUri,
      branch?.outputs.pooledConnectionUri,
      (stack?.outputs.connections as Record<string, unknown> | undefined)?.pr,
    ]) {
      assert.ok(isEncryptedSecret(value), `stored as an encrypted secret: ${JSON.stringify(value)}`);
    }
  };
  const plaintextUris = () => e2e.rawState().match(/postgres(ql)?:\/\/[^"\\]*/g) ?? [];

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({ packed: fixture("scenario"), emulator });
    await setScenario();
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("creates the branch with a secret connection string that is nowhere in the state in plain text", async () => {
    assert.equal(changes(await up()).create, 2, e2e.output.join("\n"));
    const out = await e2e.stack.outputs();
    branchId = (out.branches!.value as Record<string, string>).pr!;
    const uri = (out.connections!.value as Record<string, string>).pr!;
    assertStoredEncrypted();
    assert.match(uri, /^postgresql:\/\//);
    assert.deepEqual(plaintextUris(), [], "no connection string in the state in plain text");
    assert.ok(!e2e.rawState().includes(new URL(uri).password), "no password in the state in plain text");
    const live = emulator.control.dumpState().branches.find((b) => b.id === branchId);
    assert.ok(live?.expires_at_ms !== undefined, "the ttl became an expiry");
  });

  it("makes no change and no API mutation on a second up", async () => {
    emulator.control.clearRequests();
    assert.deepEqual(changes(await up()), { same: 2 }, e2e.output.join("\n"));
    assert.deepEqual(mutations(), []);
  });

  it("renames in place with one PATCH, keeping the branch id", async () => {
    pr.name = "pr-7-renamed";
    await setScenario();
    emulator.control.clearRequests();
    assert.equal(changes(await up()).update, 1, e2e.output.join("\n"));
    assert.deepEqual(mutations(), ["PATCH /projects/{project_id}/branches/{branch_id}"]);
    const out = await e2e.stack.outputs();
    assert.equal((out.branches!.value as Record<string, string>).pr, branchId);
  });

  it("resets the branch from its parent in place when resetTrigger changes", async () => {
    pr.extra.resetTrigger = "r2";
    await setScenario();
    emulator.control.clearRequests();
    assert.equal(changes(await up()).update, 1, e2e.output.join("\n"));
    assert.deepEqual(mutations(), ["POST /projects/{project_id}/branches/{branch_id}/restore"]);
    const branch = emulator.control.dumpState().branches.find((b) => b.id === branchId);
    assert.ok(branch?.last_reset_at_ms !== undefined, "the branch was reset");
    assert.deepEqual(plaintextUris(), []);
  });

  it("refreshes into no change, the connection string still encrypted", async () => {
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 2 }, e2e.output.join("\n"));
    assert.deepEqual(plaintextUris(), [], "refresh kept the connection strings secret");
    assertStoredEncrypted();
    emulator.control.clearRequests();
    assert.deepEqual(changes(await up()), { same: 2 }, e2e.output.join("\n"));
    assert.deepEqual(mutations(), []);
  });

  it("`pulumi up --replace <urn>` keeps one state entry and a live branch, never deleting the branch it took", async () => {
    const urn = `urn:pulumi:${e2e.stack.name}::clouddb-e2e-scenario::pulumi-nodejs:dynamic/clouddb:Branch::pr`;
    const replaced = await e2e.stack.up({ ...collect(e2e.output), replace: [urn] });
    assert.equal(changes(replaced).replace, 1, e2e.output.join("\n"));
    const entries = (
      JSON.parse(e2e.rawState()).checkpoint.latest as {
        resources: (StateResource & { urn: string; id: string })[];
      }
    ).resources.filter((r) => r.urn === urn);
    assert.equal(entries.length, 1, "one state entry for the branch");
    const live = emulator.control.dumpState().branches.find((b) => b.id === entries[0]?.id);
    assert.ok(live !== undefined && live.deleted_at_ms === undefined, "the recorded branch exists");
    assert.ok(e2e.output.join("\n").includes("is kept, not deleted"), e2e.output.join("\n"));
    emulator.control.clearRequests();
    assert.deepEqual(changes(await up()), { same: 2 }, e2e.output.join("\n"));
  });

  it("an up whose create_branch is cancelled leaves nothing behind, and the next up makes the branch", async () => {
    const second = {
      res: "pr2",
      projectId: DEMO.projectId,
      name: "pr-8",
      endpoints: [{ type: "read_write" }],
    };
    await e2e.stack.setConfig("scenario", { value: JSON.stringify({ branches: [pr, second] }) });
    emulator.control.scriptOperations(
      { action: "create_branch", projectId: DEMO.projectId, count: 1 },
      { kind: "cancelled" },
    );
    const failed = await up().then(
      () => assert.fail("the up succeeded"),
      (err: Error) => err,
    );
    assert.match(failed.message, /create_branch operation \S+ ended cancelled/);
    assert.match(
      failed.message,
      /it was deleted and nothing is recorded in the state\. Run `pulumi up` again/,
    );
    const named = () => emulator.control.dumpState().branches.filter((b) => b.name === "pr-8");
    assert.deepEqual(
      named().map((b) => b.deleted_at_ms !== undefined),
      [true],
      "the begun branch is deleted",
    );
    assert.equal(changes(await up()).create, 1, e2e.output.join("\n"));
    const live = named().filter((b) => b.deleted_at_ms === undefined);
    assert.equal(live.length, 1);
    const out = await e2e.stack.outputs();
    assert.equal((out.branches!.value as Record<string, string>).pr2, live[0]?.id);
    assert.deepEqual(changes(await up()), { same: 3 }, e2e.output.join("\n"));
  });
});

describe("e2e: destroy after the stack's key was rotated and the old one revoked", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const mutations = () => mutatingRequests(emulator).map((r) => `${r.route} ${r.status}`);
  const keyOf = (name: string) => emulator.control.createApiKey({ userId: DEMO.userId, name });
  let first: { id: number; key: string };
  let second: { id: number; key: string };

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    first = keyOf("first");
    e2e = await programStack({
      packed: fixture("scenario"),
      emulator,
      apiKey: first.key,
      stackName: "rotate",
    });
    const scenario = {
      branches: [{ res: "b", projectId: DEMO.projectId, name: "rotated-config" }],
      keys: [{ res: "k", name: "ci" }],
    };
    await e2e.stack.setConfig("scenario", { value: JSON.stringify(scenario) });
    assert.equal(changesOf(await e2e.stack.up(collect(e2e.output))).create, 3, e2e.output.join("\n"));
    second = keyOf("second");
    await e2e.stack.setConfig("clouddb:apiKey", { value: second.key, secret: true });
    emulator.control.revokeApiKey(first.id);
  });
  after(async () => {
    await e2e?.dispose({ destroy: { runProgram: true } });
    await emulator?.stop();
  });

  it("the engine gives a plain destroy the recorded key: it fails, saying how to pass the current one", async () => {
    emulator.control.clearRequests();
    const failed = await e2e.stack.destroy(collect(e2e.output)).then(
      () => assert.fail("destroyed with a revoked key"),
      (err: Error) => err,
    );
    assert.match(failed.message, /deleting branch br-[a-z0-9-]+ \(rotated-config\) in project/);
    assert.match(failed.message, /`--run-program` \(or PULUMI_RUN_PROGRAM=true\)/);
    assert.ok(
      !failed.message.includes(first.key) && !failed.message.includes(second.key),
      "no key in the output",
    );
    assert.deepEqual(mutations().sort(), [
      "DELETE /api_keys/{key_id} 401",
      "DELETE /projects/{project_id}/branches/{branch_id} 401",
    ]);
  });

  it("destroys with the current key from CLOUDDB_API_KEY", async () => {
    e2e.stack.workspace.envVars.CLOUDDB_API_KEY = second.key;
    emulator.control.clearRequests();
    const destroyed = await e2e.stack.destroy(collect(e2e.output));
    assert.equal(changesOf(destroyed).delete, 3, e2e.output.join("\n"));
    const used = emulator.control.requests().filter((r) => r.method === "DELETE" && r.status === 200);
    assert.deepEqual(used.map((r) => [r.route, r.keyId]).sort(), [
      ["DELETE /api_keys/{key_id}", second.id],
      ["DELETE /projects/{project_id}/branches/{branch_id}", second.id],
    ]);
  });
});
