/**
 * Snapshots of a project's branches (`/projects/{project_id}/snapshots`, `.../branches/{branch_id}/snapshot`),
 * restores from them, and each branch's backup schedule.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type BackupScheduleItem,
  BackupScheduleResponseSchema,
  EmptyResponseSchema,
  type OperationsOnlyResponse,
  OperationsOnlyResponseSchema,
  type Snapshot,
  type SnapshotCreateResponse,
  SnapshotCreateResponseSchema,
  SnapshotResponseSchema,
  type SnapshotRestoreResponse,
  SnapshotRestoreResponseSchema,
  SnapshotsResponseSchema,
} from "../schemas";

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const snapshot = (projectId: string, snapshotId: string) => ({
  project_id: projectId,
  snapshot_id: snapshotId,
});

/** `POST .../branches/{branch_id}/snapshot` (now, or at `timestamp` / `lsn`); waits for the operations it starts. */
export function createSnapshot(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  query: Requests["POST /projects/{project_id}/branches/{branch_id}/snapshot"]["Querystring"],
  options: MutationOptions = {},
): Promise<SnapshotCreateResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/snapshot",
    { params: branch(projectId, branchId), query, schema: SnapshotCreateResponseSchema },
    options,
  );
}

/** `GET /projects/{project_id}/snapshots`: every snapshot of the project, the scheduled ones too. */
export async function listSnapshots(ctx: ClientContext, projectId: string): Promise<Snapshot[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/snapshots", {
    params: { project_id: projectId },
    schema: SnapshotsResponseSchema,
  });
  return body.snapshots;
}

/**
 * Body of `PATCH .../snapshots/{snapshot_id}`: the document's (`name`), and `expires_at`, which the
 * service takes although the document leaves it out (the official CLI sends it); `null` keeps the
 * snapshot indefinitely.
 */
export type SnapshotUpdateBody = Requests["PATCH /projects/{project_id}/snapshots/{snapshot_id}"]["Body"] & {
  snapshot: { expires_at?: string | null | undefined };
};

/** `PATCH .../snapshots/{snapshot_id}`: rename, or change the expiry (`null` keeps it indefinitely). */
export async function updateSnapshot(
  ctx: ClientContext,
  projectId: string,
  snapshotId: string,
  body: SnapshotUpdateBody,
): Promise<Snapshot> {
  const answer = await send(ctx.request, "PATCH /projects/{project_id}/snapshots/{snapshot_id}", {
    params: snapshot(projectId, snapshotId),
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
  return sendMutation(
    ctx,
    "DELETE /projects/{project_id}/snapshots/{snapshot_id}",
    { params: snapshot(projectId, snapshotId), schema: OperationsOnlyResponseSchema },
    options,
  );
}

/**
 * `POST .../snapshots/{snapshot_id}/restore`: a new branch with the snapshot's data, which replaces
 * `target_branch_id` (its name and computes move to it) when finalized; waits for its operations.
 */
export function restoreSnapshot(
  ctx: ClientContext,
  projectId: string,
  snapshotId: string,
  body: Requests["POST /projects/{project_id}/snapshots/{snapshot_id}/restore"]["Body"],
  options: MutationOptions = {},
): Promise<SnapshotRestoreResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/snapshots/{snapshot_id}/restore",
    { params: snapshot(projectId, snapshotId), body, schema: SnapshotRestoreResponseSchema },
    options,
  );
}

/** `POST .../branches/{branch_id}/finalize_restore`: swaps the restored branch in; waits for the computes' restarts. */
export function finalizeRestore(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/finalize_restore"]["Body"] = {},
  options: MutationOptions = {},
): Promise<OperationsOnlyResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/finalize_restore",
    { params: branch(projectId, branchId), body, schema: OperationsOnlyResponseSchema },
    options,
  );
}

/** `GET .../branches/{branch_id}/backup_schedule`: the entries the service takes snapshots by (none: empty). */
export async function getBackupSchedule(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<BackupScheduleItem[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/backup_schedule", {
    params: branch(projectId, branchId),
    schema: BackupScheduleResponseSchema,
  });
  return body.schedule;
}

/** `PUT .../branches/{branch_id}/backup_schedule`: replaces the schedule; an empty one stops the automatic snapshots. */
export async function setBackupSchedule(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  schedule: Requests["PUT /projects/{project_id}/branches/{branch_id}/backup_schedule"]["Body"]["schedule"],
): Promise<void> {
  await send(ctx.request, "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule", {
    params: branch(projectId, branchId),
    body: { schedule },
    schema: EmptyResponseSchema,
  });
}
