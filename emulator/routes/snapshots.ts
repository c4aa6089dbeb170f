import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { checkIdle } from "../families/operations";
import {
  deleteSnapshot,
  finalizeRestore,
  replacedName,
  restoreSnapshot,
  restoreTarget,
  setBackupSchedule,
  takeSnapshot,
  updateSnapshot,
} from "../families/snapshots";
import type { BackupScheduleItem } from "../openapi/requests.gen";
import type { BackupScheduleEntry, ProjectRecord, SnapshotRecord } from "../records";
import { renderBranch } from "../render/branches";
import { renderEndpoint } from "../render/endpoints";
import { renderBackupSchedule, renderSnapshot } from "../render/snapshots";
import { expiryMs } from "../rules";
import { branchNameInUse, branchPoint, conflict } from "./branches";
import { branchOf, projectOf } from "./lookup";
import { route } from "./route";

// Snapshots: take one of a branch (now, or at a point of its history), list, rename or change
// the expiry, delete (202), restore into a new branch (finalized at once or later), finalize a
// restore, and a branch's backup schedule (get, replace).

const FREQUENCIES = new Set(["hourly", "daily", "weekly", "monthly", "yearly"]);

/** A schedule as sent, checked beyond the document's ranges: known frequencies, a weekday for weekly ones. */
function scheduleOf(items: BackupScheduleItem[]): BackupScheduleEntry[] {
  return items.map((item, i) => {
    const where = `schedule[${i}]`;
    if (!FREQUENCIES.has(item.frequency)) {
      throw badRequest(
        `${where}.frequency must be one of ${[...FREQUENCIES].join(", ")}, got ${JSON.stringify(item.frequency)}`,
      );
    }
    if (item.frequency === "weekly" && item.day !== undefined && item.day > 7) {
      throw badRequest(`${where}.day of a weekly entry is a weekday, 1 (Monday) to 7, got ${item.day}`);
    }
    const entry: BackupScheduleEntry = { frequency: item.frequency as BackupScheduleEntry["frequency"] };
    if (item.hour !== undefined) entry.hour = item.hour;
    if (item.day !== undefined) entry.day = item.day;
    if (item.month !== undefined) entry.month = item.month;
    if (item.retention_seconds !== undefined) entry.retention_seconds = item.retention_seconds;
    return entry;
  });
}

/** Registers the snapshot and backup schedule routes. */
export function snapshotRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const now = () => ctx.clock.now();

  function snapshotOf(project: ProjectRecord, snapshotId: string): SnapshotRecord {
    const snapshot = store.snapshots.get(snapshotId);
    if (!snapshot || snapshot.project_id !== project.id) {
      throw notFound(`snapshot ${snapshotId} not found in project ${project.id}`);
    }
    return snapshot;
  }

  route(app, "POST /projects/{project_id}/branches/{branch_id}/snapshot", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const query = request.query;
    await ctx.data?.noteTime();
    const point = branchPoint(ctx, project, branch, query.lsn, query.timestamp, "snapshot");
    const expiresAtMs =
      query.expires_at === undefined ? undefined : expiryMs(query.expires_at, now(), "", false);
    if (query.name !== undefined && query.name.trim() === "") throw badRequest("name must not be empty");
    checkIdle(ctx, project);
    const { snapshot, operations } = takeSnapshot(ctx, project, branch, {
      ...point,
      manual: true,
      ...(query.name === undefined ? {} : { name: query.name }),
      ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
    });
    // The answer names the position the data was copied at.
    await ctx.data?.sync();
    return { snapshot: renderSnapshot(snapshot), operations: operations.map((op) => ctx.engine.view(op)) };
  });

  route(app, "GET /projects/{project_id}/snapshots", async (request) => {
    const project = projectOf(ctx, request);
    return { snapshots: store.projectSnapshots(project.id).map(renderSnapshot) };
  });

  route(app, "PATCH /projects/{project_id}/snapshots/{snapshot_id}", async (request) => {
    const project = projectOf(ctx, request);
    const snapshot = snapshotOf(project, request.params.snapshot_id);
    // The official CLI also sends `expires_at` (a time, or null to keep the snapshot indefinitely).
    const changes = request.body.snapshot as { name?: string; expires_at?: string | null };
    if (changes.name !== undefined && changes.name.trim() === "")
      throw badRequest("snapshot.name must not be empty");
    const expires = changes.expires_at;
    if (expires !== undefined && expires !== null && typeof expires !== "string") {
      throw badRequest("snapshot.expires_at must be an RFC 3339 timestamp or null");
    }
    updateSnapshot(ctx, snapshot, {
      name: changes.name,
      expiresAtMs:
        expires === undefined || expires === null ? expires : expiryMs(expires, now(), "snapshot.", false),
    });
    return { snapshot: renderSnapshot(snapshot) };
  });

  route(app, "DELETE /projects/{project_id}/snapshots/{snapshot_id}", async (request, reply) => {
    const project = projectOf(ctx, request);
    const snapshot = snapshotOf(project, request.params.snapshot_id);
    checkIdle(ctx, project);
    const operations = deleteSnapshot(ctx, project, snapshot);
    return reply.code(202).send({ operations: operations.map((op) => ctx.engine.view(op)) });
  });

  route(app, "POST /projects/{project_id}/snapshots/{snapshot_id}/restore", async (request) => {
    const project = projectOf(ctx, request);
    const snapshot = snapshotOf(project, request.params.snapshot_id);
    const body = request.body ?? {};
    const targetId = body.target_branch_id ?? snapshot.source_branch_id;
    const target = store.liveBranch(project.id, targetId);
    if (!target) {
      throw notFound(
        body.target_branch_id === undefined
          ? `the snapshot's branch ${targetId} no longer exists: give target_branch_id`
          : `target branch ${targetId} not found in project ${project.id}`,
      );
    }
    const name = body.name ?? request.query.name;
    if (name !== undefined && branchNameInUse(ctx, project, name)) throw conflict(name);
    checkIdle(ctx, project);
    const { branch, operations } = restoreSnapshot(ctx, project, snapshot, {
      target,
      finalize: body.finalize_restore ?? false,
      ...(name === undefined ? {} : { name }),
    });
    return {
      branch: renderBranch(branch, store, now()),
      endpoints: store.branchEndpoints(branch.id).map((e) => renderEndpoint(e, store, now())),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/finalize_restore", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const target = restoreTarget(ctx, project, branch);
    const oldName = request.body?.name ?? replacedName(target, now());
    if (branchNameInUse(ctx, project, oldName, target.id)) throw conflict(oldName);
    checkIdle(ctx, project);
    const operations = finalizeRestore(ctx, project, branch, oldName);
    return { operations: operations.map((op) => ctx.engine.view(op)) };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/backup_schedule", async (request) => {
    return renderBackupSchedule(branchOf(ctx, request).branch);
  });

  route(app, "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule", async (request) => {
    const { branch } = branchOf(ctx, request);
    setBackupSchedule(ctx, branch, scheduleOf(request.body.schedule));
    return {};
  });
}
