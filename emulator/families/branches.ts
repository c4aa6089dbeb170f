import type { EmulatorContext } from "../context";
import {
  DEFAULT_BRANCH_BYTES,
  DEFAULT_HISTORY_RETENTION_SECONDS,
  EMPTY_BRANCH_BYTES,
  FIRST_LSN,
} from "../defaults";
import { HttpError } from "../errors";
import { newBranchId } from "../ids";
import type { OperationSpec } from "../operations";
import type { BranchRecord, EndpointRecord, Fields, OperationRecord, ProjectRecord } from "../records";
import type { Store } from "../state";
import { afterDelete, afterRestore, copyToChild, keepPreserved } from "./branch-data";
import { addEndpoint, type EndpointSpec, onCompute } from "./endpoints";

// Branches: created from a parent (its data, or its schema only), updated, restored from a
// source branch, deleted (their endpoints kept for a recovery within 7 days), recovered, made
// the project's default, and deleted by the platform when their expiry passes.

/** What a branch record is made of; the rest takes the values of a fresh, unprotected branch. */
export type BranchFields = Fields<
  BranchRecord,
  "id" | "project_id" | "name" | "creation_source" | "roles" | "databases"
>;

/** Puts a new branch record, created at `at`, into the store. */
export function putBranch(store: Store, fields: BranchFields, at: number): BranchRecord {
  const branch: BranchRecord = {
    default: false,
    protected: false,
    created_at_ms: at,
    updated_at_ms: at,
    annotation: {},
    init_source: "parent-data",
    ...fields,
  };
  store.branches.set(branch.id, branch);
  return branch;
}

/** A branch id no branch has. */
export function uniqueBranchId(ctx: EmulatorContext): string {
  let id = newBranchId(ctx.store.ids);
  while (ctx.store.branches.has(id)) id = newBranchId(ctx.store.ids);
  return id;
}

/** Sets when the branch expires, or (null) that it never does. */
function setExpiry(branch: BranchRecord, expiresAtMs: number | null, now: number): void {
  if (expiresAtMs === null) {
    delete branch.expires_at_ms;
    delete branch.ttl_interval_seconds;
  } else {
    branch.expires_at_ms = expiresAtMs;
    branch.ttl_interval_seconds = Math.round((expiresAtMs - now) / 1000);
  }
}

/** Input for a new branch. */
export interface NewBranch {
  name?: string;
  parent: BranchRecord;
  endpoints: EndpointSpec[];
  annotation?: Record<string, string>;
  protected?: boolean;
  creatorUserId?: string;
  source: string;
  /** "parent-data" (default) or "schema-only". */
  initSource?: string;
  expiresAtMs?: number;
  parentLsn?: string;
  parentTimestampMs?: number;
}

/** A created branch with its endpoints and operations. */
export interface CreatedBranch {
  branch: BranchRecord;
  endpoints: EndpointRecord[];
  operations: OperationRecord[];
}

/** Creates a branch (`create_branch`, then `start_compute` per endpoint). */
export function createBranch(ctx: EmulatorContext, project: ProjectRecord, input: NewBranch): CreatedBranch {
  const { store } = ctx;
  const now = ctx.clock.now();
  const id = uniqueBranchId(ctx);
  const schemaOnly = input.initSource === "schema-only";
  const branch = putBranch(
    store,
    {
      id,
      project_id: project.id,
      name: input.name ?? id,
      protected: input.protected ?? false,
      creation_source: input.source,
      // Roles keep their passwords on a child branch; databases are copied with their schema.
      roles: input.parent.roles.map((r) => ({ ...r, created_at_ms: now })),
      databases: input.parent.databases.map((d) => ({ ...d, id: store.nextDbId(), created_at_ms: now })),
      annotation: { ...(input.annotation ?? {}) },
      init_source: schemaOnly ? "schema-only" : "parent-data",
      logical_size: schemaOnly ? EMPTY_BRANCH_BYTES : (input.parent.logical_size ?? DEFAULT_BRANCH_BYTES),
    },
    now,
  );
  const at = input.parentTimestampMs ?? now;
  // A point of the parent's history, when one is asked for; else its data as the copy is made.
  const point =
    input.parentLsn ?? (input.parentTimestampMs === undefined ? undefined : pointLsn(ctx, input.parent, at));
  // A schema-only branch is a new root: it copies the parent's schema but is not its child.
  if (!schemaOnly) {
    branch.parent_id = input.parent.id;
    branch.parent_lsn = point ?? pointLsn(ctx, input.parent, at);
    branch.parent_timestamp_ms = at;
  }
  if (input.expiresAtMs !== undefined) setExpiry(branch, input.expiresAtMs, now);
  if (input.creatorUserId !== undefined) branch.created_by_user_id = input.creatorUserId;
  // What each family hands down to a child is the family's rule (branch-data.ts).
  copyToChild(input.parent, branch, { now, schemaOnly });
  ctx.data?.copyData(branch, ctx.data.databasesOf(input.parent), {
    schemaOnly,
    ...(point === undefined
      ? { onCopied: (lsn: string) => (schemaOnly ? undefined : tell(ctx, () => (branch.parent_lsn = lsn))) }
      : { atLsn: point }),
  });
  const endpoints = input.endpoints.map((spec) => addEndpoint(ctx, project, branch, spec, input.source));
  const specs: OperationSpec[] = [{ action: "create_branch", branch_id: id }];
  for (const e of endpoints) specs.push(...onCompute(e, "start_compute"));
  const operations = ctx.engine.create(project.id, specs, "user");
  branch.create_op_id = operations[0]?.id as string;
  project.updated_at_ms = now;
  ctx.changed();
  return { branch, endpoints, operations };
}

/** A change to a branch's own fields; `expiresAtMs: null` removes the expiry. */
export interface BranchChanges {
  name?: string | undefined;
  protected?: boolean | undefined;
  expiresAtMs?: number | null | undefined;
}

/** Changes a branch's name, protection or expiry (no operation). */
export function updateBranch(ctx: EmulatorContext, branch: BranchRecord, changes: BranchChanges): void {
  const now = ctx.clock.now();
  if (changes.name !== undefined) branch.name = changes.name;
  if (changes.protected !== undefined) branch.protected = changes.protected;
  if (changes.expiresAtMs !== undefined) setExpiry(branch, changes.expiresAtMs, now);
  branch.updated_at_ms = now;
  ctx.changed();
}

/**
 * Restores a branch's data from a source branch (itself at an earlier point, its parent, or
 * another branch): its endpoints are suspended, a new timeline is created from the source, and
 * they start again, but for a disabled one. With `preserveUnderName` the previous state becomes a new branch of that name,
 * which takes over the branch's children.
 */
export function restoreBranch(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  source: BranchRecord,
  options: { lsn?: string; preserveUnderName?: string },
): OperationRecord[] {
  const { store } = ctx;
  const now = ctx.clock.now();
  // The data each side starts from, named before the branch's databases are replaced.
  const previous = ctx.data?.databasesOf(branch);
  const restored = ctx.data?.databasesOf(source);
  if (options.preserveUnderName !== undefined) {
    const preserved: BranchRecord = {
      ...structuredClone(branch),
      id: uniqueBranchId(ctx),
      name: options.preserveUnderName,
      default: false,
      protected: false,
      creation_source: "api",
      created_at_ms: now,
      updated_at_ms: now,
      annotation: {},
    };
    delete preserved.create_op_id;
    delete preserved.expires_at_ms;
    delete preserved.ttl_interval_seconds;
    // A copy of the data, not of the branch's settings: each family says what stays with the branch.
    keepPreserved(preserved);
    store.branches.set(preserved.id, preserved);
    if (previous !== undefined) ctx.data?.copyData(preserved, previous);
    for (const child of store.liveBranches(project.id)) {
      if (child.parent_id === branch.id && child.id !== preserved.id) child.parent_id = preserved.id;
    }
  }
  branch.roles = source.roles.map((r) => ({ ...r }));
  branch.databases = source.databases.map((d) => ({ ...d, id: store.nextDbId() }));
  const other = source.id !== branch.id;
  if (restored !== undefined) {
    ctx.data?.copyData(
      branch,
      restored,
      options.lsn === undefined
        ? { onCopied: (lsn: string) => (other ? tell(ctx, () => (branch.parent_lsn = lsn)) : undefined) }
        : { atLsn: options.lsn },
    );
  }
  branch.logical_size = source.logical_size ?? DEFAULT_BRANCH_BYTES;
  afterRestore(branch);
  if (other) branch.parent_lsn = options.lsn ?? pointLsn(ctx, source, now);
  branch.last_reset_at_ms = now;
  branch.updated_at_ms = now;
  const endpoints = store.branchEndpoints(branch.id);
  const operations = ctx.engine.create(
    project.id,
    [
      ...endpoints.flatMap((e) => onCompute(e, "suspend_compute")),
      { action: "create_branch", branch_id: branch.id },
      // A disabled compute keeps its flag and is not started again: it serves nothing until enabled.
      ...endpoints.filter((e) => e.disabled !== true).flatMap((e) => onCompute(e, "start_compute")),
    ],
    "user",
  );
  project.updated_at_ms = now;
  ctx.changed();
  return operations;
}

/** An LSN as the API writes it, `0/1F0A3B8`: two hexadecimal halves of up to 8 digits. */
export const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

/** The oldest moment of the branch's history the project keeps: its creation, or the retention's start. */
export function historyStart(project: ProjectRecord, branch: BranchRecord, nowMs: number): number {
  const retentionMs = (project.history_retention_seconds ?? DEFAULT_HISTORY_RETENTION_SECONDS) * 1000;
  return Math.max(branch.created_at_ms, nowMs - retentionMs);
}

/** An LSN's byte position: its two hexadecimal halves as one number. */
function lsnBytes(lsn: string): number {
  const slash = lsn.indexOf("/");
  return Number.parseInt(lsn.slice(0, slash), 16) * 2 ** 32 + Number.parseInt(lsn.slice(slash + 1), 16);
}

/**
 * The LSN of a branch's data at a time: with the data plane the real WAL position of that time
 * (docs/api-rules.md §9), else `lsnAt`'s plausible one.
 */
export function pointLsn(ctx: EmulatorContext, branch: BranchRecord, atMs: number): string {
  return ctx.data === undefined ? lsnAt(branch, atMs) : ctx.data.lsnAt(atMs);
}

/** The time of an LSN of a branch: with the data plane when the WAL reached it (Infinity: not yet), else `timeAtLsn`'s. */
export function pointTime(ctx: EmulatorContext, branch: BranchRecord, lsn: string): number {
  return ctx.data === undefined ? timeAtLsn(branch, lsn) : ctx.data.timeAt(lsn);
}

/** Makes a change the data plane reports once a copy is made, and has the state saved. */
function tell(ctx: EmulatorContext, change: () => void): void {
  change();
  ctx.changed();
}

/** A plausible LSN for a branch at a time: grows with the branch's age, so later means larger. */
export function lsnAt(branch: BranchRecord, atMs: number): string {
  const bytes = lsnBytes(FIRST_LSN) + Math.max(0, Math.floor((atMs - branch.created_at_ms) / 1000)) * 0x100;
  // An LSN is two 32-bit halves: past 0/FFFFFFFF the high half counts on.
  const high = Math.floor(bytes / 2 ** 32);
  return `${high.toString(16).toUpperCase()}/${(bytes % 2 ** 32).toString(16).toUpperCase()}`;
}

/** The time `lsnAt` gives an LSN of the branch (`0/1F0A3B8`-like): before its creation for a smaller one. */
export function timeAtLsn(branch: BranchRecord, lsn: string): number {
  return branch.created_at_ms + Math.floor((lsnBytes(lsn) - lsnBytes(FIRST_LSN)) / 0x100) * 1000;
}

/** Throws the configured refusal when the branch is the project's default/root branch or has children. */
export function checkBranchDeletable(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
): void {
  const status = ctx.refusalStatus;
  if (branch.id === project.default_branch_id || branch.default) {
    throw new HttpError(status, `branch ${branch.id} is the project's default branch and cannot be deleted`);
  }
  // A branch a snapshot restore made has no parent either, and is not the project's root.
  if (
    branch.parent_id === undefined &&
    branch.init_source !== "schema-only" &&
    branch.restored_from === undefined
  ) {
    throw new HttpError(status, `branch ${branch.id} is the project's root branch and cannot be deleted`);
  }
  if (branch.protected) {
    throw new HttpError(
      status,
      `branch ${branch.id} is protected and cannot be deleted; set protected to false first`,
    );
  }
  const children = ctx.store.liveBranches(project.id).filter((b) => b.parent_id === branch.id);
  if (children.length > 0) {
    throw new HttpError(
      status,
      `branch ${branch.id} has child branches (${children.map((c) => c.id).join(", ")}); delete them first`,
    );
  }
}

/** Deletes a branch and its endpoints (`suspend_compute` per endpoint, then `delete_timeline`). */
export function deleteBranch(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  initiator: OperationRecord["initiator"],
  now: number = ctx.clock.now(),
): OperationRecord[] {
  const { store } = ctx;
  const endpoints = store.branchEndpoints(branch.id);
  const specs = endpoints.flatMap((e) => onCompute(e, "suspend_compute"));
  specs.push({ action: "delete_timeline", branch_id: branch.id });
  const operations = ctx.engine.create(project.id, specs, initiator, now);
  for (const e of endpoints) store.endpoints.delete(e.id);
  if (endpoints.length > 0) branch.deleted_endpoints = structuredClone(endpoints);
  branch.deleted_at_ms = now;
  branch.updated_at_ms = now;
  afterDelete(branch);
  project.updated_at_ms = now;
  ctx.changed();
  return operations;
}

/** Brings a deleted branch back with its endpoints, idle, and no expiry; returns the endpoints. */
export function recoverBranch(ctx: EmulatorContext, branch: BranchRecord): EndpointRecord[] {
  const { store } = ctx;
  delete branch.deleted_at_ms;
  delete branch.deleted_by;
  setExpiry(branch, null, ctx.clock.now());
  const endpoints = (branch.deleted_endpoints ?? []).map((e) => ({ ...e, op_ids: [] }));
  for (const e of endpoints) store.endpoints.set(e.id, e);
  delete branch.deleted_endpoints;
  branch.updated_at_ms = ctx.clock.now();
  ctx.changed();
  return endpoints;
}

/** Makes the branch the project's default one; the default branch never expires. */
export function setDefaultBranch(ctx: EmulatorContext, project: ProjectRecord, branch: BranchRecord): void {
  const now = ctx.clock.now();
  const previous = ctx.store.branches.get(project.default_branch_id);
  if (previous) {
    previous.default = false;
    previous.updated_at_ms = now;
  }
  branch.default = true;
  setExpiry(branch, null, now);
  branch.updated_at_ms = now;
  project.default_branch_id = branch.id;
  project.updated_at_ms = now;
  ctx.changed();
}

/**
 * Deletes the branches whose expiry has passed, as the service's background job does: at their
 * expiry time, by the platform. A branch the refusal rules protect (it gained children) stays.
 */
export function expireBranches(ctx: EmulatorContext): void {
  const now = ctx.clock.now();
  const due = ctx.store
    .liveBranches()
    .filter((b) => b.expires_at_ms !== undefined && b.expires_at_ms <= now)
    .sort((a, b) => (a.expires_at_ms as number) - (b.expires_at_ms as number));
  for (const branch of due) {
    const project = ctx.store.liveProject(branch.project_id);
    if (!project) continue;
    try {
      checkBranchDeletable(ctx, project, branch);
    } catch {
      continue;
    }
    deleteBranch(ctx, project, branch, "platform", branch.expires_at_ms);
    branch.deleted_by = "ttl";
  }
}
