/**
 * Snapshots of a project's branches (`/projects/{project_id}/snapshots`, `.../branches/{branch_id}/snapshot`),
 * restores from them, and each branch's backup schedule.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation } from "../mutation";
import { apiRoute } from "../path";
import { send } from "../request";
import {
  type BackupScheduleEntry,
  type BackupScheduleItem,
  BackupScheduleResponseSchema,
  EmptyResponseSchema,
  type OperationsOnlyResponse,
  OperationsOnlyResponseSchema,
  type Snapshot,
  type SnapshotCreateRequest,
  type SnapshotCreateResponse,
  SnapshotCreateResponseSchema,
  SnapshotResponseSchema,
  type SnapshotRestoreRequest,
  type SnapshotRestoreResponse,
  SnapshotRestoreResponseSchema,
  SnapshotsResponseSchema,
  type SnapshotUpdateRequest,
} from "../schemas";

const snapshotRoute = (projectId: string, snapshotId: string) =>
  apiRoute("/projects/{project_id}/snapshots/{snapshot_id}", {
    project_id: projectId,
    snapshot_id: snapshotId,
  });

const scheduleRoute = (projectId: string, branchId: string) =>
  apiRoute("/projects/{project_id}/branches/{branch_id}/backup_schedule", {
    project_id: projectId,
    branch_id: branchId,
  });

/** `POST .../branches/{branch_id}/snapshot` (now, or at `timestamp` / `lsn`); waits for the operations it starts. */
export function createSnapshot(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  query: SnapshotCreateRequest,
  options: MutationOptions = {},
): Promise<SnapshotCreateResponse> {
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}/snapshot", {
      project_id: projectId,
      branch_id: branchId,
    }),
    query: { ...query },
    schema: SnapshotCreateResponseSchema,
  });
}

/** `GET /projects/{project_id}/snapshots`: every snapshot of the project, the scheduled ones too. */
export async function listSnapshots(ctx: ClientContext, projectId: string): Promise<Snapshot[]> {
  const body = await send(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/snapshots", { project_id: projectId }),
    schema: SnapshotsResponseSchema,
  });
  return body.snapshots;
}

/** `PATCH .../snapshots/{snapshot_id}`: rename, or change the expiry (`null` keeps it indefinitely). */
export async function updateSnapshot(
  ctx: ClientContext,
  projectId: string,
  snapshotId: string,
  body: SnapshotUpdateRequest,
): Promise<Snapshot> {
  const answer = await send(ctx.request, {
    method: "PATCH",
    route: snapshotRoute(projectId, snapshotId),
    body,
    schema: SnapshotResponseSchema,
  });
  return answer.snapshot;
}

/** `DELETE .../snapshots/{snapshot_id}` (202); waits for the operations it starts. */
export function deleteSnapshot(
  ctx: ClientContext,
  projectId: string,
  snapshotId: string,
  options: MutationOptions = {},
): Promise<OperationsOnlyResponse> {
  return sendMutation(ctx, projectId, options, {
    method: "DELETE",
    route: snapshotRoute(projectId, snapshotId),
    schema: OperationsOnlyResponseSchema,
  });
}

/**
 * `POST .../snapshots/{snapshot_id}/restore`: a new branch with the snapshot's data, which replaces
 * `target_branch_id` (its name and computes move to it) when finalized; waits for its operations.
 */
export function restoreSnapshot(
  ctx: ClientContext,
  projectId: string,
  snapshotId: string,
  body: SnapshotRestoreRequest,
  options: MutationOptions = {},
): Promise<SnapshotRestoreResponse> {
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: apiRoute("/projects/{project_id}/snapshots/{snapshot_id}/restore", {
      project_id: projectId,
      snapshot_id: snapshotId,
    }),
    body,
    schema: SnapshotRestoreResponseSchema,
  });
}

/** `POST .../branches/{branch_id}/finalize_restore`: swaps the restored branch in; waits for the computes' restarts. */
export function finalizeRestore(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: { name?: string | undefined } = {},
  options: MutationOptions = {},
): Promise<OperationsOnlyResponse> {
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}/finalize_restore", {
      project_id: projectId,
      branch_id: branchId,
    }),
    body,
    schema: OperationsOnlyResponseSchema,
  });
}

/** `GET .../branches/{branch_id}/backup_schedule`: the entries the service takes snapshots by (none: empty). */
export async function getBackupSchedule(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<BackupScheduleItem[]> {
  const body = await send(ctx.request, {
    method: "GET",
    route: scheduleRoute(projectId, branchId),
    schema: BackupScheduleResponseSchema,
  });
  return body.schedule;
}

/** `PUT .../branches/{branch_id}/backup_schedule`: replaces the schedule; an empty one stops the automatic snapshots. */
export async function setBackupSchedule(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  schedule: BackupScheduleEntry[],
): Promise<void> {
  await send(ctx.request, {
    method: "PUT",
    route: scheduleRoute(projectId, branchId),
    body: { schedule },
    schema: EmptyResponseSchema,
  });
}
