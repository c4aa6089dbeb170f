// The real Pulumi engine running the provider plugin `pulumi-resource-clouddb` (found on PATH, as
// `npm install` puts the package's bin there): a program that declares branches by type token, one
// on the default provider and one on an explicit provider with another account's key, goes through
// up, refresh, a no-change preview and destroy against the emulator.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack } from "./support/stack";

describe("e2e: the provider plugin under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const live = (id: string) =>
    emulator.control.dumpState().branches.find((b) => b.id === id && b.deleted_at_ms === undefined);

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50 });
    e2e = await programStack({
      workDir: fixture("plugin"),
      emulator,
      language: "nodejs",
      config: {
        plugin: JSON.stringify({
          projectId: DEMO.projectId,
          secondProjectId: DEMO.memberProjectId,
          branchName: "plugin-e2e",
        }),
      },
      secrets: { secondApiKey: DEMO.memberPersonalKey },
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("creates in both accounts, refreshes and previews with no change, and destroys", async () => {
    // Every line the CLI printed, across the commands.
    const printed: string[] = [];
    const up = await e2e.stack.up(collect(e2e.output));
    printed.push(...e2e.output);
    assert.equal(changesOf(up).create, 4, e2e.output.join("\n")); // the stack, the explicit provider, two branches
    const featureId = String(up.outputs.featureId?.value);
    const otherId = String(up.outputs.otherId?.value);
    assert.equal(live(featureId)?.project_id, DEMO.projectId);
    assert.equal(
      live(otherId)?.project_id,
      DEMO.memberProjectId,
      "the explicit provider used the second account",
    );
    const outputs = await e2e.stack.outputs();
    assert.equal(outputs.connectionUri?.secret, true);
    assert.match(String(outputs.connectionUri?.value), /^postgresql:\/\//);
    const state = e2e.rawState();
    assert.ok(!state.includes("postgresql://"), "a connection string is in the state in plain text");
    assert.ok(
      !state.includes(DEMO.memberPersonalKey),
      "the second account's key is in the state in plain text",
    );

    const refresh = await e2e.stack.refresh(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      Object.keys(changesOf(refresh)).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(
      Object.keys(preview.changeSummary).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );

    await e2e.stack.destroy(collect(e2e.output));
    printed.push(...e2e.output);
    for (const key of [DEMO.personalKey, DEMO.memberPersonalKey]) {
      assert.ok(!printed.some((line) => line.includes(key)), "a key is in the CLI's output");
    }
    assert.equal(live(featureId), undefined);
    assert.equal(live(otherId), undefined);
  });
});
