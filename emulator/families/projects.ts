import type { EmulatorContext } from "../context";
import {
  DEFAULT_BRANCH_BYTES,
  DEFAULT_BRANCH_NAME,
  DEFAULT_DATABASE_NAME,
  DEFAULT_PG_VERSION,
  DEFAULT_REGION,
  DEFAULT_ROLE_NAME,
} from "../defaults";
import { badRequest, HttpError } from "../errors";
import { newProjectId } from "../ids";
import type {
  BranchRecord,
  ComputeSettings,
  EndpointRecord,
  Fields,
  OperationRecord,
  ProjectRecord,
} from "../records";
import type { Store } from "../state";
import { putBranch, uniqueBranchId } from "./branches";
import { databaseRecord } from "./databases";
import { addEndpoint } from "./endpoints";
import { roleRecord } from "./roles";

// Projects: created with a default branch, its owner role and database, and a read-write
// endpoint; updated, deleted (recoverable for 7 days), recovered, and moved between accounts.

/** What a project record is made of; the rest starts empty. */
export type ProjectFields = Fields<
  ProjectRecord,
  "id" | "name" | "region_id" | "pg_version" | "creation_source" | "default_branch_id"
>;

/** Puts a new project record, created at `at` with an empty operation queue, into the store. */
export function putProject(store: Store, fields: ProjectFields, at: number): ProjectRecord {
  const project: ProjectRecord = { created_at_ms: at, updated_at_ms: at, queue_end_ms: at, ...fields };
  store.projects.set(project.id, project);
  return project;
}

/** Input for a new project. */
export interface NewProject {
  name?: string;
  regionId?: string;
  pgVersion?: number;
  ownerUserId?: string;
  orgId?: string;
  branchName?: string;
  roleName?: string;
  databaseName?: string;
  creatorUserId?: string;
  source: string;
  defaultCompute?: ComputeSettings;
  provisioner?: string;
  historyRetentionSeconds?: number;
  settings?: Record<string, unknown>;
  annotation?: Record<string, string>;
}

/** A created project with its default branch, endpoint and operations. */
export interface CreatedProject {
  project: ProjectRecord;
  branch: BranchRecord;
  endpoint: EndpointRecord;
  operations: OperationRecord[];
}

/** Creates a project with a default branch and a read-write endpoint (`create_timeline`, `start_compute`). */
export function createProject(ctx: EmulatorContext, input: NewProject): CreatedProject {
  const { store } = ctx;
  const now = ctx.clock.now();
  let id = newProjectId(store.ids);
  while (store.projects.has(id)) id = newProjectId(store.ids);
  const branchId = uniqueBranchId(ctx);
  const fields: ProjectFields = {
    id,
    name: input.name ?? id,
    region_id: input.regionId ?? DEFAULT_REGION,
    pg_version: input.pgVersion ?? DEFAULT_PG_VERSION,
    creation_source: input.source,
    default_branch_id: branchId,
  };
  if (input.defaultCompute !== undefined) fields.default_endpoint_settings = input.defaultCompute;
  if (input.historyRetentionSeconds !== undefined)
    fields.history_retention_seconds = input.historyRetentionSeconds;
  if (input.settings !== undefined) fields.settings = input.settings;
  if (input.settings?.hipaa === true) fields.hipaa_enabled_at_ms = now;
  if (input.orgId !== undefined) fields.org_id = input.orgId;
  else if (input.ownerUserId !== undefined) fields.owner_user_id = input.ownerUserId;
  const project = putProject(store, fields, now);
  const roleName = input.roleName ?? DEFAULT_ROLE_NAME;
  const branch = putBranch(
    store,
    {
      id: branchId,
      project_id: id,
      name: input.branchName ?? DEFAULT_BRANCH_NAME,
      default: true,
      creation_source: input.source,
      roles: [roleRecord(roleName, now)],
      databases: [databaseRecord(store, input.databaseName ?? DEFAULT_DATABASE_NAME, roleName, now)],
      annotation: { ...(input.annotation ?? {}) },
      logical_size: DEFAULT_BRANCH_BYTES,
      ...(input.creatorUserId === undefined ? {} : { created_by_user_id: input.creatorUserId }),
    },
    now,
  );
  const endpoint = addEndpoint(
    ctx,
    project,
    branch,
    {
      type: "read_write",
      ...(input.provisioner === undefined ? {} : { provisioner: input.provisioner }),
    },
    input.source,
  );
  const operations = ctx.engine.create(
    id,
    [
      { action: "create_timeline", branch_id: branchId },
      { action: "start_compute", branch_id: branchId, endpoint_id: endpoint.id },
    ],
    "user",
  );
  branch.create_op_id = operations[0]?.id as string;
  ctx.changed();
  return { project, branch, endpoint, operations };
}

/** `HH:MM`, 00:00 to 23:59: a maintenance window's start and end, in UTC. */
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Checks `settings.maintenance_window` of a create or a PATCH (400 naming the field): weekdays are
 * 1 (Monday) to 7 (Sunday), at least one, none twice; start and end times are `HH:MM` in UTC.
 */
export function checkMaintenanceWindow(settings: Record<string, unknown> | undefined, where: string): void {
  const window = settings?.maintenance_window as
    | { weekdays: number[]; start_time: string; end_time: string }
    | undefined;
  if (window === undefined) return;
  const field = `${where}settings.maintenance_window`;
  const { weekdays } = window;
  if (weekdays.length === 0 || weekdays.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
    throw badRequest(
      `${field}.weekdays must list days from 1 (Monday) to 7 (Sunday), got ${JSON.stringify(weekdays)}`,
    );
  }
  if (new Set(weekdays).size !== weekdays.length) {
    throw badRequest(`${field}.weekdays lists a day twice: ${JSON.stringify(weekdays)}`);
  }
  for (const key of ["start_time", "end_time"] as const) {
    if (!CLOCK_TIME.test(window[key])) {
      throw badRequest(
        `${field}.${key} must be a UTC time HH:MM from 00:00 to 23:59, got ${JSON.stringify(window[key])}`,
      );
    }
  }
}

/** A change to a project's own fields; `settings` are merged into the current ones. */
export interface ProjectChanges {
  name?: string | undefined;
  defaultCompute?: ComputeSettings | undefined;
  historyRetentionSeconds?: number | undefined;
  settings?: Record<string, unknown> | undefined;
}

/** Changes a project's own fields (no operation). */
export function updateProject(ctx: EmulatorContext, project: ProjectRecord, changes: ProjectChanges): void {
  if (changes.name !== undefined) project.name = changes.name;
  if (changes.defaultCompute !== undefined) project.default_endpoint_settings = changes.defaultCompute;
  if (changes.historyRetentionSeconds !== undefined)
    project.history_retention_seconds = changes.historyRetentionSeconds;
  if (changes.settings?.hipaa === true && project.settings?.hipaa !== true)
    project.hipaa_enabled_at_ms = ctx.clock.now();
  if (changes.settings !== undefined) project.settings = { ...(project.settings ?? {}), ...changes.settings };
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
}

/** Deletes a project; it stays recoverable for `RECOVERY_WINDOW_MS`. */
export function deleteProject(ctx: EmulatorContext, project: ProjectRecord): void {
  project.deleted_at_ms = ctx.clock.now();
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
}

/** Brings a deleted project back. */
export function recoverProject(ctx: EmulatorContext, project: ProjectRecord): void {
  delete project.deleted_at_ms;
  project.updated_at_ms = ctx.clock.now();
  ctx.changed();
}

/**
 * Moves a project into an organization, or out of it to a user's personal account (default: the
 * organization's first admin). Project-scoped keys of the organization it leaves stop working.
 */
export function transferProject(
  ctx: EmulatorContext,
  projectId: string,
  toOrgId: string | null,
  toUserId?: string,
): ProjectRecord {
  const { store } = ctx;
  const project = store.projects.get(projectId);
  if (!project) throw new HttpError(404, `project ${projectId} not found`);
  if (toOrgId !== null) {
    if (!store.orgs.has(toOrgId)) throw new HttpError(404, `organization ${toOrgId} not found`);
    project.org_id = toOrgId;
    delete project.owner_user_id;
  } else {
    const fromOrg = project.org_id === undefined ? undefined : store.orgs.get(project.org_id);
    const firstAdmin = fromOrg
      ? Object.entries(fromOrg.members).find(([, membership]) => membership === "admin")?.[0]
      : project.owner_user_id;
    const owner = toUserId ?? firstAdmin;
    if (owner === undefined || !store.users.has(owner)) {
      throw new HttpError(400, "transfer to a personal account needs an existing user_id");
    }
    project.owner_user_id = owner;
    delete project.org_id;
  }
  project.updated_at_ms = ctx.clock.now();
  for (const key of store.keys.values()) {
    if (key.kind === "project" && key.project_id === projectId && key.org_id !== project.org_id) {
      key.disabled_reason ??= `project ${projectId} left organization ${key.org_id ?? ""}`;
    }
  }
  ctx.changed();
  return project;
}
