import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { PartialFailure, ResourceError } from "../../provider/resources/errors";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { branchInputs, PROVIDER_TEXT, rejection, useBranchSuite, useEmulator } from "./support";

// A Branch whose create or update fails part way, against the emulator: what is recorded, what the
// next run finishes, and what is cancelled.

const PROJECT = DEMO.projectId;

describe("Branch provider against the emulator", () => {
  const { harness, checked, branchState, operationStatus } = useBranchSuite();

  describe("partial failure", () => {
    it("throws {id, properties, reasons} when a start_compute ends cancelled, and update then converges", async () => {
      harness.emulator.control.scriptOperations(
        { action: "start_compute", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = branchInputs({ name: "half-made", endpoints: [{ type: "read_write" }] });
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.id, /^br-/);
      assert.equal(
        branchState(err.id).deleted_at_ms,
        undefined,
        "the branch exists and is recorded, not orphaned",
      );
      const props = err.properties as unknown as BranchOutputs & { __provider: string };
      assert.equal(props.__provider, PROVIDER_TEXT, "the serialized provider passes through");
      assert.equal(props.branchId, err.id);
      assert.equal(props.name, "half-made");
      assert.equal(props.pendingOperationIds.length, 2);
      const statuses = props.pendingOperationIds.map(operationStatus).sort();
      assert.deepEqual(statuses, ["cancelled", "finished"]);
      assert.equal(err.reasons.length, 1);
      assert.match(err.reasons[0] ?? "", new RegExp(`branch ${err.id} \\(half-made\\) was created`));
      assert.match(err.reasons[0] ?? "", /cancelled/);
      assert.match(err.reasons[0] ?? "", /next `pulumi up`/);
      assert.deepEqual(JSON.parse(JSON.stringify(err.properties)), err.properties, "plain JSON");

      // The next `pulumi up`: diff sees the pending operations, update settles them.
      const diff = await branchProvider.diff!(err.id, props, news);
      assert.equal(diff.changes, true);
      assert.deepEqual(diff.replaces, []);
      const updated = await branchProvider.update!(err.id, props, news);
      const outs = updated.outs as BranchOutputs;
      assert.deepEqual(outs.pendingOperationIds, []);
      assert.equal(outs.branchId, err.id);
      assert.equal(outs.currentState, "ready");
      const settled = await branchProvider.diff!(err.id, outs, news);
      assert.equal(settled.changes, false, "converged: nothing left to do");
    });

    it("deletes the branch a cancelled create_branch began, records nothing, and the next create makes it anew", async () => {
      harness.emulator.control.scriptOperations(
        { action: "create_branch", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = await checked({ name: "never-made" }, "never-made");
      const err = (await rejection(branchProvider.create(news))) as ResourceError;
      assert.equal(err.kind, "Unmade");
      assert.equal((err as Partial<PartialFailure>).id, undefined, "not a partial failure: nothing recorded");
      const begun = /so branch (br-[a-z0-9-]+) \(never-made\)/.exec(err.message)?.[1];
      assert.ok(begun, err.message);
      assert.match(err.message, /create_branch operation \S+ ended cancelled/);
      assert.match(
        err.message,
        /it was deleted and nothing is recorded in the state\. Run `pulumi up` again/,
      );
      assert.ok(branchState(begun).deleted_at_ms !== undefined, "the unmade branch is deleted");
      // The next `pulumi up`: the same resource, not in the state, checked and created again.
      const again = await branchProvider.create(await checked({ name: "never-made" }, "never-made"));
      assert.notEqual(again.id, begun);
      assert.equal(branchState(again.id).deleted_at_ms, undefined);
    });

    it("when that delete fails, records the branch; the next update deletes it and names `pulumi up --refresh`, which then converges", async () => {
      harness.emulator.control.scriptOperations(
        { action: "create_branch", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      harness.emulator.control.failNext("DELETE /projects/{project_id}/branches/{branch_id}", {
        status: 500,
      });
      const news = await checked({ name: "left-over" }, "left-over");
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.id, /^br-/);
      assert.doesNotMatch(err.reasons[0] ?? "", /waits for its operations again/);
      assert.match(err.reasons[0] ?? "", /looks at its operations again/);
      const props = err.properties as unknown as BranchOutputs;
      // The next `pulumi up`: diff sees the pending operations, update finds create_branch cancelled.
      const again = (await rejection(branchProvider.update!(err.id, props, news))) as ResourceError;
      assert.equal(again.kind, "Unmade");
      assert.match(
        again.message,
        /create_branch .* ended cancelled, so the branch was never made: it was deleted/,
      );
      assert.match(again.message, /Run `pulumi up --refresh`/);
      assert.doesNotMatch(again.message, /<urn>|--replace/);
      assert.ok(branchState(err.id).deleted_at_ms !== undefined, "the unmade branch is deleted");
      // `pulumi up --refresh`: the refresh drops it, the up creates the branch anew.
      assert.equal((await branchProvider.read!(err.id, props)).id, "");
      const made = await branchProvider.create(await checked({ name: "left-over" }, "left-over"));
      assert.notEqual(made.id, err.id);
    });
  });

  describe("partial failure with slower operations", () => {
    // Operations of 150 ms, so the next run starts while the cancelled compute is still running.
    const slow = useEmulator({ opDurationMs: 150 });

    it("converges when a pending start_compute ends cancelled while update waits for it", async () => {
      slow.emulator.control.scriptOperations(
        { action: "start_compute", projectId: PROJECT, count: 1 },
        { kind: "cancelled" },
      );
      const news = branchInputs({
        name: "slow-half",
        endpoints: [{ type: "read_write" }],
        timeouts: { create: 0.05 },
      });
      const err = (await rejection(branchProvider.create(news))) as PartialFailure;
      assert.match(err.reasons.join(" "), /Timed out/);
      const props = err.properties as unknown as BranchOutputs;
      const start = props.pendingOperationIds.find(
        (opId) =>
          slow.emulator.control.dumpState().operations.find((op) => op.id === opId)?.action ===
          "start_compute",
      );
      assert.ok(start);
      const before = slow.emulator.control.dumpState().operations.find((op) => op.id === start)?.status;
      assert.ok(before !== "cancelled", `still unfinished when update starts (${before})`);
      const updated = await branchProvider.update!(err.id, props, {
        ...news,
        timeouts: { update: 5 },
      } as BranchInputs);
      assert.deepEqual((updated.outs as BranchOutputs).pendingOperationIds, []);
      assert.equal(
        slow.emulator.control.dumpState().operations.find((op) => op.id === start)?.status,
        "cancelled",
      );
    });
  });
});
