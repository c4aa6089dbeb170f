// What a preview must say before an `up` changes what cannot be changed back, through the provider
// plugin under the real engine: the plugin sends the line to the engine's Log (the engine hides a
// resource plugin's stdout), and the preview shows it; turning it back off fails the preview.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

describe("e2e: a preview through the provider plugin says what an up cannot undo", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    e2e = await programStack({ copyOf: fixture("replication-yaml"), emulator, language: "yaml" });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("shows that turning logical replication on cannot be undone, then refuses turning it off", async () => {
    await e2e.stack.up(collect(e2e.output));
    await e2e.stack.setConfig("replicate", { value: "true" });
    await e2e.stack.preview(collect(e2e.output));
    const note =
      /project \S+ \(replicated\): the update turns logical replication on, which restarts every compute of the project and cannot be undone/;
    assert.ok(
      e2e.output.some((line) => note.test(line)),
      e2e.output.join("\n"),
    );
    await e2e.stack.up(collect(e2e.output));
    const project = emulator.control.dumpState().projects.find((p) => p.name === "replicated");
    assert.equal(project?.settings?.enable_logical_replication, true);

    await e2e.stack.setConfig("replicate", { value: "false" });
    await assert.rejects(
      e2e.stack.preview(collect(e2e.output)),
      /enableLogicalReplication cannot be turned off: the service keeps logical replication on once it is on/,
    );
    await e2e.stack.setConfig("replicate", { value: "true" });
    await e2e.stack.destroy(collect(e2e.output));
  });
});
