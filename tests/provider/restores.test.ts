import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import {
  type DatabaseInputs,
  type DatabaseOutputs,
  databaseProvider,
} from "../../provider/resources/public/database";
import { type RoleInputs, type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { snapshotProvider } from "../../provider/resources/public/snapshot";
import { checkedBranch, projectIdle, useRestoreSuite, withProvider } from "./support";

// Restores the stack makes (docs/api-rules.md §9): a restore cut off halfway leaves no copy behind
// and is never done twice; a Branch created from a snapshot; the roles and databases a restore
// changed, read again. Restores made outside the stack are in restores.outside.test.ts.

const P = DEMO.projectId;
const RESTORE = "POST /projects/{project_id}/branches/{branch_id}/restore";
const SNAPSHOT_RESTORE = "POST /projects/{project_id}/snapshots/{snapshot_id}/restore";
const DELETE = "DELETE /projects/{project_id}/branches/{branch_id}";

describe("restores never bring back replaced data nor leave copies behind", () => {
  const { harness, client, liveBranches, posts } = useRestoreSuite();

  async function withSnapshot(resource: string) {
    const inputs = await checkedBranch(resource, { name: resource, endpoints: [{ type: "read_write" }] });
    const made = await branchProvider.create(inputs);
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: made.id, name: "good" }),
    );
    await client().createRole(P, made.id, { role: { name: "after_snapshot" } });
    await projectIdle(harness.emulator, P);
    return {
      made,
      outs: made.outs as BranchOutputs,
      news: { ...inputs, restore: { snapshotId: snapshot.id } },
    };
  }

  /** Plays a run killed during the restore: `fault` scripts how, and the scratch branch's delete never happens. */
  async function killedRestore(id: string, outs: BranchOutputs, news: BranchInputs, fault: () => void) {
    fault();
    harness.emulator.control.failNext(DELETE, { status: 422 });
    setHostLineWriter(() => {});
    await assert.rejects(branchProvider.update!(id, outs, news)).finally(() => setHostLineWriter(undefined));
    await projectIdle(harness.emulator, P);
  }

  const scratches = (name: string) => liveBranches().filter((b) => b.name.startsWith(`${name}_restoring_`));
  const roles = (id: string) =>
    liveBranches()
      .find((b) => b.id === id)
      ?.roles.map((r) => r.name) ?? [];

  it("marks the scratch branch of a restore with the branch and the restore, and gives it an expiry", async () => {
    const { made, outs, news } = await withSnapshot("marked");
    await killedRestore(made.id, outs, news, () =>
      harness.emulator.control.failNext(RESTORE, { status: 400 }),
    );
    const [scratch, ...more] = scratches("marked");
    assert.equal(more.length, 0);
    assert.match(scratch?.name ?? "", /^marked_restoring_[0-9a-f]{10}_[0-9a-f]{10}$/);
    const expires = scratch?.expires_at_ms ?? 0;
    assert.ok(expires > Date.now() && expires < Date.now() + 2 * 86_400_000, "it expires within a day or so");
  });

  it("restores once when a run was killed after the branch was restored: the next up deletes the scratch branch and records the restore", async () => {
    const { made, outs, news } = await withSnapshot("killed-after");
    const before = posts(RESTORE);
    await killedRestore(made.id, outs, news, () =>
      harness.emulator.control.failNext(RESTORE, { afterHandler: true, reset: true }),
    );
    assert.equal(scratches("killed-after").length, 1, "the killed run left its scratch branch");
    const restored = await branchProvider.update!(made.id, outs, news);
    assert.equal(posts(RESTORE) - before, 1, "the branch was restored once");
    assert.deepEqual((restored.outs as BranchOutputs).restore, news.restore);
    assert.equal((restored.outs as BranchOutputs).branchId, made.id);
    assert.deepEqual(scratches("killed-after"), [], "no scratch branch is left");
    assert.equal(roles(made.id).includes("after_snapshot"), false, "the branch has the snapshot's data");
  });

  it("finishes a restore killed before the branch was restored from the scratch branch it made, making no second one", async () => {
    const { made, outs, news } = await withSnapshot("killed-before");
    const snapshotRestores = posts(SNAPSHOT_RESTORE);
    await killedRestore(made.id, outs, news, () =>
      harness.emulator.control.failNext(RESTORE, { status: 400 }),
    );
    assert.ok(!liveBranches().find((b) => b.id === made.id)?.last_reset_at_ms, "not restored yet");
    await branchProvider.update!(made.id, outs, news);
    assert.equal(posts(SNAPSHOT_RESTORE) - snapshotRestores, 1, "one scratch branch was made");
    assert.ok(liveBranches().find((b) => b.id === made.id)?.last_reset_at_ms, "the branch is restored");
    assert.equal(roles(made.id).includes("after_snapshot"), false);
    assert.deepEqual(scratches("killed-before"), []);
  });

  it("restores from the snapshot after a reset, though a killed run left a scratch branch of that very restore", async () => {
    const inputs = await checkedBranch("reset-between", {
      name: "reset-between",
      endpoints: [{ type: "read_write" }],
    });
    const made = await branchProvider.create(inputs);
    await client().createRole(P, made.id, { role: { name: "in_snapshot" } });
    await projectIdle(harness.emulator, P);
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: made.id, name: "with-role" }),
    );
    const outs = made.outs as BranchOutputs;
    const news = { ...inputs, restore: { snapshotId: snapshot.id } };
    await killedRestore(made.id, outs, news, () =>
      harness.emulator.control.failNext(RESTORE, { status: 400 }),
    );
    // The program then resets the branch from its parent instead, and later asks for the restore again.
    const reset = await branchProvider.update!(made.id, outs, { ...inputs, resetTrigger: "1" });
    assert.equal(roles(made.id).includes("in_snapshot"), false, "the reset replaced the data");
    assert.deepEqual(scratches("reset-between"), [], "and the scratch branch went with it");
    await branchProvider.update!(made.id, reset.outs as BranchOutputs, { ...news, resetTrigger: "1" });
    assert.equal(roles(made.id).includes("in_snapshot"), true, "the branch has the snapshot's data");
  });

  it("deletes on destroy the scratch branch a killed restore left", async () => {
    const { made, outs, news } = await withSnapshot("killed-destroy");
    await killedRestore(made.id, outs, news, () =>
      harness.emulator.control.failNext(RESTORE, { status: 400 }),
    );
    assert.equal(scratches("killed-destroy").length, 1);
    forgetFirstListings();
    await branchProvider.delete!(made.id, outs);
    await projectIdle(harness.emulator, P);
    assert.deepEqual(scratches("killed-destroy"), []);
    assert.equal(
      liveBranches().find((b) => b.id === made.id),
      undefined,
    );
  });

  /** A snapshot of a branch holding role `in_snapshot`, which a branch of the parent's data lacks. */
  async function snapshotWithRole(resource: string) {
    const source = await branchProvider.create(
      await checkedBranch(`${resource}-source`, { name: `${resource}-source` }),
    );
    await client().createRole(P, source.id, { role: { name: "in_snapshot" } });
    await projectIdle(harness.emulator, P);
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: source.id, name: `${resource}-snap` }),
    );
    await projectIdle(harness.emulator, P);
    return snapshot.id;
  }

  it("creates a Branch that keeps restore.snapshotId with the snapshot's data, and its preview says so", async () => {
    const snapshotId = await snapshotWithRole("fresh");
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    const inputs = await checkedBranch("fresh", {
      name: "fresh",
      endpoints: [{ type: "read_write" }],
      restore: { snapshotId },
    }).finally(() => setHostLineWriter(undefined));
    assert.ok(
      lines.some((line) =>
        line.includes(`the create restores the new branch's data from snapshot ${snapshotId}`),
      ),
      lines.join("\n"),
    );
    const made = await branchProvider.create(inputs);
    await projectIdle(harness.emulator, P);
    assert.equal(roles(made.id).includes("in_snapshot"), true, "the branch has the snapshot's data");
    assert.deepEqual((made.outs as BranchOutputs).restore, { snapshotId });
    assert.equal((made.outs as BranchOutputs).name, "fresh");
    assert.deepEqual(scratches("fresh"), [], "no scratch branch is left");
    const diff = await branchProvider.diff!(made.id, made.outs as BranchOutputs, inputs);
    assert.equal(diff.changes, false, "the next preview plans nothing");
  });

  it("gives the scratch branch an expiry in the future by the service's clock, which may run ahead of the provider's", async () => {
    const snapshotId = await snapshotWithRole("ahead");
    harness.emulator.control.advance(3 * 3_600_000);
    const made = await branchProvider.create(
      await checkedBranch("ahead", { name: "ahead", restore: { snapshotId } }),
    );
    await projectIdle(harness.emulator, P);
    assert.equal(roles(made.id).includes("in_snapshot"), true);
    assert.deepEqual(scratches("ahead"), []);
  });

  it("finishes the restore of a create killed before it, on the branch that create made, and never restores twice", async () => {
    const snapshotId = await snapshotWithRole("cut");
    const inputs = await checkedBranch("cut", { name: "cut", restore: { snapshotId } });
    harness.emulator.control.failNext(SNAPSHOT_RESTORE, { status: 400 });
    await assert.rejects(branchProvider.create(inputs));
    await projectIdle(harness.emulator, P);
    // The next run never heard of that branch: its create takes it and restores it.
    forgetFirstListings();
    const taken = await branchProvider.create(inputs);
    await projectIdle(harness.emulator, P);
    assert.equal(liveBranches().filter((b) => b.name === "cut").length, 1, "no second branch");
    assert.equal(roles(taken.id).includes("in_snapshot"), true);
    // Killed once the branch was restored, before its scratch branch was deleted: no second restore.
    const again = await checkedBranch("cut-after", { name: "cut-after", restore: { snapshotId } });
    harness.emulator.control.failNext(RESTORE, { afterHandler: true, reset: true });
    harness.emulator.control.failNext(DELETE, { status: 422 });
    setHostLineWriter(() => {});
    await assert.rejects(branchProvider.create(again)).finally(() => setHostLineWriter(undefined));
    await projectIdle(harness.emulator, P);
    forgetFirstListings();
    const restores = posts(RESTORE);
    const finished = await branchProvider.create(again);
    await projectIdle(harness.emulator, P);
    assert.equal(posts(RESTORE), restores, "the branch was not restored again");
    assert.equal(roles(finished.id).includes("in_snapshot"), true);
    assert.deepEqual(scratches("cut-after"), [], "no scratch branch is left");
    assert.equal(liveBranches().filter((b) => b.name === "cut-after").length, 1);
  });

  /**
   * A stack's branch with role `app`, a snapshot, then `app`'s password rotated and role `later`
   * made; the inputs restore the branch from that snapshot.
   */
  async function rotatedSinceSnapshot(resource: string) {
    const { made, outs, news } = await withSnapshot(resource);
    const appIn = withProvider<RoleInputs>({ projectId: P, branchId: made.id, name: "app" });
    const app = await roleProvider.create(appIn);
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: made.id, name: "with-app" }),
    );
    const appNews = { ...appIn, passwordResetTrigger: "1" };
    const rotated = await roleProvider.update!(app.id, app.outs as RoleOutputs, appNews);
    const laterIn = withProvider<RoleInputs>({ projectId: P, branchId: made.id, name: "later" });
    const later = await roleProvider.create(laterIn);
    await projectIdle(harness.emulator, P);
    const restore = { ...news, restore: { snapshotId: snapshot.id } };
    return { made, outs, restore, app, appNews, rotated, laterIn, later };
  }

  it("refresh records the password a restore gave a role, and drops the role a restore removed", async () => {
    const { made, outs, restore, app, rotated, later } = await rotatedSinceSnapshot("roles-restored");
    await branchProvider.update!(made.id, outs, restore);
    const live = liveBranches()
      .find((b) => b.id === made.id)
      ?.roles.find((r) => r.name === "app")?.password;
    assert.notEqual(
      live,
      (rotated.outs as RoleOutputs).password,
      "the restore gave the role its password of the snapshot",
    );
    const read = await roleProvider.read!(app.id, rotated.outs as RoleOutputs);
    assert.equal((read.props as RoleOutputs).password, live, "refresh records the live password");
    assert.equal(
      (await roleProvider.read!(later.id, later.outs as RoleOutputs)).id,
      "",
      "the role made after the snapshot is gone",
    );
  });

  it("the restore's own up reads the roles and databases on the branch again: the live password, and the role and database the restore removed made anew", async () => {
    const { made, outs, restore, app, appNews, rotated, laterIn, later } =
      await rotatedSinceSnapshot("restore-run");
    const dbIn = withProvider<DatabaseInputs>({
      projectId: P,
      branchId: made.id,
      name: "laterdb",
      ownerName: "later",
    });
    const db = await databaseProvider.create(dbIn);
    await projectIdle(harness.emulator, P);
    assert.equal((await roleProvider.diff!(app.id, rotated.outs as RoleOutputs, appNews)).changes, false);
    await branchProvider.update!(made.id, outs, restore);
    // The engine reaches the resources on the branch after the branch's update, in the same process.
    const live = () => liveBranches().find((b) => b.id === made.id);
    for (const [provider, id, olds, inputs] of [
      [roleProvider, app.id, rotated.outs, appNews],
      [roleProvider, later.id, later.outs, laterIn],
      [databaseProvider, db.id, db.outs, dbIn],
    ] as const) {
      // biome-ignore lint/suspicious/noExplicitAny: the three providers' own types.
      const p = provider as any;
      assert.equal((await p.diff(id, olds, inputs)).changes, true, `${id} is read again`);
      const updated = (await p.update(id, olds, inputs)).outs;
      if (provider === roleProvider) {
        const password = live()?.roles.find((r) => r.name === inputs.name)?.password;
        assert.equal(
          (updated as RoleOutputs).password,
          password,
          `${id}: the state's password is the live one`,
        );
      } else {
        const database = live()?.databases.find((d) => d.name === "laterdb");
        assert.equal((updated as DatabaseOutputs).databaseId, database?.id, "the database is made again");
      }
    }
    assert.notEqual(
      live()?.roles.find((r) => r.name === "app")?.password,
      (rotated.outs as RoleOutputs).password,
    );
  });
});
