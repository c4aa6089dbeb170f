// Two explicit `pulumi:providers:clouddb` in one YAML stack, each with its own account's key: each
// branch is made with the key of the provider its options name (the second in a project only that
// account can see), a function invoked on the second provider lists that account's projects, a
// PreviewEnvironment on the second provider makes its children and runs its lookups with that
// provider's key, and nothing reaches the default provider.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { sqlOutcome } from "../emulator/helpers";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

describe("e2e: two explicit providers on two accounts in one stack, through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const live = (id: unknown) =>
    emulator.control.dumpState().branches.find((b) => b.id === id && b.deleted_at_ms === undefined);

  before(async () => {
    // A real Postgres behind the computes: the PreviewEnvironment's runtime role is made over SQL.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50, postgres: true });
    // No emulator for the stack: the default provider has no key and no URL.
    e2e = await programStack({
      copyOf: fixture("two-accounts-yaml"),
      language: "yaml",
      config: { apiUrl: emulator.url, firstProjectId: DEMO.projectId, secondProjectId: DEMO.memberProjectId },
      secrets: { firstApiKey: DEMO.personalKey, secondApiKey: DEMO.memberPersonalKey },
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100", PGSSLROOTCERT: emulator.caPath ?? "" },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("creates in both accounts, previews with no change and destroys, the keys never in the state or the output", async () => {
    const printed: string[] = [];
    const up = await e2e.stack.up(collect(e2e.output));
    printed.push(...e2e.output);
    // The stack, two providers, two branches; the environment and its branch, owner, database,
    // compute and runtime role's grants.
    assert.equal(up.summary.resourceChanges?.create, 11, e2e.output.join("\n"));
    const { mineId, theirsId, secondProjects, previewBranchId, previewRuntimeUri } = up.outputs;
    assert.equal(live(mineId?.value)?.project_id, DEMO.projectId);
    assert.equal(
      live(theirsId?.value)?.project_id,
      DEMO.memberProjectId,
      "made with the second account's key",
    );
    const ids = ((secondProjects?.value ?? []) as { id: string }[]).map((p) => p.id);
    assert.ok(ids.includes(DEMO.memberProjectId), `the second account's projects: ${ids}`);
    assert.ok(!ids.includes(DEMO.projectId), "getProjects on the second provider used the second key");
    const creates = emulator.control.requests({ route: "POST /projects/{project_id}/branches" });
    assert.deepEqual(
      creates.map((r) => [r.path.split("/")[2], r.keyId]).sort(),
      [
        [DEMO.projectId, DEMO.personalKeyId],
        [DEMO.memberProjectId, DEMO.memberPersonalKeyId],
        [DEMO.memberProjectId, DEMO.memberPersonalKeyId], // the environment's branch
      ].sort(),
      "each branch was created with its provider's key",
    );
    assert.equal(live(previewBranchId?.value)?.project_id, DEMO.memberProjectId);
    assert.equal(
      await sqlOutcome(String(previewRuntimeUri?.value), emulator.caPath, "SELECT 1"),
      "ok",
      "the environment's runtime role logs in",
    );
    // Its lookups (the parent branch, its databases, the connection string) and its children's
    // requests used the second provider's key.
    const previewRequests = emulator.control
      .requests()
      .filter((r) => r.path.startsWith(`/projects/${DEMO.memberProjectId}`));
    assert.ok(
      previewRequests.some((r) => r.method === "GET"),
      "the lookups reached the API",
    );
    assert.deepEqual(
      [...new Set(previewRequests.map((r) => r.keyId))],
      [DEMO.memberPersonalKeyId],
      "every request on the second account's project carried its key",
    );

    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      Object.keys(preview.changeSummary).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    const state = e2e.rawState();
    for (const key of [DEMO.personalKey, DEMO.memberPersonalKey]) {
      assert.ok(!state.includes(key), "a key is in the state in plain text");
    }
    await e2e.stack.destroy(collect(e2e.output));
    printed.push(...e2e.output);
    assert.equal(live(mineId?.value), undefined);
    assert.equal(live(theirsId?.value), undefined);
    for (const key of [DEMO.personalKey, DEMO.memberPersonalKey]) {
      assert.ok(!printed.some((line) => line.includes(key)), "a key is in the CLI's output");
    }
  });
});
