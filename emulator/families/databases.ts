import type { EmulatorContext } from "../context";
import type { BranchRecord, DatabaseRecord, OperationRecord, ProjectRecord } from "../records";
import type { Store } from "../state";
import { applyBranchConfig } from "./endpoints";

// Databases of a branch, each owned by one of its roles. Every change reaches the branch's
// compute as `apply_config` then `suspend_compute`.

const ACTIONS = ["apply_config", "suspend_compute"];

/** A database record under a new id. */
export function databaseRecord(store: Store, name: string, ownerName: string, at: number): DatabaseRecord {
  return { id: store.nextDbId(), name, owner_name: ownerName, created_at_ms: at };
}

/** Adds a database to the branch. */
export function createDatabase(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  name: string,
  ownerName: string,
): { database: DatabaseRecord; operations: OperationRecord[] } {
  const now = ctx.clock.now();
  const database: DatabaseRecord = { ...databaseRecord(ctx.store, name, ownerName, now), updated_at_ms: now };
  branch.databases.push(database);
  return { database, operations: applyBranchConfig(ctx, project, branch, ACTIONS) };
}

/** Renames a database or gives it another owner. */
export function updateDatabase(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  database: DatabaseRecord,
  changes: { name?: string | undefined; ownerName?: string | undefined },
): OperationRecord[] {
  if (changes.name !== undefined) database.name = changes.name;
  if (changes.ownerName !== undefined) database.owner_name = changes.ownerName;
  database.updated_at_ms = ctx.clock.now();
  return applyBranchConfig(ctx, project, branch, ACTIONS);
}

/** Removes a database from the branch. */
export function deleteDatabase(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  database: DatabaseRecord,
): OperationRecord[] {
  branch.databases = branch.databases.filter((d) => d !== database);
  return applyBranchConfig(ctx, project, branch, ACTIONS);
}
