// `pulumi import` into a Java program, through the provider plugin, under the real engine: a branch
// made outside Pulumi (as a script or the console would) is brought into the stack by its id; the
// Java language host writes the Java code that declares it; the program that declares it as it is
// then previews and refreshes with no change, its connection string stored encrypted, and destroy
// deletes it. Neither the key nor a password shows in the state or the CLI's output.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { projectIdle } from "../provider/support";
import { fixture, programStack } from "./support/programStack";
import {
  collect,
  type E2eStack,
  isEncryptedSecret,
  leaks,
  leaksUnder,
  stateResources,
} from "./support/stack";

const PROJECT = DEMO.projectId;

const changes = (summary: Record<string, number | undefined>) =>
  Object.keys(summary).filter((kind) => kind !== "same");

describe("e2e: pulumi import into a java program, through the provider plugin", function () {
  // A Java program is built by Maven on every run.
  this.timeout(20 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let branchId = "";

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    branchId = (await client.createBranch(PROJECT, { branch: { name: "feature" } })).branch.id;
    await projectIdle(emulator, PROJECT);
    e2e = await programStack({
      copyOf: fixture("import-java"),
      emulator,
      language: "java",
      config: { projectId: PROJECT },
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports the branch by its id with Java code for it, previews and refreshes with no change, destroy deletes it", async () => {
    const printed: string[] = [];
    const resources = [{ type: "clouddb:index:Branch", name: "feature", id: `${PROJECT}/${branchId}` }];
    const imported = await e2e.stack.import({ resources, generateCode: true, ...collect(e2e.output) });
    printed.push(...e2e.output, imported.generatedCode);
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    // The Java language host's GenerateProgram: the code that declares what was imported.
    assert.match(imported.generatedCode, /new Branch\("feature", BranchArgs\.builder\(\)/);
    assert.match(imported.generatedCode, /import io\.github\.pulumiclouddb\.clouddb\.Branch;/);

    const branch = stateResources(e2e.rawState()).find((r) => r.type === "clouddb:index:Branch");
    assert.equal(branch?.id, branchId, "the branch is recorded by its own id");
    assert.ok(isEncryptedSecret(branch?.outputs?.connectionUri), "its connection string is stored encrypted");

    const preview = await e2e.stack.preview(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(changes(preview.changeSummary), [], e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(changes(refresh.summary.resourceChanges ?? {}), [], e2e.output.join("\n"));
    const up = await e2e.stack.up(collect(e2e.output));
    printed.push(...e2e.output);
    assert.deepEqual(changes(up.summary.resourceChanges ?? {}), [], e2e.output.join("\n"));
    assert.equal((await e2e.stack.outputs()).branchId?.value, branchId);

    await e2e.stack.destroy(collect(e2e.output));
    printed.push(...e2e.output);
    const live = emulator.control
      .dumpState()
      .branches.filter((b) => b.id === branchId && b.deleted_at_ms === undefined);
    assert.deepEqual(live, [], "destroy deleted the imported branch");
    assert.deepEqual(
      leaksUnder(e2e.backendDir),
      [],
      "a key or a connection string with its password in a state file",
    );
    assert.deepEqual(
      leaks(printed.join("\n")),
      [],
      "a key or a connection string with its password in the output",
    );
  });
});
