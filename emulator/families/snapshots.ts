import type { EmulatorContext } from "../context";
import { DEFAULT_BRANCH_BYTES } from "../defaults";
import { HttpError } from "../errors";
import { isoSeconds, newSnapshotId } from "../ids";
import type { OperationSpec } from "../operations";
import type {
  BackupScheduleEntry,
  BranchRecord,
  OperationRecord,
  ProjectRecord,
  SnapshotRecord,
} from "../records";
import { holdOnBranch } from "./branch-data";
import { pointLsn, putBranch, uniqueBranchId } from "./branches";
import { onCompute } from "./endpoints";

// Snapshots: a branch's roles, databases and (with Postgres) data at a point, kept apart from the
// branch until they expire or are deleted; restored into a new branch, which a finalize swaps in
// for the branch it replaces (its name, its computes, its default flag and backup schedule move
// to the restored branch; the replaced one stays, renamed). A branch's backup schedule makes the
// platform take snapshots on the emulator's clock.

declare module "../records" {
  interface BranchData {
    /** The automatic snapshots the service takes of the branch. */
    backup_schedule?: BackupScheduleEntry[];
    /** Up to when the scheduled snapshots have been taken. */
    backup_checked_ms?: number;
  }
}

// A backup schedule is a setting of the branch, not its data: a child starts without one, and it
// stays with the branch when a restore preserves a copy (a finalized snapshot restore moves it).
holdOnBranch({ field: "backup_schedule", toChild: false, preserved: false });
holdOnBranch({ field: "backup_checked_ms", toChild: false, preserved: false });

const HOUR_MS = 3_600_000;

/** Where and when a snapshot is taken. */
export interface SnapshotPoint {
  lsn?: string;
  timestampMs?: number;
}

/** Takes a snapshot of the branch (now, or at the point given). */
export function takeSnapshot(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  options: SnapshotPoint & { name?: string; expiresAtMs?: number; manual: boolean; at?: number },
): { snapshot: SnapshotRecord; operations: OperationRecord[] } {
  const { store } = ctx;
  const now = options.at ?? ctx.clock.now();
  const timestampMs = options.timestampMs ?? now;
  let id = newSnapshotId(store.ids);
  while (store.snapshots.has(id)) id = newSnapshotId(store.ids);
  const snapshot: SnapshotRecord = {
    id,
    project_id: project.id,
    name: options.name ?? `${branch.name} ${isoSeconds(timestampMs)}`,
    source_branch_id: branch.id,
    lsn: options.lsn ?? pointLsn(ctx, branch, timestampMs),
    timestamp_ms: timestampMs,
    created_at_ms: now,
    manual: options.manual,
    logical_size: branch.logical_size ?? DEFAULT_BRANCH_BYTES,
    roles: branch.roles.map((r) => ({ ...r })),
    databases: branch.databases.map((d) => ({ ...d, id: store.nextDbId() })),
  };
  if (options.expiresAtMs !== undefined) snapshot.expires_at_ms = options.expiresAtMs;
  store.snapshots.set(id, snapshot);
  // At a point of the branch's history, its data then; else its data as the copy is made.
  const past = options.lsn !== undefined || options.timestampMs !== undefined;
  ctx.data?.copyData(
    snapshot,
    ctx.data.databasesOf(branch),
    past
      ? { atLsn: snapshot.lsn }
      : {
          onCopied: (lsn) => {
            snapshot.lsn = lsn;
            ctx.changed();
          },
        },
  );
  const operations = options.manual
    ? ctx.engine.create(project.id, [{ action: "create_timeline", branch_id: branch.id }], "user", now)
    : [];
  ctx.changed();
  return { snapshot, operations };
}

/** Renames a snapshot or changes its expiry (`null` keeps it indefinitely). */
export function updateSnapshot(
  ctx: EmulatorContext,
  snapshot: SnapshotRecord,
  changes: { name?: string | undefined; expiresAtMs?: number | null | undefined },
): void {
  if (changes.name !== undefined) snapshot.name = changes.name;
  if (changes.expiresAtMs === null) delete snapshot.expires_at_ms;
  else if (changes.expiresAtMs !== undefined) snapshot.expires_at_ms = changes.expiresAtMs;
  ctx.changed();
}

/** Deletes a snapshot; its data goes with it. */
export function deleteSnapshot(
  ctx: EmulatorContext,
  project: ProjectRecord,
  snapshot: SnapshotRecord,
): OperationRecord[] {
  ctx.store.snapshots.delete(snapshot.id);
  const operations = ctx.engine.create(
    project.id,
    [{ action: "delete_timeline", branch_id: snapshot.source_branch_id }],
    "user",
  );
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
  return operations;
}

/**
 * Restores a snapshot into a new branch (named `name`, or after the snapshot) that will replace
 * `target` when finalized; with `finalize`, it replaces it at once.
 */
export function restoreSnapshot(
  ctx: EmulatorContext,
  project: ProjectRecord,
  snapshot: SnapshotRecord,
  options: { name?: string; target: BranchRecord; finalize: boolean; oldName?: string },
): { branch: BranchRecord; operations: OperationRecord[] } {
  const { store } = ctx;
  const now = ctx.clock.now();
  const id = uniqueBranchId(ctx);
  // A restored branch is a new root: its data comes from the snapshot, not from a parent's timeline.
  const branch = putBranch(
    store,
    {
      id,
      project_id: project.id,
      name: options.name ?? `${snapshot.name} (restored)`,
      creation_source: "console",
      roles: snapshot.roles.map((r) => ({ ...r, created_at_ms: now })),
      databases: snapshot.databases.map((d) => ({ ...d, id: store.nextDbId(), created_at_ms: now })),
      logical_size: snapshot.logical_size,
      restored_from: snapshot.id,
      restore_status: "restored",
      restore_target_id: options.target.id,
    },
    now,
  );
  ctx.data?.copyData(branch, ctx.data.databasesOf(snapshot));
  const specs: OperationSpec[] = [{ action: "create_branch", branch_id: id }];
  if (options.finalize) specs.push(...swapIn(ctx, project, branch, options.oldName));
  const operations = ctx.engine.create(project.id, specs, "user");
  branch.create_op_id = operations[0]?.id as string;
  project.updated_at_ms = now;
  ctx.changed();
  return { branch, operations };
}

/** The branch a restored branch replaces when finalized; 400 when it is not an unfinalized restore, 422 when the target is gone. */
export function restoreTarget(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
): BranchRecord {
  if (branch.restore_status !== "restored" || branch.restore_target_id === undefined) {
    throw new HttpError(
      400,
      `branch ${branch.id} is not an unfinalized snapshot restore: only a branch made by restoring a snapshot without finalize_restore can be finalized`,
    );
  }
  const target = ctx.store.liveBranch(project.id, branch.restore_target_id);
  if (!target) {
    throw new HttpError(
      422,
      `branch ${branch.restore_target_id}, which this restore replaces, no longer exists`,
    );
  }
  return target;
}

/** The name the replaced branch takes when none is given. */
export function replacedName(target: BranchRecord, now: number): string {
  return `${target.name}_old_${isoSeconds(now)}`;
}

/** Finalizes a restore: the restored branch takes the target's name and computes (restarted). */
export function finalizeRestore(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  oldName?: string,
): OperationRecord[] {
  const specs = swapIn(ctx, project, branch, oldName);
  return ctx.engine.create(project.id, specs, "user");
}

/** The record changes of a finalize, and the operations that restart the moved computes. */
function swapIn(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  oldName: string | undefined,
): OperationSpec[] {
  const { store } = ctx;
  const now = ctx.clock.now();
  const target = restoreTarget(ctx, project, branch);
  const endpoints = store.branchEndpoints(target.id);
  for (const e of endpoints) e.branch_id = branch.id;
  branch.name = target.name;
  target.name = oldName ?? replacedName(target, now);
  branch.protected = target.protected;
  if (target.default) {
    target.default = false;
    branch.default = true;
    project.default_branch_id = branch.id;
  }
  if (target.backup_schedule !== undefined) {
    branch.backup_schedule = target.backup_schedule;
    branch.backup_checked_ms = target.backup_checked_ms ?? now;
    delete target.backup_schedule;
    delete target.backup_checked_ms;
  }
  branch.restore_status = "finalized";
  branch.restored_as = target.id;
  delete branch.restore_target_id;
  branch.updated_at_ms = now;
  target.updated_at_ms = now;
  project.updated_at_ms = now;
  ctx.changed();
  // A disabled compute is suspended and stays so: no restart serves the restored data through it.
  return endpoints.flatMap((e) =>
    e.disabled === true ? onCompute(e, "suspend_compute") : onCompute(e, "suspend_compute", "start_compute"),
  );
}

/** Replaces a branch's backup schedule (an empty one stops the automatic snapshots). */
export function setBackupSchedule(
  ctx: EmulatorContext,
  branch: BranchRecord,
  schedule: BackupScheduleEntry[],
): void {
  if (schedule.length === 0) {
    delete branch.backup_schedule;
    delete branch.backup_checked_ms;
  } else {
    branch.backup_schedule = schedule.map((e) => ({ ...e }));
    branch.backup_checked_ms = ctx.clock.now();
  }
  branch.updated_at_ms = ctx.clock.now();
  ctx.changed();
}

/** Whether an entry's schedule takes a snapshot at the start of the UTC hour `hourMs`. */
function due(entry: BackupScheduleEntry, hourMs: number): boolean {
  const at = new Date(hourMs);
  if (entry.frequency === "hourly") return true;
  if (at.getUTCHours() !== (entry.hour ?? 0)) return false;
  if (entry.frequency === "daily") return true;
  // Weekly: day 1 is Monday; monthly: the day of the month (and the month, when given); yearly:
  // the day of its month, January when none is given.
  if (entry.frequency === "weekly") return ((at.getUTCDay() + 6) % 7) + 1 === (entry.day ?? 1);
  if (at.getUTCDate() !== (entry.day ?? 1)) return false;
  const month = entry.frequency === "yearly" ? (entry.month ?? 1) : entry.month;
  return month === undefined || at.getUTCMonth() + 1 === month;
}

/**
 * Brings snapshots up to the clock: the backup schedules' snapshots fall due at the start of each
 * hour they name (each kept `retention_seconds`, or indefinitely), and expired snapshots go.
 */
export function settleSnapshots(ctx: EmulatorContext): void {
  const { store } = ctx;
  const now = ctx.clock.now();
  for (const branch of store.liveBranches()) {
    const schedule = branch.backup_schedule;
    const project = store.liveProject(branch.project_id);
    if (schedule === undefined || project === undefined) continue;
    const from = branch.backup_checked_ms ?? now;
    // The first whole hour after the schedule was last brought up to date, to now.
    for (let hour = Math.floor(from / HOUR_MS) * HOUR_MS + HOUR_MS; hour <= now; hour += HOUR_MS) {
      for (const entry of schedule) {
        if (!due(entry, hour)) continue;
        const expiresAtMs =
          entry.retention_seconds === undefined ? undefined : hour + entry.retention_seconds * 1000;
        if (expiresAtMs !== undefined && expiresAtMs <= now) continue;
        takeSnapshot(ctx, project, branch, {
          name: `${branch.name} ${entry.frequency} ${isoSeconds(hour)}`,
          timestampMs: hour,
          manual: false,
          at: hour,
          ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
        });
      }
    }
    const lastHour = Math.floor(now / HOUR_MS) * HOUR_MS;
    if (lastHour > from) {
      branch.backup_checked_ms = lastHour;
      ctx.changed();
    }
  }
  for (const snapshot of [...store.snapshots.values()]) {
    const gone = store.liveProject(snapshot.project_id) === undefined;
    if (gone || (snapshot.expires_at_ms !== undefined && snapshot.expires_at_ms <= now)) {
      store.snapshots.delete(snapshot.id);
      ctx.changed();
    }
  }
}
