// The real Pulumi engine destroying a branch that was protected outside Pulumi, with a role and a
// database on it: the engine deletes those first, and they refuse before anything is deleted,
// saying what to do; after `pulumi up --refresh` the destroy deletes all three. Before that, a
// preview of the unchanged program (the role and database unnamed) makes no API call.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { projectIdle } from "../provider/support";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests } from "./support/stack";

describe("e2e: destroying a branch protected outside Pulumi", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let branchId: string;
  let names = { role: "", database: "" };

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({
      packed: fixture("protected-branch"),
      emulator,
      config: { projectId: DEMO.projectId, parentId: DEMO.branchId },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("makes the branch, its role and its database", async () => {
    // The stack itself, the branch, the role and the database.
    assert.equal(changesOf(await e2e.stack.up(collect(e2e.output))).create, 4, e2e.output.join("\n"));
    const outputs = await e2e.stack.outputs();
    branchId = String(outputs.branchId?.value);
    names = { role: String(outputs.roleName?.value), database: String(outputs.databaseName?.value) };
  });

  it("previews the unchanged program with no API call", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.equal(preview.changeSummary.same, 4, e2e.output.join("\n"));
    assert.deepEqual(
      emulator.control.requests().map((r) => `${r.method} ${r.path}`),
      [],
    );
  });

  it("fails the destroy before deleting anything when the branch was protected outside Pulumi, saying what to do", async () => {
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
    await client.updateBranch(DEMO.projectId, branchId, { protected: true });
    await projectIdle(emulator, DEMO.projectId);
    emulator.control.clearRequests();
    const failed = await e2e.stack.destroy(collect(e2e.output)).then(
      () => assert.fail("the destroy went through"),
      (err: Error) => err,
    );
    assert.match(failed.message, /is not deleted: its branch br-\S+ \(feature\) is protected/);
    assert.match(failed.message, /run `pulumi up --refresh` \(the Branch then turns the protection off\)/);
    assert.doesNotMatch(failed.message, /Set protected: false/);
    // No line of the engine's report ends with a dangling ": " after the message.
    assert.doesNotMatch(`${failed.message}\n${e2e.output.join("\n")}`, /\.: *$/m);
    assert.deepEqual(mutatingRequests(emulator), [], "nothing was deleted");
    const branch = emulator.control.dumpState().branches.find((b) => b.id === branchId);
    assert.deepEqual(
      [
        branch?.roles.some((r) => r.name === names.role),
        branch?.databases.some((d) => d.name === names.database),
      ],
      [true, true],
    );
  });

  it("destroys all three after `pulumi up --refresh` turns the protection off", async () => {
    await e2e.stack.up({ ...collect(e2e.output), refresh: true });
    const destroyed = await e2e.stack.destroy(collect(e2e.output));
    assert.equal(changesOf(destroyed).delete, 4, e2e.output.join("\n"));
  });
});
