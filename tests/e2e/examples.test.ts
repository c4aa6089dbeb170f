// The in-repo examples under the real Pulumi engine, against the emulator: the quickstart through
// the root Pulumi.yaml (what `npm start` runs), and the GitOps preview-branches pattern.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { apiKeySecretsIn, collect, createStack, type E2eStack, ROOT } from "./support/stack";

describe("e2e: the in-repo examples under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack | undefined;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
  });
  after(async () => emulator?.stop());
  afterEach(async () => {
    if (e2e === undefined) return;
    await e2e.stack.destroy().catch(() => undefined);
    await e2e.dispose();
    // The Automation API writes the stack's config file next to Pulumi.yaml.
    fs.rmSync(path.join(e2e.stack.workspace.workDir, `Pulumi.${e2e.stack.name}.yaml`), { force: true });
    e2e = undefined;
  });

  it("quickstart (the root project): creates three keys and two branches, reads projects and operations, destroys", async () => {
    e2e = await createStack({
      workDir: ROOT,
      stackName: `e2e-quickstart-${process.pid}`,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 6, e2e.output.join("\n"));
    const out = await e2e.stack.outputs();
    const secrets = apiKeySecretsIn(e2e.rawState());
    assert.equal(secrets.length, 3);
    for (const s of secrets) assert.ok(s.encrypted, `${s.urn}: key not encrypted in state`);
    const keys = out.keys!.value as Record<string, { id: number; token: string }>;
    assert.deepEqual(Object.keys(keys).sort(), ["app", "ci", "org"]);
    const branches = out.branches!.value as {
      dev: { endpoints: { type: string }[] };
      feature: { parent: string };
    };
    assert.deepEqual(branches.dev.endpoints.map((e) => e.type).sort(), ["read_only", "read_write"]);
    assert.ok((out.organizationProjects!.value as string[]).some((p) => p.startsWith(DEMO.orgProjectId)));
    const ops = out.recentOperations!.value as string[];
    assert.ok(ops.includes("create_branch: finished"), ops.join(", "));
    await e2e.stack.destroy(collect(e2e.output));
    const snap = emulator.control.snapshot();
    for (const k of Object.values(keys)) assert.equal(snap.apiKeys.find((x) => x.id === k.id)?.revoked, true);
  });

  it("preview-branches: adding a pull request creates its branch and key, removing it deletes both", async () => {
    e2e = await createStack({
      workDir: path.join(ROOT, "examples/preview-branches"),
      stackName: `e2e-previews-${process.pid}`,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      config: { orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    });
    await e2e.stack.setConfig("pullRequests", { value: "[101, 102]" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.create, 5, e2e.output.join("\n"));
    const previews = (await e2e.stack.outputs()).previews!.value as Record<
      string,
      { branchId: string; keyId: number }
    >;
    assert.deepEqual(Object.keys(previews).sort(), ["pr-101", "pr-102"]);

    await e2e.stack.setConfig("pullRequests", { value: "[102]" });
    const shrink = await e2e.stack.up(collect(e2e.output));
    assert.equal(shrink.summary.resourceChanges?.delete, 2, e2e.output.join("\n"));
    const snap = emulator.control.snapshot();
    const gone = previews["pr-101"]!;
    assert.ok(
      snap.branches.find((b) => b.id === gone.branchId)?.deleted_at_ms !== undefined,
      "branch deleted",
    );
    assert.equal(snap.apiKeys.find((k) => k.id === gone.keyId)?.revoked, true, "key revoked");
    const kept = previews["pr-102"]!;
    assert.equal(snap.branches.find((b) => b.id === kept.branchId)?.deleted_at_ms, undefined);
  });
});
