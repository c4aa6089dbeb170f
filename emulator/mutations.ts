import type { EmulatorContext } from "./context";
import {
  DEFAULT_BRANCH_BYTES,
  DEFAULT_BRANCH_NAME,
  DEFAULT_DATABASE_NAME,
  DEFAULT_PG_VERSION,
  DEFAULT_REGION,
  DEFAULT_ROLE_NAME,
  EMPTY_BRANCH_BYTES,
  FIRST_LSN,
  projectCompute,
} from "./defaults";
import { HttpError, notFound } from "./errors";
import { newBranchId, newEndpointId, newPassword, newProjectId } from "./ids";
import type { OperationSpec } from "./operations";
import type {
  BranchRecord,
  ComputeSettings,
  EndpointRecord,
  KeyRecord,
  OperationRecord,
  ProjectRecord,
} from "./state";

/** Endpoint fields a request may set as they are. */
export const ENDPOINT_OPTIONS = [
  "provisioner",
  "name",
  "disabled",
  "passwordless_access",
  "pooler_enabled",
  "settings",
] as const;

/** What a new endpoint is made of. */
export type EndpointSpec = Pick<EndpointRecord, "type"> &
  Partial<Pick<EndpointRecord, "compute" | (typeof ENDPOINT_OPTIONS)[number]>>;

// State changes shared by the API routes and the control API. Callers check permissions and
// validate input first; these functions assume valid input and keep the model consistent.

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
  let id = newProjectId();
  while (store.projects.has(id)) id = newProjectId();
  const branchId = uniqueBranchId(ctx);
  const project: ProjectRecord = {
    id,
    name: input.name ?? id,
    region_id: input.regionId ?? DEFAULT_REGION,
    pg_version: input.pgVersion ?? DEFAULT_PG_VERSION,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    default_branch_id: branchId,
    queue_end_ms: now,
  };
  if (input.defaultCompute !== undefined) project.default_endpoint_settings = input.defaultCompute;
  if (input.historyRetentionSeconds !== undefined)
    project.history_retention_seconds = input.historyRetentionSeconds;
  if (input.settings !== undefined) project.settings = input.settings;
  if (input.orgId !== undefined) project.org_id = input.orgId;
  else if (input.ownerUserId !== undefined) project.owner_user_id = input.ownerUserId;
  store.projects.set(id, project);
  const roleName = input.roleName ?? DEFAULT_ROLE_NAME;
  const branch: BranchRecord = {
    id: branchId,
    project_id: id,
    name: input.branchName ?? DEFAULT_BRANCH_NAME,
    default: true,
    protected: false,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    roles: [{ name: roleName, protected: false, created_at_ms: now, password: newPassword() }],
    databases: [
      {
        id: store.nextDbId(),
        name: input.databaseName ?? DEFAULT_DATABASE_NAME,
        owner_name: roleName,
        created_at_ms: now,
      },
    ],
    annotation: { ...(input.annotation ?? {}) },
    init_source: "parent-data",
    logical_size: DEFAULT_BRANCH_BYTES,
  };
  if (input.creatorUserId !== undefined) branch.created_by_user_id = input.creatorUserId;
  store.branches.set(branchId, branch);
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
  const branch: BranchRecord = {
    id,
    project_id: project.id,
    name: input.name ?? id,
    default: false,
    protected: input.protected ?? false,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    // Roles keep their passwords on a child branch; databases are copied with their schema.
    roles: input.parent.roles.map((r) => ({ ...r, created_at_ms: now })),
    databases: input.parent.databases.map((d) => ({ ...d, id: store.nextDbId(), created_at_ms: now })),
    annotation: { ...(input.annotation ?? {}) },
    init_source: schemaOnly ? "schema-only" : "parent-data",
    logical_size: schemaOnly ? EMPTY_BRANCH_BYTES : (input.parent.logical_size ?? DEFAULT_BRANCH_BYTES),
  };
  // A schema-only branch is a new root: it copies the parent's schema but is not its child.
  if (!schemaOnly) {
    branch.parent_id = input.parent.id;
    branch.parent_lsn = input.parentLsn ?? lsnAt(input.parent, input.parentTimestampMs ?? now);
    branch.parent_timestamp_ms = input.parentTimestampMs ?? now;
  }
  if (input.expiresAtMs !== undefined) {
    branch.expires_at_ms = input.expiresAtMs;
    branch.ttl_interval_seconds = Math.round((input.expiresAtMs - now) / 1000);
  }
  if (input.creatorUserId !== undefined) branch.created_by_user_id = input.creatorUserId;
  store.branches.set(id, branch);
  ctx.data?.copyData(branch, ctx.data.databasesOf(input.parent), schemaOnly);
  const endpoints = input.endpoints.map((spec) => addEndpoint(ctx, project, branch, spec, input.source));
  const specs: OperationSpec[] = [{ action: "create_branch", branch_id: id }];
  for (const e of endpoints) specs.push({ action: "start_compute", branch_id: id, endpoint_id: e.id });
  const operations = ctx.engine.create(project.id, specs, "user");
  branch.create_op_id = operations[0]?.id as string;
  project.updated_at_ms = now;
  ctx.changed();
  return { branch, endpoints, operations };
}

/**
 * Restores a branch's data from a source branch (itself at an earlier point, its parent, or
 * another branch): its endpoints are suspended, a new timeline is created from the source, and
 * they start again. With `preserveUnderName` the previous state becomes a new branch of that name,
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
    store.branches.set(preserved.id, preserved);
    if (previous !== undefined) ctx.data?.copyData(preserved, previous);
    for (const child of store.liveBranches(project.id)) {
      if (child.parent_id === branch.id && child.id !== preserved.id) child.parent_id = preserved.id;
    }
  }
  branch.roles = source.roles.map((r) => ({ ...r }));
  branch.databases = source.databases.map((d) => ({ ...d, id: store.nextDbId() }));
  if (restored !== undefined) ctx.data?.copyData(branch, restored);
  branch.logical_size = source.logical_size ?? DEFAULT_BRANCH_BYTES;
  if (source.id !== branch.id) branch.parent_lsn = options.lsn ?? lsnAt(source, now);
  branch.last_reset_at_ms = now;
  branch.updated_at_ms = now;
  const endpoints = store.branchEndpoints(branch.id);
  const specs: OperationSpec[] = [
    ...endpoints.map((e) => ({ action: "suspend_compute", branch_id: branch.id, endpoint_id: e.id })),
    { action: "create_branch", branch_id: branch.id },
    ...endpoints.map((e) => ({ action: "start_compute", branch_id: branch.id, endpoint_id: e.id })),
  ];
  const operations = ctx.engine.create(project.id, specs, "user");
  project.updated_at_ms = now;
  ctx.changed();
  return operations;
}

/** A plausible LSN for a branch at a time: grows with the branch's age, so later means larger. */
export function lsnAt(branch: BranchRecord, atMs: number): string {
  const first = Number.parseInt(FIRST_LSN.slice(FIRST_LSN.indexOf("/") + 1), 16);
  const bytes = first + Math.max(0, Math.floor((atMs - branch.created_at_ms) / 1000)) * 0x100;
  return `0/${bytes.toString(16).toUpperCase()}`;
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
  if (branch.parent_id === undefined && branch.init_source !== "schema-only") {
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
  const specs: OperationSpec[] = endpoints.map((e) => ({
    action: "suspend_compute",
    branch_id: branch.id,
    endpoint_id: e.id,
  }));
  specs.push({ action: "delete_timeline", branch_id: branch.id });
  const operations = ctx.engine.create(project.id, specs, initiator, now);
  for (const e of endpoints) store.endpoints.delete(e.id);
  if (endpoints.length > 0) branch.deleted_endpoints = structuredClone(endpoints);
  branch.deleted_at_ms = now;
  branch.updated_at_ms = now;
  project.updated_at_ms = now;
  ctx.changed();
  return operations;
}

/** Revokes a key for good. */
export function revokeKey(ctx: EmulatorContext, key: KeyRecord): void {
  key.revoked = true;
  key.revoked_at_ms = ctx.clock.now();
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

/** Removes a user from an organization; their personal keys stay valid but lose its projects. */
export function removeMember(ctx: EmulatorContext, orgId: string, userId: string): void {
  const org = ctx.store.orgs.get(orgId);
  if (!org) throw new HttpError(404, `organization ${orgId} not found`);
  if (org.members[userId] === undefined)
    throw new HttpError(404, `user ${userId} is not a member of ${orgId}`);
  delete org.members[userId];
  ctx.changed();
}

/** Adds an endpoint record (no operation); callers start its compute. */
export function addEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  spec: EndpointSpec,
  source: string,
): EndpointRecord {
  let id = newEndpointId();
  while (ctx.store.endpoints.has(id)) id = newEndpointId();
  const now = ctx.clock.now();
  const endpoint: EndpointRecord = {
    id,
    project_id: project.id,
    branch_id: branch.id,
    type: spec.type,
    creation_source: source,
    created_at_ms: now,
    updated_at_ms: now,
    op_ids: [],
    compute: spec.compute ?? { ...projectCompute(project) },
  };
  for (const field of ENDPOINT_OPTIONS) {
    if (spec[field] !== undefined) (endpoint as unknown as Record<string, unknown>)[field] = spec[field];
  }
  ctx.store.endpoints.set(id, endpoint);
  return endpoint;
}

/** The project, unless it is missing or deleted (404). */
export function liveProject(ctx: EmulatorContext, projectId: string): ProjectRecord {
  const project = ctx.store.projects.get(projectId);
  if (!project || project.deleted_at_ms !== undefined) throw notFound(`project ${projectId} not found`);
  return project;
}

/** Brings the state up to the clock: the platform's scheduled operations, then expired branches. */
export function settle(ctx: EmulatorContext): void {
  ctx.engine.catchUp();
  expireBranches(ctx);
}

/**
 * Deletes the branches whose expiry has passed, as the service's background job does: at their
 * expiry time, by the platform. A branch the refusal rules protect (it gained children) stays.
 */
export function expireBranches(ctx: EmulatorContext): void {
  const now = ctx.clock.now();
  const due = [...ctx.store.branches.values()]
    .filter((b) => b.deleted_at_ms === undefined && b.expires_at_ms !== undefined && b.expires_at_ms <= now)
    .sort((a, b) => (a.expires_at_ms as number) - (b.expires_at_ms as number));
  for (const branch of due) {
    const project = ctx.store.projects.get(branch.project_id);
    if (!project || project.deleted_at_ms !== undefined) continue;
    try {
      checkBranchDeletable(ctx, project, branch);
    } catch {
      continue;
    }
    deleteBranch(ctx, project, branch, "platform", branch.expires_at_ms);
    branch.deleted_by = "ttl";
  }
}

function uniqueBranchId(ctx: EmulatorContext): string {
  let id = newBranchId();
  while (ctx.store.branches.has(id)) id = newBranchId();
  return id;
}
