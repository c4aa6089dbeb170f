// A preview environment's branch under the real Pulumi engine, installed from `npm pack`, against
// the emulator: its connection string is a secret everywhere in the state (after up and refresh),
// the same program is a no-change, a rename and a reset happen in place.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { installPackedProject } from "./support/package";
import {
  changesOf,
  collect,
  createStack,
  type E2eStack,
  isEncryptedSecret,
  mutatingRequests,
} from "./support/stack";

interface StateResource {
  type: string;
  outputs: Record<string, unknown>;
}

describe("e2e: a preview environment's Branch under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let project: string;
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
    project = installPackedProject(path.join(__dirname, "fixtures/scenario"));
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await createStack({ workDir: project, apiUrl: emulator.url, apiKey: DEMO.personalKey });
    await setScenario();
  });
  after(async () => {
    await e2e?.stack.destroy().catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
    if (project) fs.rmSync(project, { recursive: true, force: true });
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
    const live = emulator.control.snapshot().branches.find((b) => b.id === branchId);
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
    const branch = emulator.control.snapshot().branches.find((b) => b.id === branchId);
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
});
