// The real Pulumi engine driving the package installed from `npm pack`, against the emulator:
// preview, up, no-op up, secrets in state, in-place update vs replace, rotation, refresh after
// out-of-band changes, destroy; then parallel branches and a cancelled operation.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { installPackedProject, oldestPulumi } from "./support/package";
import { fixture, programStack } from "./support/programStack";
import { apiKeySecretsIn, changesOf, collect, type E2eStack, mutatingRequests } from "./support/stack";

interface KeySpec {
  res: string;
  name: string;
  orgId?: string;
  projectId?: string;
  rotationTrigger?: string;
}
interface BranchSpec {
  res: string;
  projectId: string;
  name: string;
  parent?: string;
  endpoints?: { type: string }[];
}
interface Scenario {
  keys?: KeySpec[];
  branches?: BranchSpec[];
}

describe("e2e: the package installed from npm pack, under the real Pulumi engine", function () {
  this.timeout(15 * 60 * 1000);
  let project: string;
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const setScenario = (s: Scenario) => e2e.stack.setConfig("scenario", { value: JSON.stringify(s) });
  const mutations = () => mutatingRequests(emulator);
  const state = () => e2e.rawState();
  const outputs = async () => e2e.stack.outputs();
  const changes = changesOf;

  before(async () => {
    // A user's program brings its own @pulumi/pulumi: the oldest one the package claims to work with.
    project = installPackedProject(fixture("scenario"), {}, oldestPulumi());
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => {
    await emulator?.stop();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  describe("one stack through its life", () => {
    const org = DEMO.orgId;
    const proj = DEMO.orgProjectId;
    const scenario: Scenario = {
      keys: [
        { res: "ci", name: "ci" },
        { res: "org", name: "org-automation", orgId: org },
        { res: "app", name: "app", orgId: org, projectId: proj, rotationTrigger: "r1" },
      ],
      branches: [
        {
          res: "dev",
          projectId: proj,
          name: "dev",
          endpoints: [{ type: "read_write" }, { type: "read_only" }],
        },
        { res: "child", projectId: proj, name: "dev-child", parent: "dev" },
      ],
    };
    const created: { keys: Record<string, number>; branches: Record<string, string> } = {
      keys: {},
      branches: {},
    };

    before(async () => {
      e2e = await programStack({ workDir: project, emulator });
      await setScenario(scenario);
    });
    after(async () => e2e?.dispose());

    it("previews a new stack without a single mutating API call", async () => {
      emulator.control.clearRequests();
      const preview = await e2e.stack.preview(collect(e2e.output));
      assert.equal(preview.changeSummary.create, 6, e2e.output.join("\n"));
      assert.deepEqual(mutations(), []);
    });

    it("creates every key and branch with up, and the serialized provider requires the package by name", async () => {
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).create, 6, e2e.output.join("\n"));
      const out = await outputs();
      for (const [res, v] of Object.entries(out.keys!.value as Record<string, { id: number }>))
        created.keys[res] = v.id;
      Object.assign(created.branches, out.branches!.value);
      const snap = emulator.control.dumpState();
      for (const id of Object.values(created.keys)) {
        assert.equal(snap.apiKeys.find((k) => k.id === id)?.revoked, false, `key ${id} active`);
      }
      for (const id of Object.values(created.branches)) {
        assert.ok(
          snap.branches.some((b) => b.id === id && b.deleted_at_ms === undefined),
          `branch ${id} exists`,
        );
      }
      // The provider in the state requires the package's export by name and names the kind, so it
      // works from any checkout path and whichever file holds the kind.
      const text = state();
      assert.match(text, /require\(\\"pulumi-clouddb\/dynamic\\"\)\.provider\(\\"ApiKey\\"\)/);
      assert.ok(!text.includes(project), "the serialized provider holds a machine-specific path");
    });

    it("makes no change and no API mutation on a second up", async () => {
      emulator.control.clearRequests();
      const up = await e2e.stack.up(collect(e2e.output));
      assert.deepEqual(changes(up), { same: 6 });
      assert.deepEqual(mutations(), []);
    });

    it("keeps key tokens and the API credential out of the state in plain text; key outputs are secrets", async () => {
      const out = await outputs();
      const tokens = Object.values(out.keys!.value as Record<string, { token: string }>).map((k) => k.token);
      assert.equal(tokens.length, 3);
      const secrets = apiKeySecretsIn(state());
      assert.equal(secrets.length, 3);
      for (const s of secrets) assert.ok(s.encrypted, `${s.urn}: key is not stored as an encrypted secret`);
      const text = state();
      for (const token of tokens) {
        assert.match(token, /^napi_[a-z0-9]{64}$/);
        assert.ok(!text.includes(token), "a key token is in the state in plain text");
      }
      assert.ok(!text.includes(DEMO.personalKey), "the API credential is in the state");
      assert.ok(!/napi_[a-z0-9]{64}/.test(text), "some token is in the state in plain text");
    });

    it("renames a branch in place (same id, PATCH)", async () => {
      scenario.branches![0]!.name = "dev-renamed";
      await setScenario(scenario);
      emulator.control.clearRequests();
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).update, 1, e2e.output.join("\n"));
      const out = await outputs();
      assert.equal((out.branches!.value as Record<string, string>).dev, created.branches.dev);
      assert.deepEqual(
        mutations().map((r) => r.route),
        ["PATCH /projects/{project_id}/branches/{branch_id}"],
      );
      const dev = emulator.control.dumpState().branches.find((b) => b.id === created.branches.dev);
      assert.equal(dev?.name, "dev-renamed");
    });

    it("replaces a branch whose parent changes, deleting the old one first because it keeps its unique name", async () => {
      scenario.branches![1]!.parent = DEMO.orgBranchId;
      await setScenario(scenario);
      emulator.control.clearRequests();
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).replace, 1, e2e.output.join("\n"));
      const child = ((await outputs()).branches!.value as Record<string, string>).child!;
      assert.notEqual(child, created.branches.child);
      const snap = emulator.control.dumpState();
      assert.equal(snap.branches.find((b) => b.id === child)?.parent_id, DEMO.orgBranchId);
      assert.ok(
        snap.branches.find((b) => b.id === created.branches.child)?.deleted_at_ms !== undefined,
        "old child deleted",
      );
      const routes = mutations().map((r) => r.route);
      const deleted = routes.indexOf("DELETE /projects/{project_id}/branches/{branch_id}");
      assert.ok(
        deleted >= 0 && deleted < routes.indexOf("POST /projects/{project_id}/branches"),
        routes.join("\n"),
      );
      created.branches.child = child;
    });

    it("rotates a key when rotationTrigger changes: the new key exists before the old is revoked", async () => {
      scenario.keys![2]!.rotationTrigger = "r2";
      await setScenario(scenario);
      emulator.control.clearRequests();
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).replace, 1, e2e.output.join("\n"));
      const app = ((await outputs()).keys!.value as Record<string, { id: number }>).app!.id;
      assert.notEqual(app, created.keys.app);
      const routes = mutations().map((r) => `${r.method} ${r.path}`);
      const createdAt = routes.indexOf(`POST /organizations/${DEMO.orgId}/api_keys`);
      const revokedAt = routes.findIndex((r) => r.endsWith(`/api_keys/${created.keys.app}`));
      assert.ok(createdAt >= 0 && revokedAt > createdAt, routes.join("\n"));
      const snap = emulator.control.dumpState();
      assert.equal(snap.apiKeys.find((k) => k.id === created.keys.app)?.revoked, true);
      created.keys.app = app;
    });

    it("drops an out-of-band revoked key and deleted branch on refresh, and recreates them on up", async () => {
      emulator.control.revokeApiKey(created.keys.ci!);
      emulator.control.deleteBranch(DEMO.orgProjectId, created.branches.child!);
      const refresh = await e2e.stack.refresh(collect(e2e.output));
      assert.equal(refresh.summary.resourceChanges?.delete, 2, e2e.output.join("\n"));
      // Refreshed keys keep their token, still stored encrypted.
      const secrets = apiKeySecretsIn(state());
      assert.equal(secrets.length, 2);
      for (const s of secrets) assert.ok(s.encrypted, `${s.urn}: key not encrypted after refresh`);
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).create, 2, e2e.output.join("\n"));
      const out = await outputs();
      assert.notEqual((out.keys!.value as Record<string, { id: number }>).ci!.id, created.keys.ci);
      assert.notEqual((out.branches!.value as Record<string, string>).child, created.branches.child);
      created.keys.ci = (out.keys!.value as Record<string, { id: number }>).ci!.id;
      created.branches.child = (out.branches!.value as Record<string, string>).child!;
    });

    it("revokes every key and deletes every branch on destroy", async () => {
      await e2e.stack.destroy(collect(e2e.output));
      const snap = emulator.control.dumpState();
      for (const id of Object.values(created.keys)) {
        assert.equal(snap.apiKeys.find((k) => k.id === id)?.revoked, true, `key ${id} revoked`);
      }
      for (const id of Object.values(created.branches)) {
        assert.ok(
          snap.branches.find((b) => b.id === id)?.deleted_at_ms !== undefined,
          `branch ${id} deleted`,
        );
      }
    });
  });

  describe("under load and failure", () => {
    beforeEach(async () => {
      e2e = await programStack({ workDir: project, emulator });
    });
    afterEach(async () => e2e.dispose({ destroy: true }));

    it("creates 10 branches of one project in one up with zero 423 responses", async () => {
      const branches = Array.from({ length: 10 }, (_, i) => ({
        res: `b${i}`,
        projectId: DEMO.projectId,
        name: `parallel-${i}`,
        endpoints: [{ type: "read_write" }],
      }));
      await setScenario({ branches });
      emulator.control.clearRequests();
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).create, 11, e2e.output.join("\n"));
      assert.equal(emulator.control.requests({ status: 423 }).length, 0);
      const ids = Object.values((await outputs()).branches!.value as Record<string, string>);
      assert.equal(new Set(ids).size, 10);
    });

    it("records a branch whose operation is cancelled, fails naming the operation, and converges on the next up", async () => {
      await setScenario({
        branches: [
          { res: "dev", projectId: DEMO.projectId, name: "cancel-me", endpoints: [{ type: "read_write" }] },
        ],
      });
      emulator.control.scriptOperations({ action: "start_compute", count: 1 }, { kind: "cancelled" });
      await assert.rejects(e2e.stack.up(collect(e2e.output)), (err: Error) => {
        assert.match(err.message, /start_compute/);
        assert.match(err.message, /cancelled/);
        return true;
      });
      // The state file as stored (secrets stay encrypted; exportStack would decrypt them).
      const deployment = JSON.parse(e2e.rawState()).checkpoint.latest as {
        resources: { type: string; id?: string; initErrors?: string[] }[];
      };
      const branch = deployment.resources.find((r) => r.type === "pulumi-nodejs:dynamic/clouddb:Branch");
      assert.ok(branch?.id?.startsWith("br-"), "the branch is in the state, not orphaned");
      assert.ok((branch?.initErrors ?? []).length > 0);
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(changes(up).update, 1, e2e.output.join("\n"));
      const again = await e2e.stack.up(collect(e2e.output));
      assert.deepEqual(changes(again), { same: 2 });
    });
  });
});
