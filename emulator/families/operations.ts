import type { EmulatorContext } from "../context";
import { locked } from "../errors";
import type { OperationSpec, OperationView } from "../operations";
import type { OperationRecord, ProjectRecord } from "../records";

// Operations as the state changes start them. What an operation does over time is the engine's
// (../operations.ts); here is who starts which, and the bookkeeping that goes with it.

/** Throws 423 while the project has unfinished operations. */
export function checkIdle(ctx: EmulatorContext, project: ProjectRecord): void {
  if (ctx.engine.isBusy(project.id)) throw locked();
}

/** Queues the operations a user's change starts, in order, and marks the project updated. */
export function startOperations(
  ctx: EmulatorContext,
  project: ProjectRecord,
  specs: OperationSpec[],
): OperationRecord[] {
  const operations = ctx.engine.create(project.id, specs, "user");
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
  return operations;
}

/** Starts a platform-initiated operation on the project now (default `check_availability`); settle the state first. */
export function startPlatformOperation(
  ctx: EmulatorContext,
  project: ProjectRecord,
  action?: string,
  durationMs?: number,
): OperationView {
  const op = ctx.engine.startPlatform(project.id, action, durationMs);
  ctx.changed();
  return ctx.engine.view(op);
}

/** Adds `count` finished operations to the project's history; returns how many. */
export function addFinishedOperations(ctx: EmulatorContext, project: ProjectRecord, count: number): number {
  const added = ctx.engine.addFinished(project.id, count);
  ctx.changed();
  return added;
}
