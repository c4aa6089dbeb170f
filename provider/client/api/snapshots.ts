/**
 * Snapshots of a project's branches (`/projects/{project_id}/snapshots`, `.../branches/{branch_id}/snapshot`),
 * restores from them, and each branch's backup schedule.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation } from "../mutation";
import { apiRoute } from "../path";
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
  query: Requests["POST /projects/{project_id}/branches/{branch_id}/snapshot"]["Querystring"],
  options: MutationOptions = {},
): Promise<SnapshotCreateResponse> {
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}/snapshot", {
      project_id: projectId,
      branch_id: branchId,
    }),
    query,
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
  body: Requests["POST /projects/{project_id}/snapshots/{snapshot_id}/restore"]["Body"],
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
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/finalize_restore"]["Body"] = {},
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
  schedule: Requests["PUT /projects/{project_id}/branches/{branch_id}/backup_schedule"]["Body"]["schedule"],
): Promise<void> {
  await send(ctx.request, {
    method: "PUT",
    route: scheduleRoute(projectId, branchId),
    body: {
      schedule,
    } satisfies Requests["PUT /projects/{project_id}/branches/{branch_id}/backup_schedule"]["Body"],
    schema: EmptyResponseSchema,
  });
}
