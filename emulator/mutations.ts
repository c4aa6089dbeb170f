import type { EmulatorContext } from "./context";
import { HttpError } from "./errors";
import { newBranchId, newEndpointId, newPassword, newProjectId } from "./ids";
import type { OperationSpec } from "./operations";
import type {
  BranchRecord,
  EndpointRecord,
  EndpointType,
  KeyRecord,
  OperationRecord,
  ProjectRecord,
} from "./state";

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
}

/** A created project with its default branch, endpoint and operations. */
export interface CreatedProject {
  project: ProjectRecord;
  branch: BranchRecord;
  endpoint: EndpointRecord;
  operations: OperationRecord[];
  password: string;
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
    region_id: input.regionId ?? "aws-us-east-2",
    pg_version: input.pgVersion ?? 17,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    default_branch_id: branchId,
    queue_end_ms: now,
  };
  if (input.orgId !== undefined) project.org_id = input.orgId;
  else if (input.ownerUserId !== undefined) project.owner_user_id = input.ownerUserId;
  store.projects.set(id, project);
  const roleName = input.roleName ?? "neondb_owner";
  const branch: BranchRecord = {
    id: branchId,
    project_id: id,
    name: input.branchName ?? "main",
    default: true,
    protected: false,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    roles: [{ name: roleName, protected: false, created_at_ms: now }],
    databases: [
      {
        id: store.nextDbId(),
        name: input.databaseName ?? "neondb",
        owner_name: roleName,
        created_at_ms: now,
      },
    ],
    annotation: {},
  };
  if (input.creatorUserId !== undefined) branch.created_by_user_id = input.creatorUserId;
  store.branches.set(branchId, branch);
  const endpoint = addEndpoint(ctx, project, branch, "read_write", input.source);
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
  return { project, branch, endpoint, operations, password: newPassword() };
}

/** Input for a new branch. */
export interface NewBranch {
  name?: string;
  parent: BranchRecord;
  endpoints: EndpointType[];
  annotation?: Record<string, string>;
  protected?: boolean;
  creatorUserId?: string;
  source: string;
}

/** A created branch with its endpoints and operations. */
export interface CreatedBranch {
  branch: BranchRecord;
  endpoints: EndpointRecord[];
  operations: OperationRecord[];
  password: string;
}

/** Creates a branch (`create_branch`, then `start_compute` per endpoint). */
export function createBranch(ctx: EmulatorContext, project: ProjectRecord, input: NewBranch): CreatedBranch {
  const { store } = ctx;
  const now = ctx.clock.now();
  const id = uniqueBranchId(ctx);
  const branch: BranchRecord = {
    id,
    project_id: project.id,
    parent_id: input.parent.id,
    name: input.name ?? id,
    default: false,
    protected: input.protected ?? false,
    creation_source: input.source,
    created_at_ms: now,
    updated_at_ms: now,
    roles: input.parent.roles.map((r) => ({ ...r, created_at_ms: now })),
    databases: input.parent.databases.map((d) => ({ ...d, id: store.nextDbId(), created_at_ms: now })),
    annotation: { ...(input.annotation ?? {}) },
  };
  if (input.creatorUserId !== undefined) branch.created_by_user_id = input.creatorUserId;
  store.branches.set(id, branch);
  const endpoints = input.endpoints.map((type) => addEndpoint(ctx, project, branch, type, input.source));
  const specs: OperationSpec[] = [{ action: "create_branch", branch_id: id }];
  for (const e of endpoints) specs.push({ action: "start_compute", branch_id: id, endpoint_id: e.id });
  const operations = ctx.engine.create(project.id, specs, "user");
  branch.create_op_id = operations[0]?.id as string;
  project.updated_at_ms = now;
  ctx.changed();
  return { branch, endpoints, operations, password: newPassword() };
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
  if (branch.parent_id === undefined) {
    throw new HttpError(status, `branch ${branch.id} is the project's root branch and cannot be deleted`);
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
): OperationRecord[] {
  const { store } = ctx;
  const now = ctx.clock.now();
  const endpoints = store.branchEndpoints(branch.id);
  const specs: OperationSpec[] = endpoints.map((e) => ({
    action: "suspend_compute",
    branch_id: branch.id,
    endpoint_id: e.id,
  }));
  specs.push({ action: "delete_timeline", branch_id: branch.id });
  const operations = ctx.engine.create(project.id, specs, initiator);
  for (const e of endpoints) store.endpoints.delete(e.id);
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
      ? Object.entries(fromOrg.members).find(([, role]) => role === "admin")?.[0]
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

function addEndpoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  type: EndpointType,
  source: string,
): EndpointRecord {
  let id = newEndpointId();
  while (ctx.store.endpoints.has(id)) id = newEndpointId();
  const now = ctx.clock.now();
  const endpoint: EndpointRecord = {
    id,
    project_id: project.id,
    branch_id: branch.id,
    type,
    creation_source: source,
    created_at_ms: now,
    updated_at_ms: now,
    op_ids: [],
  };
  ctx.store.endpoints.set(id, endpoint);
  return endpoint;
}

function uniqueBranchId(ctx: EmulatorContext): string {
  let id = newBranchId();
  while (ctx.store.branches.has(id)) id = newBranchId();
  return id;
}
