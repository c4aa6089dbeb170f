/** Snapshots of branches, restores from them, and branches' backup schedules. */
import { z } from "zod";
import { BranchSchema } from "./branches";
import { DOCUMENTED, maybe } from "./common";
import { EndpointSchema } from "./endpoints";
import { OperationSchema } from "./operations";

/** A snapshot: a branch's data at a point, kept apart from the branch. */
export const SnapshotSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  lsn: maybe(z.string()),
  timestamp: maybe(z.string()),
  source_branch_id: maybe(z.string()),
  created_at: z.string(),
  /** When the service deletes it; absent when it is kept indefinitely. */
  expires_at: maybe(z.string()),
  /** False for the snapshots a backup schedule takes. */
  manual: maybe(z.boolean()),
});
DOCUMENTED.add(SnapshotSchema, { as: "Snapshot" });
/** A snapshot. */
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** `POST /projects/{project_id}/branches/{branch_id}/snapshot`. */
export const SnapshotCreateResponseSchema = z.looseObject({
  snapshot: SnapshotSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(SnapshotCreateResponseSchema, {
  as: "POST /projects/{project_id}/branches/{branch_id}/snapshot 200",
});
/** Body of a snapshot creation. */
export type SnapshotCreateResponse = z.infer<typeof SnapshotCreateResponseSchema>;

/** `PATCH /projects/{project_id}/snapshots/{snapshot_id}`. */
export const SnapshotResponseSchema = z.looseObject({ snapshot: SnapshotSchema });
DOCUMENTED.add(SnapshotResponseSchema, { as: "PATCH /projects/{project_id}/snapshots/{snapshot_id} 200" });

/** `GET /projects/{project_id}/snapshots`. */
export const SnapshotsResponseSchema = z.looseObject({ snapshots: z.array(SnapshotSchema) });
DOCUMENTED.add(SnapshotsResponseSchema, { as: "GET /projects/{project_id}/snapshots 200" });

/** `DELETE /projects/{project_id}/snapshots/{snapshot_id}` (202) and a finalize: the operations started. */
export const OperationsOnlyResponseSchema = z.looseObject({
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(OperationsOnlyResponseSchema, { as: "OperationsResponse" });
/** Body of a change that answers with its operations only. */
export type OperationsOnlyResponse = z.infer<typeof OperationsOnlyResponseSchema>;

/** `POST /projects/{project_id}/snapshots/{snapshot_id}/restore`: the new branch and its operations. */
export const SnapshotRestoreResponseSchema = z.looseObject({
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(SnapshotRestoreResponseSchema, {
  as: "POST /projects/{project_id}/snapshots/{snapshot_id}/restore 200",
});
/** Body of a snapshot restore. */
export type SnapshotRestoreResponse = z.infer<typeof SnapshotRestoreResponseSchema>;

/** One entry of a branch's backup schedule. */
export const BackupScheduleItemSchema = z.looseObject({
  frequency: z.string(),
  hour: maybe(z.number()),
  day: maybe(z.number()),
  month: maybe(z.number()),
  retention_seconds: maybe(z.number()),
});
DOCUMENTED.add(BackupScheduleItemSchema, { as: "BackupScheduleItem" });
/** A backup schedule entry. */
export type BackupScheduleItem = z.infer<typeof BackupScheduleItemSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/backup_schedule`. */
export const BackupScheduleResponseSchema = z.looseObject({
  schedule: z.array(BackupScheduleItemSchema).default([]),
});
DOCUMENTED.add(BackupScheduleResponseSchema, { as: "BackupSchedule" });

/** `PUT .../backup_schedule`: an empty object. */
export const EmptyResponseSchema = z.looseObject({});
DOCUMENTED.add(EmptyResponseSchema, { as: "EmptyResponse" });
