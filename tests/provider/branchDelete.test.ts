import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { forgetBranchDeletes } from "../../provider/resources/lifecycle/branchDelete";
import {
  type BackupScheduleInputs,
  backupScheduleProvider,
} from "../../provider/resources/public/backupSchedule";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { type DatabaseInputs, databaseProvider } from "../../provider/resources/public/database";
import { type RoleInputs, type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { type SnapshotInputs, snapshotProvider } from "../../provider/resources/public/snapshot";
import { demoBranch, PROVIDER_TEXT, projectIdle, useEmulator } from "./support";

// The engine deletes what lives on a branch (roles, databases, computes) before the branch. When
// the branch's own delete would be refused (it is protected), those deletes refuse first, so a
// `pulumi destroy` deletes nothing instead of everything but the branch.

const P = DEMO.projectId;

describe("deleting what lives on a branch that cannot be deleted", () => {
  const harness = useEmulator();
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const protect = async (branchId: string) => {
    await client().updateBranch(P, branchId, { protected: true });
    await projectIdle(harness.emulator, P);
  };
  beforeEach(() => forgetBranchDeletes());

  /** A branch made by a Branch resource (so it carries the stack's mark), and a role and database on it. */
  async function stack(name: string, withDatabase = true) {
    const urn = `urn:pulumi:dev::app::clouddb:index:Branch::${name}`;
    const declared = { projectId: P, name, parentId: DEMO.branchId, __owner: urn } as unknown as BranchInputs;
    const checked = await branchProvider.check!({} as BranchInputs, declared);
    const branch = await branchProvider.create(checked.inputs as BranchInputs);
    const branchId = branch.id;
    const on = { projectId: P, branchId, __provider: PROVIDER_TEXT };
    const role = await roleProvider.create({ ...on, name: "app" } as RoleInputs);
    const db = withDatabase
      ? await databaseProvider.create({ ...on, name: "appdb", ownerName: "app" } as DatabaseInputs)
      : role;
    return { branch, declared: checked.inputs as BranchInputs, role, db };
  }

  it("refuses a destroy's first delete, of a role on a branch protected outside Pulumi, deleting nothing and saying what to do", async () => {
    const { branch, role, db } = await stack("guarded");
    await protect(branch.id);
    harness.emulator.control.clearRequests();

    const refused = await databaseProvider.delete!(db.id, db.outs as never).then(
      () => assert.fail("the database was deleted"),
      (err: Error) => err,
    );
    assert.match(
      refused.message,
      /^database \S+ \(appdb\) in project \S+ is not deleted: its branch br-\S+ \(guarded\) is protected/,
    );
    assert.match(refused.message, /run `pulumi up --refresh` \(the Branch then turns the protection off\)/);
    assert.match(refused.message, /Then run the destroy again\.$/);
    assert.doesNotMatch(refused.message, /Set protected: false and run pulumi up first/);
    await assert.rejects(
      roleProvider.delete!(role.id, role.outs as RoleOutputs),
      /is not deleted: its branch/,
    );
    assert.deepEqual(harness.writes(), [], "nothing was deleted");

    // The branch's own delete, had it come first, says the same in the program's terms.
    const branchRefused = await branchProvider.delete!(branch.id, branch.outs as BranchOutputs).then(
      () => assert.fail("the branch was deleted"),
      (err: Error) => err,
    );
    assert.match(
      branchRefused.message,
      /cannot be deleted: it was protected outside Pulumi; run `pulumi up --refresh`/,
    );
  });

  it("refuses a destroy's delete of a backup schedule or a snapshot of a branch protected outside Pulumi, deleting nothing", async () => {
    const { branch } = await stack("scheduled", false);
    const on = { projectId: P, branchId: branch.id, __provider: PROVIDER_TEXT };
    const schedule = await backupScheduleProvider.create({
      ...on,
      schedule: [{ frequency: "daily", hour: 3 }],
    } as BackupScheduleInputs);
    const snapshot = await snapshotProvider.create({ ...on, name: "nightly" } as SnapshotInputs);
    await projectIdle(harness.emulator, P);
    await protect(branch.id);
    harness.emulator.control.clearRequests();

    await assert.rejects(
      backupScheduleProvider.delete!(schedule.id, schedule.outs as never),
      /is not deleted: its branch br-\S+ \(scheduled\) is protected/,
    );
    await assert.rejects(
      snapshotProvider.delete!(snapshot.id, snapshot.outs as never),
      /is not deleted: its branch br-\S+ \(scheduled\) is protected/,
    );
    assert.deepEqual(harness.writes(), [], "nothing was deleted");
  });

  it("deletes a role removed from a program that still declares its protected branch", async () => {
    const { branch, declared, role } = await stack("kept", false);
    await protect(branch.id);
    // The engine diffs the resources the program declares before it deletes those it dropped.
    await branchProvider.diff!(branch.id, branch.outs as BranchOutputs, declared);
    await roleProvider.delete!(role.id, role.outs as RoleOutputs);
    assert.ok(harness.writes().some((line) => line.startsWith("DELETE ") && line.includes("/roles/app")));
  });

  it("deletes a role on a protected branch no Branch resource made", async () => {
    const branchId = await demoBranch(harness.emulator, "console-made");
    await protect(branchId);
    const role = await roleProvider.create({
      projectId: P,
      branchId,
      name: "app",
      __provider: PROVIDER_TEXT,
    } as RoleInputs);
    await roleProvider.delete!(role.id, role.outs as RoleOutputs);
  });
});
