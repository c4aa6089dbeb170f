import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { ResourceError } from "../../provider/resources/errors";
import { configureFromStack } from "../../provider/resources/host/settings";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { clearStackConfig, fakeConfig, useEmulator, useTestEnv } from "./support";

// A `pulumi destroy` or `refresh` that does not run the program configures the provider with the
// stack config the last `up` recorded: after a key rotation, a revoked key. The methods then use the
// key of this run's environment, or say how to pass the current one.

describe("provider methods with a revoked key from the recorded stack config", () => {
  const harness = useEmulator();
  const env = useTestEnv();
  afterEach(() => clearStackConfig());

  /** A branch made with a fresh key set as the stack config, that key then revoked. */
  async function branchOfRevokedKey(name: string) {
    const recorded = harness.emulator.control.createApiKey({ userId: DEMO.userId, name: `recorded-${name}` });
    configureFromStack(
      fakeConfig({ "clouddb:apiKey": recorded.key, "clouddb:apiUrl": harness.emulator.url }),
    );
    const made = await branchProvider.create({ projectId: DEMO.projectId, name } as BranchInputs);
    assert.ok(made.outs);
    harness.emulator.control.revokeApiKey(recorded.id);
    harness.emulator.control.clearRequests();
    return { id: made.id, outs: made.outs as BranchOutputs };
  }
  const deleted = (id: string) =>
    harness.emulator.control.dumpState().branches.find((b) => b.id === id)?.deleted_at_ms !== undefined;

  it("deletes with CLOUDDB_API_KEY when the configured key is refused", async () => {
    const current = harness.emulator.control.createApiKey({ userId: DEMO.userId, name: "current" });
    const { id, outs } = await branchOfRevokedKey("rotated-delete");
    env.set({ CLOUDDB_API_KEY: current.key });
    await branchProvider.delete!(id, outs);
    assert.ok(deleted(id), "the branch is deleted");
    const deletes = harness.emulator.control
      .requests()
      .filter((r) => r.method === "DELETE")
      .map((r) => [r.keyId, r.status]);
    // A revoked key authenticates nothing: its refusal carries no key id.
    assert.deepEqual(deletes, [
      [undefined, 401],
      [current.id, 200],
    ]);
  });

  it("refreshes with CLOUDDB_API_KEY when the configured key is refused", async () => {
    const current = harness.emulator.control.createApiKey({ userId: DEMO.userId, name: "current-read" });
    const { id, outs } = await branchOfRevokedKey("rotated-read");
    env.set({ CLOUDDB_API_KEY: current.key });
    const read = await branchProvider.read!(id, outs);
    assert.equal(read.id, id, "found, not dropped from the state");
  });

  it("without another key, says the run was given the recorded key and how to pass the current one", async () => {
    const { id, outs } = await branchOfRevokedKey("rotated-refused");
    env.set({ CLOUDDB_API_KEY: undefined });
    const refused = (await branchProvider.delete!(id, outs).then(
      () => assert.fail("deleted with a revoked key"),
      (e: ResourceError) => e,
    )) as ResourceError;
    assert.equal(refused.kind, "KeyRefused");
    assert.equal(refused.status, 401);
    assert.match(refused.message, new RegExp(`^deleting branch ${id} \\(rotated-refused\\) in project`));
    assert.match(refused.message, /request id [0-9a-f-]{36}/);
    assert.match(refused.message, /`--run-program` \(or PULUMI_RUN_PROGRAM=true\)/);
    assert.match(refused.message, /set CLOUDDB_API_KEY to a valid key/);
    assert.ok(!deleted(id));
  });
});
