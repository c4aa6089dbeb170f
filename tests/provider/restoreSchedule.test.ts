import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import {
  type BackupScheduleInputs,
  type BackupScheduleOutputs,
  backupScheduleProvider,
} from "../../provider/resources/public/backupSchedule";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
} from "../../provider/resources/public/branch";
import { useEmulator, withProvider } from "./support";

// The branch a restore from a point of history keeps aside holds the data from before the restore;
// it is not the branch the stack manages, and takes none of its settings: the backup schedule stays
// with the restored branch, so nothing takes snapshots of the kept branch, before or after destroy.

const P = DEMO.projectId;
const HOUR = 3_600_000;

describe("the branch a restore keeps aside", () => {
  const harness = useEmulator();
  const state = () => harness.emulator.control.dumpState();
  const scheduled = (branchId: string) =>
    (state().snapshots ?? []).filter((s) => s.source_branch_id === branchId && !s.manual).length;

  it("takes no scheduled snapshots, while the restored branch keeps its schedule, and none after destroy", async () => {
    const branchIn = withProvider<BranchInputs>({
      projectId: P,
      name: "nightly",
      endpoints: [{ type: "read_write" }],
    });
    const branch = await branchProvider.create(branchIn);
    const scheduleIn = withProvider<BackupScheduleInputs>({
      projectId: P,
      branchId: branch.id,
      schedule: [{ frequency: "daily", hour: 3 }],
    });
    const schedule = await backupScheduleProvider.create(scheduleIn);
    const lsn = (state().branches.find((b) => b.id === branch.id)?.parent_lsn ?? "0/1000000") as string;
    const restored = await branchProvider.update!(branch.id, branch.outs as BranchOutputs, {
      ...branchIn,
      restore: { lsn },
    });
    const kept = state().branches.find(
      (b) => b.name.startsWith("nightly_before_restore_") && b.deleted_at_ms === undefined,
    );
    assert.ok(kept, "the data before the restore is kept as a branch");

    harness.emulator.control.advance(48 * HOUR);
    assert.equal(scheduled(kept.id), 0, "the kept branch takes no scheduled snapshots");
    assert.ok(scheduled(branch.id) >= 1, "the restored branch keeps its schedule");

    await backupScheduleProvider.delete!(schedule.id, schedule.outs as BackupScheduleOutputs);
    await branchProvider.delete!(branch.id, restored.outs as BranchOutputs);
    harness.emulator.control.advance(48 * HOUR);
    assert.equal(scheduled(kept.id), 0, "nothing takes snapshots of the kept branch after destroy");
  });
});
