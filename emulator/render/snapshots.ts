import type { BackupSchedule, Snapshot } from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { BranchRecord, SnapshotRecord } from "../records";

// Snapshots as the API shows them, and a branch's backup schedule.

/** A snapshot; `manual` is false for the ones a backup schedule took. */
export function renderSnapshot(s: SnapshotRecord): Snapshot {
  const out: Snapshot = {
    id: s.id,
    name: s.name,
    lsn: s.lsn,
    timestamp: isoSeconds(s.timestamp_ms),
    source_branch_id: s.source_branch_id,
    created_at: isoSeconds(s.created_at_ms),
    manual: s.manual,
    full_size: s.logical_size,
  };
  if (s.expires_at_ms !== undefined) out["expires_at"] = isoSeconds(s.expires_at_ms);
  return out;
}

/** The branch's backup schedule, each entry as it was set (none when it has no schedule). */
export function renderBackupSchedule(b: BranchRecord): BackupSchedule {
  return { schedule: (b.backup_schedule ?? []).map((e) => ({ ...e })) };
}
