import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { checkedBranch, projectIdle, useRestoreSuite } from "./support";

// Restores made outside the stack and what the stack does after them (docs/api-rules.md §9): a
// create never takes back the branch a restore replaced; refresh and update follow the restored branch.

const P = DEMO.projectId;

describe("restores never bring back replaced data nor leave copies behind", () => {
  const { harness, client, liveBranches, posts } = useRestoreSuite();

  /** A stack's branch, a snapshot of it, then a restore of that snapshot finalized outside the stack. */
  async function restoredOutside(resource: string, args: Partial<BranchInputs>) {
    const declared = { endpoints: [{ type: "read_write" as const }], ...args };
    const inputs = await checkedBranch(resource, declared);
    const made = await branchProvider.create(inputs);
    const snapshot = await client().createSnapshot(P, made.id, { name: `${resource}-snap` });
    await projectIdle(harness.emulator, P);
    const carrier = await client().restoreSnapshot(P, snapshot.snapshot.id, {
      target_branch_id: made.id,
      finalize_restore: true,
    });
    await projectIdle(harness.emulator, P);
    return { declared, inputs, made, carrier: carrier.branch.id };
  }

  for (const [what, args] of [
    ["named", { name: "replaced" }],
    ["unnamed", {}],
  ] as const) {
    it(`never takes the ${what} branch an outside restore replaced: after destroy, up makes a fresh branch`, async () => {
      const { declared, inputs, made, carrier } = await restoredOutside(`swap-${what}`, args);
      const refreshed = await branchProvider.read!(made.id, made.outs as BranchOutputs);
      assert.equal(refreshed.id, carrier, "refresh follows the branch that carries the name");
      await branchProvider.delete!(carrier, refreshed.props as BranchOutputs);
      // `pulumi up` of the same stack: a new process, the same URN, so the same create key.
      forgetFirstListings();
      const again = await branchProvider.create(await checkedBranch(`swap-${what}`, declared));
      assert.notEqual(again.id, made.id, "the replaced branch, which still carries the mark, is not taken");
      const replaced = liveBranches().find((b) => b.id === made.id);
      assert.match(replaced?.name ?? "", /_old_/, "and it keeps the name the restore gave it");
      assert.equal((again.outs as BranchOutputs).name, inputs.name ?? again.id);
      assert.equal((again.outs as BranchOutputs).endpoints.length, 1, "the fresh branch has its compute");
    });
  }

  for (const [what, args] of [
    ["named", { name: "swap-live" }],
    ["unnamed", {}],
  ] as const) {
    it(`a create after the state lost the ${what} branch takes the branch a live outside restore swapped in, never the replaced one`, async () => {
      const { declared, made, carrier } = await restoredOutside(`swap-live-${what}`, args);
      forgetFirstListings();
      const before = posts("POST /projects/{project_id}/branches");
      const again = await branchProvider.create(await checkedBranch(`swap-live-${what}`, declared));
      // The swapped-in branch carries the name and the compute the lost create made: making another
      // would leave that compute behind (unnamed) or meet the name taken (named).
      assert.equal(again.id, carrier, "the branch that carries the name and computes is taken");
      assert.notEqual(again.id, made.id);
      assert.equal(
        (again.outs as BranchOutputs).endpoints.length,
        1,
        "with the compute the lost create made",
      );
      assert.equal(posts("POST /projects/{project_id}/branches"), before, "and no second branch is made");
    });
  }

  it("refuses an update by the state's id once an outside restore replaced the branch: nothing changes, the message says to refresh", async () => {
    const { inputs, made, carrier } = await restoredOutside("swap-update", { name: "swap-update" });
    const replacedName = liveBranches().find((b) => b.id === made.id)?.name;
    const patches = () =>
      harness.emulator.control.requests({ route: "PATCH /projects/{project_id}/branches/{branch_id}" })
        .length;
    const before = patches();
    const outs = made.outs as BranchOutputs;
    await assert.rejects(
      branchProvider.update!(made.id, outs, { ...inputs, name: "swap-update-2", autoscalingLimitMaxCu: 2 }),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`branch ${made.id} was replaced by a restore done outside Pulumi`),
        );
        assert.match(err.message, new RegExp(`branch ${carrier} now carries`));
        assert.match(err.message, /run `pulumi up --refresh` \(or `pulumi refresh`\)/);
        return true;
      },
    );
    assert.equal(patches(), before, "no write reached the API");
    assert.equal(
      liveBranches().find((b) => b.id === made.id)?.name,
      replacedName,
      "the replaced branch keeps its name",
    );
    assert.equal(liveBranches().find((b) => b.id === carrier)?.name, "swap-update");
  });

  it("an update after the branch was renamed and protected outside brings both back to the declared ones, so the next preview shows no change", async () => {
    const rw = [{ type: "read_write" as const }];
    const inputs = await checkedBranch("stale-update", { name: "stale-update", endpoints: rw });
    const made = await branchProvider.create(inputs);
    await client().updateBranch(P, made.id, { name: "renamed-outside-2", protected: true });
    await projectIdle(harness.emulator, P);
    const news = await checkedBranch("stale-update", {
      name: "stale-update",
      endpoints: rw,
      suspendTimeoutSeconds: 600,
    });
    const updated = await branchProvider.update!(made.id, made.outs as BranchOutputs, news);
    const after = updated.outs as BranchOutputs;
    assert.deepEqual([after.name, after.protected], ["stale-update", false]);
    const live = liveBranches().find((b) => b.id === made.id);
    assert.deepEqual([live?.name, live?.protected], ["stale-update", false]);
    assert.equal((await branchProvider.diff!(made.id, after, news)).changes, false);
  });

  it("keeps the parent the branch was made from once it follows an outside restore: a second refresh and an update do not plan a replace", async () => {
    const { inputs, made, carrier } = await restoredOutside("swap-parent", { name: "swap-parent" });
    const parent = (made.outs as BranchOutputs).parentId;
    assert.notEqual(parent, null, "the branch was made from the default branch");
    const followed = await branchProvider.read!(made.id, made.outs as BranchOutputs);
    assert.equal(followed.id, carrier);
    forgetFirstListings();
    const again = await branchProvider.read!(carrier, followed.props as BranchOutputs);
    assert.equal((again.props as BranchOutputs).parentId, parent, "the second refresh keeps it");
    const olds = again.props as BranchOutputs;
    const updated = await branchProvider.update!(carrier, olds, { ...inputs, protected: true });
    assert.equal((updated.outs as BranchOutputs).parentId, parent, "the update keeps it");
    const diff = await branchProvider.diff!(carrier, updated.outs as BranchOutputs, {
      ...inputs,
      protected: true,
    });
    assert.deepEqual(diff.replaces ?? [], [], "no replace is planned");
    await client().updateBranch(P, carrier, { protected: false });
    await projectIdle(harness.emulator, P);
  });

  for (const gone of ["deleted", "expired"] as const) {
    it(`drops the branch at refresh when the branch that replaced it was ${gone} before any refresh: the replaced one is not kept`, async () => {
      const { made, carrier } = await restoredOutside(`swap-${gone}`, { name: `swap-${gone}` });
      if (gone === "deleted") {
        await client().deleteBranch(P, carrier);
      } else {
        const soon = new Date(harness.emulator.control.now() + 60_000).toISOString();
        await client().updateBranch(P, carrier, { expires_at: soon });
        harness.emulator.control.advance(120_000);
      }
      await projectIdle(harness.emulator, P);
      assert.equal(
        liveBranches().some((b) => b.id === carrier),
        false,
        `the successor is ${gone}`,
      );
      forgetFirstListings();
      const refreshed = await branchProvider.read!(made.id, made.outs as BranchOutputs);
      assert.equal(refreshed.id, "", "the Branch is gone from the state");
      assert.match(liveBranches().find((b) => b.id === made.id)?.name ?? "", /_old_/);
    });
  }

  it("keeps at refresh a branch renamed outside without a restore", async () => {
    const inputs = await checkedBranch("renamed-outside", { name: "renamed-outside" });
    const made = await branchProvider.create(inputs);
    const listings = () =>
      harness.emulator.control.requests({ route: "GET /projects/{project_id}/branches" }).length;
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    const before = listings();
    await branchProvider.read!(made.id, made.outs as BranchOutputs);
    assert.equal(listings() - before, 1, "a refresh of a branch that kept its name lists the branches once");
    await client().updateBranch(P, made.id, { name: "renamed-elsewhere" });
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    const refreshed = await branchProvider.read!(made.id, made.outs as BranchOutputs);
    assert.equal(refreshed.id, made.id);
    assert.equal((refreshed.props as BranchOutputs).name, "renamed-elsewhere");
  });

  /** A stack's branch and a snapshot of it, and the inputs that restore it from the snapshot. */
});
