import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { ResourceError } from "../../provider/resources/errors";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import type { BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { branchInputs, projectIdle, rejection, useBranchSuite } from "./support";

// A Branch's delete and its adoption (adoptExisting) through its provider, against the emulator.

const PROJECT = DEMO.projectId;

describe("Branch provider against the emulator", () => {
  const { harness, create, branchState } = useBranchSuite();

  describe("delete", () => {
    it("deletes a branch and waits for its operations", async () => {
      const { id, outs } = await create({ name: "short-lived", endpoints: [{ type: "read_write" }] });
      harness.emulator.control.clearRequests();
      await branchProvider.delete!(id, outs);
      assert.notEqual(branchState(id).deleted_at_ms, undefined);
      const state = harness.emulator.control.dumpState();
      const ops = state.operations.filter((op) => op.branch_id === id && op.action !== "create_branch");
      assert.ok(ops.some((op) => op.action === "delete_timeline"));
      for (const op of ops)
        assert.equal(op.status, "finished", `${op.action} finished before delete resolved`);
      assert.ok(harness.log().some((l) => l.startsWith(`GET /projects/${PROJECT}/operations/`)));
    });

    it("refuses to delete a branch with children, saying so and how Pulumi orders it", async () => {
      const parent = await create({ name: "parent" });
      const child = await create({ name: "child", parentId: parent.id });
      const err = await rejection(branchProvider.delete!(parent.id, parent.outs));
      assert.match(
        err.message,
        new RegExp(`branch ${parent.id} \\(parent\\) in project ${PROJECT} cannot be deleted`),
      );
      assert.equal(
        err.message,
        `branch ${parent.id} (parent) in project ${PROJECT} cannot be deleted: it still has child branches ` +
          `(${child.id}); delete them first, or declare each child with \`parentId: parent.branchId\` so ` +
          `Pulumi deletes children before their parent (request id ${(err as ResourceError).requestId}).`,
      );
      assert.doesNotMatch(err.message, /correct the inputs|attempt/);
      assert.equal(branchState(parent.id).deleted_at_ms, undefined);
      // Pulumi's order for `parentId: parent.branchId`: the child goes first, then the parent.
      await branchProvider.delete!(child.id, child.outs);
      await branchProvider.delete!(parent.id, parent.outs);
      assert.notEqual(branchState(child.id).deleted_at_ms, undefined);
      assert.notEqual(branchState(parent.id).deleted_at_ms, undefined);
    });

    it("refuses to delete the project's default branch, saying it is the default and how to let it go", async () => {
      const adopted = await create({ adoptExisting: DEMO.branchId });
      const err = await rejection(branchProvider.delete!(adopted.id, adopted.outs));
      assert.match(err.message, /root\/default branch/);
      assert.match(err.message, /pulumi state delete/);
      assert.equal(branchState(DEMO.branchId).deleted_at_ms, undefined);
    });

    it("recognises the default-branch refusal from the API's answer even when the state does not say default", async () => {
      const stale = { projectId: PROJECT, name: "main", default: false, parentId: "br-unknown-00000000" };
      const err = await rejection(branchProvider.delete!(DEMO.branchId, stale as BranchOutputs));
      assert.match(err.message, /root\/default branch/);
      assert.match(err.message, /\(request id [\w-]+\)\.$/);
    });

    it("treats an already deleted branch as deleted (204)", async () => {
      const { id, outs } = await create({ name: "deleted-twice" });
      harness.emulator.control.deleteBranch(PROJECT, id);
      await projectIdle(harness.emulator, PROJECT);
      harness.emulator.control.clearRequests();
      forgetFirstListings();
      await branchProvider.delete!(id, outs);
      assert.deepEqual(
        harness.emulator.control.requests().map((r) => [r.route, r.status]),
        [
          // The run's one listing of the project, for scratch branches a killed restore left.
          ["GET /projects/{project_id}/branches", 200],
          ["DELETE /projects/{project_id}/branches/{branch_id}", 204],
        ],
      );
    });

    it("refuses to delete a protected branch until deleteProtection is turned off", async () => {
      const { id, outs } = await create({ name: "guarded", deleteProtection: true });
      harness.emulator.control.clearRequests();
      const err = await rejection(branchProvider.delete!(id, outs));
      assert.match(err.message, /deleteProtection: false/);
      assert.deepEqual(harness.log(), [], "nothing was sent");
      const off = await branchProvider.update!(
        id,
        outs,
        branchInputs({ name: "guarded", deleteProtection: false }),
      );
      await branchProvider.delete!(id, off.outs as BranchOutputs);
      assert.notEqual(branchState(id).deleted_at_ms, undefined);
    });
  });

  describe("adoption (adoptExisting)", () => {
    it("takes an existing branch under management without creating one", async () => {
      const existing = await create({ name: "made-elsewhere" });
      harness.emulator.control.clearRequests();
      const { id, outs } = await create({ adoptExisting: existing.id });
      assert.equal(id, existing.id);
      assert.equal(outs.name, "made-elsewhere");
      assert.equal(outs.adoptExisting, existing.id);
      assert.equal(outs.projectId, PROJECT);
      assert.ok(!harness.log().some((l) => l.startsWith("POST")), "no branch was created");
    });

    it("renames an adopted branch when a different name is declared", async () => {
      const existing = await create({ name: "adopt-me" });
      const { outs } = await create({ adoptExisting: existing.id, name: "adopted" });
      assert.equal(outs.name, "adopted");
      assert.equal(branchState(existing.id).name, "adopted");
    });

    it("fails clearly when the branch to adopt does not exist", async () => {
      const err = await rejection(
        branchProvider.create(branchInputs({ adoptExisting: "br-missing-branch-00000000" })),
      );
      assert.match(err.message, /branch br-missing-branch-00000000 was not found in project/);
      assert.match(err.message, /remove adoptExisting to create a new branch/);
    });

    it("records the adopted branch's computes, so a matching endpoints input makes no replacement", async () => {
      const existing = await create({ name: "with-compute", endpoints: [{ type: "read_write" }] });
      const { outs } = await create({ adoptExisting: existing.id, endpoints: [{ type: "read_write" }] });
      assert.deepEqual(
        outs.endpoints.map((ep) => [ep.id, ep.type, ep.currentState]),
        [[existing.outs.endpoints[0]!.id, "read_write", "active"]],
      );
      const diff = await branchProvider.diff!(
        existing.id,
        outs,
        branchInputs({ adoptExisting: existing.id, endpoints: [{ type: "read_write" }] }),
      );
      assert.deepEqual(diff.replaces, []);
    });

    it("refuses to adopt a branch whose computes differ from the declared endpoints", async () => {
      const existing = await create({ name: "no-compute" });
      const err = await rejection(
        branchProvider.create(
          branchInputs({ adoptExisting: existing.id, endpoints: [{ type: "read_only" }] }),
        ),
      );
      assert.match(err.message, /has endpoints \[none\], not \[read_only\]/);
      assert.match(err.message, /fix endpoints \(or remove it\)/);
    });

    it("refuses to adopt a branch whose parent differs from the declared parentId", async () => {
      const existing = await create({ name: "other-parent" });
      const err = await rejection(
        branchProvider.create(
          branchInputs({ adoptExisting: existing.id, parentId: "br-some-other-00000000" }),
        ),
      );
      assert.match(err.message, new RegExp(`has parent ${DEMO.branchId}, not br-some-other-00000000`));
    });
  });
});
