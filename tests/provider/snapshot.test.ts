import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import type {
  BackupScheduleInputs,
  BackupScheduleOutputs,
} from "../../provider/resources/public/backupSchedule";
import { backupScheduleProvider } from "../../provider/resources/public/backupSchedule";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { type DatabaseOutputs, databaseProvider } from "../../provider/resources/public/database";
import { type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import {
  type SnapshotInputs,
  type SnapshotOutputs,
  snapshotProvider,
} from "../../provider/resources/public/snapshot";
import { projectIdle, useEmulator, withProvider } from "./support";

// Snapshot, BackupSchedule and Branch restores against the emulator: a restore through the
// provider keeps every id; after a restore finalized outside the stack, refresh follows the branch
// that carries the name and computes (docs/api-rules.md §9).

const P = DEMO.projectId;

describe("Snapshot, BackupSchedule and Branch restores against the emulator", () => {
  const harness = useEmulator();
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const state = () => harness.emulator.control.dumpState();
  const liveBranches = () => state().branches.filter((b) => b.deleted_at_ms === undefined);
  const live = (id: string) => state().branches.find((b) => b.id === id && b.deleted_at_ms === undefined);

  /** A branch of main with a compute, a role and a database, through the providers. */
  async function stackBranch(name: string) {
    const branchIn = withProvider<BranchInputs>({ projectId: P, name, endpoints: [{ type: "read_write" }] });
    const branch = await branchProvider.create(branchIn);
    const b = branch.outs as BranchOutputs;
    const role = await roleProvider.create(
      withProvider({ projectId: P, branchId: branch.id, name: `${name}_app` }),
    );
    const database = await databaseProvider.create(
      withProvider({ projectId: P, branchId: branch.id, name: `${name}_db`, ownerName: `${name}_app` }),
    );
    return { branchIn, branch: { id: branch.id, outs: b }, role, database };
  }

  it("takes a named snapshot, renames it and sets its expiry in place, reads it, and deletes it", async () => {
    const { branch } = await stackBranch("snapme");
    const inputs = withProvider<SnapshotInputs>({
      projectId: P,
      branchId: branch.id,
      name: "before-migration",
    });
    const made = await snapshotProvider.create(inputs);
    const outs = made.outs as SnapshotOutputs;
    assert.match(made.id, /^snap-/);
    assert.equal(outs.name, "before-migration");
    assert.equal(outs.expiresAt, null);
    const expires = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const news = { ...inputs, name: "before-v2", expiresAt: expires };
    const diff = await snapshotProvider.diff!(made.id, outs, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const updated = (await snapshotProvider.update!(made.id, outs, news)).outs as SnapshotOutputs;
    assert.equal(updated.expiresAt, expires);
    const held = state().snapshots.find((s) => s.id === made.id);
    assert.equal(held?.name, "before-v2", "no create key here: the name alone");
    const read = await snapshotProvider.read!(made.id, updated);
    assert.deepEqual([read.id, (read.props as SnapshotOutputs).name], [made.id, "before-v2"]);
    const moved = await snapshotProvider.diff!(made.id, updated, {
      ...news,
      timestamp: "2026-01-01T00:00:00Z",
    });
    assert.deepEqual(moved.replaces, ["timestamp"], "another point in history is another snapshot");
    await snapshotProvider.delete!(made.id, updated);
    assert.equal(
      state().snapshots.find((s) => s.id === made.id),
      undefined,
    );
    assert.equal((await snapshotProvider.read!(made.id, updated)).id, "");
  });

  it("records a snapshot whose operation failed after it was taken, so it is neither lost nor taken twice", async () => {
    const { branch } = await stackBranch("snapfail");
    harness.emulator.control.scriptOperations(
      { action: "create_timeline", projectId: P, count: 1 },
      { kind: "cancelled" },
    );
    const inputs = withProvider<SnapshotInputs>({ projectId: P, branchId: branch.id, name: "half-taken" });
    const err = await snapshotProvider.create(inputs).then(
      () => assert.fail("the create succeeded"),
      (e: unknown) => e as { id?: string; message: string; properties?: SnapshotOutputs },
    );
    harness.emulator.control.clearOperationScripts();
    assert.match(err.id ?? "", /^snap-/, `a partial failure with the snapshot's id: ${err.message}`);
    assert.ok(
      state().snapshots.some((s) => s.id === err.id),
      "the snapshot it records is the one the service holds",
    );
    assert.match(err.message, /It is recorded in the state/);
    await snapshotProvider.delete!(err.id ?? "", err.properties as SnapshotOutputs);
  });

  it("refuses at check a snapshot both at a time and at an LSN, and a schedule hour past 23, naming the input", async () => {
    const snap = await snapshotProvider.check!(
      {} as SnapshotInputs,
      withProvider({
        projectId: P,
        branchId: "br-x",
        name: "s",
        timestamp: "2026-01-01T00:00:00Z",
        lsn: "0/1",
      }),
    );
    assert.deepEqual(
      snap.failures?.map((f) => f.property),
      ["lsn"],
    );
    const schedule = await backupScheduleProvider.check!(
      {} as BackupScheduleInputs,
      withProvider({ projectId: P, branchId: "br-x", schedule: [{ frequency: "daily", hour: 24 }] }),
    );
    assert.match(schedule.failures?.[0]?.reason ?? "", /hour must be a whole number from 0 to 23/);
  });

  it("sets a backup schedule, changes it in place, and empties it on delete", async () => {
    const { branch } = await stackBranch("scheduled");
    const inputs = withProvider<BackupScheduleInputs>({
      projectId: P,
      branchId: branch.id,
      schedule: [{ frequency: "daily", hour: 3, retentionSeconds: 604_800 }],
    });
    const made = await backupScheduleProvider.create(inputs);
    assert.equal(made.id, branch.id);
    assert.deepEqual(live(branch.id)?.backup_schedule, [
      { frequency: "daily", hour: 3, retention_seconds: 604_800 },
    ]);
    const news = { ...inputs, schedule: [{ frequency: "weekly" as const, day: 1, hour: 2 }] };
    const updated = (await backupScheduleProvider.update!(made.id, made.outs as BackupScheduleOutputs, news))
      .outs as BackupScheduleOutputs;
    assert.deepEqual(updated.schedule, [{ frequency: "weekly", day: 1, hour: 2 }]);
    await backupScheduleProvider.delete!(made.id, updated);
    assert.equal(live(branch.id)?.backup_schedule, undefined);
    assert.equal((await backupScheduleProvider.read!(made.id, updated)).id, "", "an empty schedule is gone");
  });

  it("records a backup schedule it set whose read-back failed, so destroy empties it", async () => {
    const { branch } = await stackBranch("schedfail");
    harness.emulator.control.failNext("GET /projects/{project_id}/branches/{branch_id}/backup_schedule", {
      status: 403,
    });
    const inputs = withProvider<BackupScheduleInputs>({
      projectId: P,
      branchId: branch.id,
      schedule: [{ frequency: "daily", hour: 4 }],
    });
    const err = await backupScheduleProvider.create(inputs).then(
      () => assert.fail("the create succeeded"),
      (e: unknown) => e as { id?: string; message: string; properties?: BackupScheduleOutputs },
    );
    assert.equal(err.id, branch.id, `a partial failure: ${err.message}`);
    assert.deepEqual(err.properties?.schedule, [{ frequency: "daily", hour: 4 }], "recorded as declared");
    await backupScheduleProvider.delete!(err.id ?? "", err.properties as BackupScheduleOutputs);
    assert.deepEqual(await client().getBackupSchedule(P, branch.id), [], "destroy empties it");
  });

  it("declares a yearly schedule, as the service takes one: checked, set and read back as declared", async () => {
    const { branch } = await stackBranch("yearly");
    const inputs = withProvider<BackupScheduleInputs>({
      projectId: P,
      branchId: branch.id,
      schedule: [{ frequency: "yearly", hour: 4, day: 15, month: 6, retentionSeconds: 31_536_000 }],
    });
    const checked = await backupScheduleProvider.check!({} as BackupScheduleInputs, inputs);
    assert.deepEqual(checked.failures ?? [], []);
    const made = await backupScheduleProvider.create(inputs);
    assert.deepEqual(live(branch.id)?.backup_schedule, [
      { frequency: "yearly", hour: 4, day: 15, month: 6, retention_seconds: 31_536_000 },
    ]);
    const read = await backupScheduleProvider.read!(made.id, made.outs as BackupScheduleOutputs);
    assert.deepEqual((read.props as BackupScheduleOutputs).schedule, inputs.schedule);
    const diff = await backupScheduleProvider.diff!(made.id, read.props as BackupScheduleOutputs, inputs);
    assert.equal(diff.changes, false);
  });

  it("restores a branch from a snapshot in place: same id, name and compute, the snapshot's roles, no scratch branch left", async () => {
    const { branchIn, branch, role } = await stackBranch("restoreme");
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: branch.id, name: "known-good" }),
    );
    // A role made after the snapshot is not in it.
    await client().createRole(P, branch.id, { role: { name: "later" } });
    await projectIdle(harness.emulator, P);
    const computes = state()
      .endpoints.filter((e) => e.branch_id === branch.id)
      .map((e) => e.id);
    const news = { ...branchIn, restore: { snapshotId: snapshot.id } };
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    const diff = await branchProvider.diff!(branch.id, branch.outs, news).finally(() =>
      setHostLineWriter(undefined),
    );
    assert.deepEqual([diff.changes, diff.replaces], [true, []], "a restore is an in-place change");
    assert.deepEqual(lines, [
      `branch ${branch.id} (restoreme): the update restores the branch's data from snapshot ${snapshot.id}: its computes ` +
        "restart, its roles and databases become those of the restore point, and the data before it is not kept",
    ]);
    const branchesBefore = state().branches.filter((b) => b.deleted_at_ms === undefined).length;
    const restored = (await branchProvider.update!(branch.id, branch.outs, news)).outs as BranchOutputs;
    assert.equal(restored.branchId, branch.id);
    assert.equal(restored.name, "restoreme");
    assert.deepEqual(restored.restore, { snapshotId: snapshot.id });
    const after = live(branch.id);
    assert.ok(after?.last_reset_at_ms, "the branch was restored");
    assert.ok(
      after?.roles.some((r) => r.name === "restoreme_app"),
      "the snapshot's role is there",
    );
    assert.equal(
      after?.roles.some((r) => r.name === "later"),
      false,
      "the role made after the snapshot is gone",
    );
    assert.deepEqual(
      state()
        .endpoints.filter((e) => e.branch_id === branch.id)
        .map((e) => e.id),
      computes,
      "the compute stays",
    );
    assert.equal(
      state().branches.filter((b) => b.deleted_at_ms === undefined).length,
      branchesBefore,
      "the scratch branch is deleted",
    );
    // The role the stack declares is still there, with the same password: refresh finds it.
    const roleRead = await roleProvider.read!(role.id, role.outs as RoleOutputs);
    assert.equal(roleRead.id, role.id);
    // Nothing else changed: the same inputs diff to no change.
    const again = await branchProvider.diff!(branch.id, restored, news);
    assert.equal(again.changes, false);
  });

  it("records a restore whose scratch branch could not be deleted, naming the branch to delete, so the next up does not restore again", async () => {
    const { branchIn, branch } = await stackBranch("leftover");
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: branch.id, name: "lo" }),
    );
    harness.emulator.control.failNext("DELETE /projects/{project_id}/branches/{branch_id}", { status: 422 });
    const news = { ...branchIn, restore: { snapshotId: snapshot.id } };
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    const restored = await branchProvider.update!(branch.id, branch.outs, news).finally(() =>
      setHostLineWriter(undefined),
    );
    assert.deepEqual(
      (restored.outs as BranchOutputs).restore,
      { snapshotId: snapshot.id },
      "the restore is recorded",
    );
    const scratch = liveBranches().find((b) => b.name.startsWith("leftover_restoring_"));
    assert.ok(scratch, "the scratch branch is still there");
    assert.ok(
      lines.some(
        (l) =>
          l.includes(`scratch branch ${scratch.id}`) && l.includes(`neonctl branches delete ${scratch.id}`),
      ),
      lines.join("\n"),
    );
    assert.equal(
      (await branchProvider.diff!(branch.id, restored.outs as BranchOutputs, news)).changes,
      false,
    );
  });

  it("fails a restore from a snapshot of another project saying so, not that something was deleted outside Pulumi", async () => {
    const { branchIn, branch } = await stackBranch("elsewhere");
    const other = await client().createSnapshot(DEMO.orgProjectId, DEMO.orgBranchId, { name: "theirs" });
    await projectIdle(harness.emulator, DEMO.orgProjectId);
    const news = { ...branchIn, restore: { snapshotId: other.snapshot.id } };
    const err = await branchProvider.update!(branch.id, branch.outs, news).then(
      () => assert.fail("restored from another project's snapshot"),
      (e: Error) => e,
    );
    assert.match(
      err.message,
      new RegExp(
        `^restore\\.snapshotId: project ${P} has no snapshot ${other.snapshot.id} \\(404 Not Found, request id [\\w-]+\\): ` +
          "a branch is restored from a snapshot of its own project",
      ),
    );
    assert.doesNotMatch(err.message, /pulumi refresh/);
  });

  it("restores a branch from a point of its own history, keeping the data before it under the name given", async () => {
    const { branchIn, branch } = await stackBranch("rewind");
    const lsn = (state().branches.find((b) => b.id === branch.id)?.parent_lsn ?? "0/1000000") as string;
    const news = { ...branchIn, restore: { lsn, preserveUnderName: "rewind-before" } };
    const restored = (await branchProvider.update!(branch.id, branch.outs, news)).outs as BranchOutputs;
    assert.equal(restored.branchId, branch.id);
    assert.ok(state().branches.some((b) => b.name === "rewind-before" && b.deleted_at_ms === undefined));
  });

  it("follows a restore finalized outside the stack on refresh: the branch, its role, database, child, snapshot and schedule point at the branch that carries the name and compute", async () => {
    const { branch, role, database } = await stackBranch("swapped");
    const child = await branchProvider.create(
      withProvider<BranchInputs>({ projectId: P, name: "swapped-child", parentId: branch.id }),
    );
    const snapshot = await snapshotProvider.create(
      withProvider({ projectId: P, branchId: branch.id, name: "nightly" }),
    );
    const schedule = await backupScheduleProvider.create(
      withProvider<BackupScheduleInputs>({
        projectId: P,
        branchId: branch.id,
        schedule: [{ frequency: "daily" }],
      }),
    );
    const c = client();
    const made = await c.restoreSnapshot(P, snapshot.id, {
      target_branch_id: branch.id,
      finalize_restore: true,
    });
    await projectIdle(harness.emulator, P);
    const carrier = made.branch.id;
    assert.notEqual(carrier, branch.id);

    const b = await branchProvider.read!(branch.id, branch.outs);
    assert.equal(b.id, carrier, "the branch's state follows the swap");
    const bOuts = b.props as BranchOutputs;
    assert.deepEqual([bOuts.name, bOuts.branchId], ["swapped", carrier]);
    assert.deepEqual(
      bOuts.endpoints.map((e) => e.id),
      branch.outs.endpoints.map((e) => e.id),
      "with the same compute",
    );
    const r = await roleProvider.read!(role.id, role.outs as RoleOutputs);
    assert.deepEqual([r.id, (r.props as RoleOutputs).branchId], [`${carrier}/swapped_app`, carrier]);
    const d = await databaseProvider.read!(database.id, database.outs as DatabaseOutputs);
    assert.equal((d.props as DatabaseOutputs).branchId, carrier);
    const k = await branchProvider.read!(child.id, child.outs as BranchOutputs);
    assert.deepEqual([k.id, (k.props as BranchOutputs).parentId], [child.id, carrier]);
    const s = await snapshotProvider.read!(snapshot.id, snapshot.outs as SnapshotOutputs);
    assert.equal((s.props as SnapshotOutputs).branchId, carrier);
    const sc = await backupScheduleProvider.read!(schedule.id, schedule.outs as BackupScheduleOutputs);
    assert.deepEqual([sc.id, (sc.props as BackupScheduleOutputs).branchId], [carrier, carrier]);

    // A program whose branch id is now the carrier's sees no change on any of them.
    const roleNews = { ...(role.outs as RoleOutputs), branchId: carrier };
    assert.equal(
      (await roleProvider.diff!(r.id as string, r.props as RoleOutputs, roleNews as never)).changes,
      false,
    );
  });
});
