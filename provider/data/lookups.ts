import type { CloudDbClient } from "../client";
import { NotFoundError, UsageError } from "../client/errors";
import type { Branch, Database, Endpoint, Role } from "../client/schemas";
import { compact } from "../resources/lifecycle/define";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import { lookupOutput, projectSummary, within } from "./lookup";
import type {
  BRANCH_SUMMARY,
  DATABASE_SUMMARY,
  ENDPOINT_SUMMARY,
  GET_BRANCH,
  GET_BRANCHES,
  GET_DATABASE,
  GET_DATABASES,
  GET_ENDPOINT,
  GET_ENDPOINTS,
  GET_PROJECT,
  GET_ROLE,
  GET_ROLES,
  ROLE_SUMMARY,
} from "./lookups.declared";
import type { DataSourceOptions, OutputArgs } from "./options";
import type { ProjectSummary } from "./projects";

// The lookups (lookups.declared.ts): each reads the listing a refresh reads (one request, shared
// with the run's other reads of it), or the object itself by id, and answers in camelCase. What is
// not there fails with a NotFoundError naming what was looked for, where, and what there is; a lookup
// fails at preview too, since what it finds must exist before the program runs.

/** A branch as the API shows it. */
export interface BranchSummary extends ResultObjectOf<typeof BRANCH_SUMMARY.properties> {}
/** A compute endpoint as the API shows it. */
export interface EndpointSummary extends ResultObjectOf<typeof ENDPOINT_SUMMARY.properties> {}
/** A role of a branch, without its password. */
export interface RoleSummary extends ResultObjectOf<typeof ROLE_SUMMARY.properties> {}
/** A database of a branch. */
export interface DatabaseSummary extends ResultObjectOf<typeof DATABASE_SUMMARY.properties> {}

/** Arguments of {@link getProject}. */
export interface GetProjectArgs extends FunctionArgsOf<typeof GET_PROJECT> {}
/** Result of {@link getProject}. */
export interface GetProjectResult extends FunctionResultOf<typeof GET_PROJECT> {}
/** Arguments of {@link getBranch}. */
export interface GetBranchArgs extends FunctionArgsOf<typeof GET_BRANCH> {}
/** Result of {@link getBranch}. */
export interface GetBranchResult extends FunctionResultOf<typeof GET_BRANCH> {}
/** Arguments of {@link getBranches}. */
export interface GetBranchesArgs extends FunctionArgsOf<typeof GET_BRANCHES> {}
/** Result of {@link getBranches}. */
export interface GetBranchesResult extends FunctionResultOf<typeof GET_BRANCHES> {}
/** Arguments of {@link getEndpoint}. */
export interface GetEndpointArgs extends FunctionArgsOf<typeof GET_ENDPOINT> {}
/** Result of {@link getEndpoint}. */
export interface GetEndpointResult extends FunctionResultOf<typeof GET_ENDPOINT> {}
/** Arguments of {@link getEndpoints}. */
export interface GetEndpointsArgs extends FunctionArgsOf<typeof GET_ENDPOINTS> {}
/** Result of {@link getEndpoints}. */
export interface GetEndpointsResult extends FunctionResultOf<typeof GET_ENDPOINTS> {}
/** Arguments of {@link getRole}. */
export interface GetRoleArgs extends FunctionArgsOf<typeof GET_ROLE> {}
/** Result of {@link getRole}. */
export interface GetRoleResult extends FunctionResultOf<typeof GET_ROLE> {}
/** Arguments of {@link getRoles}. */
export interface GetRolesArgs extends FunctionArgsOf<typeof GET_ROLES> {}
/** Result of {@link getRoles}. */
export interface GetRolesResult extends FunctionResultOf<typeof GET_ROLES> {}
/** Arguments of {@link getDatabase}. */
export interface GetDatabaseArgs extends FunctionArgsOf<typeof GET_DATABASE> {}
/** Result of {@link getDatabase}. */
export interface GetDatabaseResult extends FunctionResultOf<typeof GET_DATABASE> {}
/** Arguments of {@link getDatabases}. */
export interface GetDatabasesArgs extends FunctionArgsOf<typeof GET_DATABASES> {}
/** Result of {@link getDatabases}. */
export interface GetDatabasesResult extends FunctionResultOf<typeof GET_DATABASES> {}

/** Exactly one of two ways to name an object: which one, or a UsageError saying to give one. */
function oneOf(fn: string, a: [string, string | undefined], b: [string, string | undefined]): void {
  const given = [a, b].filter(([, v]) => v !== undefined && v !== "");
  if (given.length !== 1) {
    throw new UsageError(
      "InvalidArgument",
      `${fn}: give ${a[0]} or ${b[0]}, ${given.length === 0 ? "not neither" : "not both"}`,
    );
  }
}

const listed = (names: string[]) =>
  names.length === 0 ? "none" : names.map((n) => JSON.stringify(n)).join(", ");

/** A not-found error of a lookup: what was looked for, where, what there is, and what to do. */
function missing(message: string): NotFoundError {
  return new NotFoundError(
    `${message}. If a resource of this program makes it, use that resource's outputs instead of a lookup; a lookup finds what exists before the program runs.`,
  );
}

// The API's optional fields come through the client as absent, never null: compact drops them.

function branchSummary(b: Branch): BranchSummary {
  return compact({
    id: b.id,
    projectId: b.project_id,
    name: b.name,
    parentId: b.parent_id,
    default: b.default,
    protected: b.protected ?? false,
    currentState: b.current_state,
    expiresAt: b.expires_at,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  });
}

function endpointSummary(e: Endpoint, projectId: string): EndpointSummary {
  return compact({
    id: e.id,
    projectId: e.project_id ?? projectId,
    branchId: e.branch_id,
    type: e.type,
    host: e.host,
    currentState: e.current_state,
    autoscalingLimitMinCu: e.autoscaling_limit_min_cu,
    autoscalingLimitMaxCu: e.autoscaling_limit_max_cu,
    suspendTimeoutSeconds: e.suspend_timeout_seconds,
    disabled: e.disabled ?? false,
    name: e.name,
    createdAt: e.created_at,
  });
}

function roleSummary(r: Role, branchId: string): RoleSummary {
  return compact({
    name: r.name,
    branchId: r.branch_id ?? branchId,
    protected: r.protected ?? false,
    createdAt: r.created_at,
  });
}

function databaseSummary(d: Database, branchId: string): DatabaseSummary {
  return compact({
    id: d.id,
    name: d.name,
    ownerName: d.owner_name,
    branchId: d.branch_id ?? branchId,
    createdAt: d.created_at,
  });
}

/**
 * Finds one project by id or by its exact name, from the project listing (one search). Throws a
 * NotFoundError when none matches and an InvalidArgument UsageError when more than one has the name.
 */
export async function getProject(
  args: GetProjectArgs,
  opts: DataSourceOptions = {},
): Promise<GetProjectResult> {
  oneOf("getProject", ["projectId", args.projectId], ["name", args.name]);
  const client = dataSourceClient(opts);
  const wanted = (args.projectId ?? args.name) as string;
  const pages = client.listProjects({
    limit: 400,
    search: wanted,
    ...(args.orgId !== undefined ? { orgId: args.orgId } : {}),
  });
  const found: ProjectSummary[] = [];
  for await (const p of pages) {
    if (args.projectId !== undefined ? p.id === wanted : p.name === wanted) found.push(projectSummary(p));
  }
  const where =
    args.orgId === undefined ? "among the projects this API key can see" : `in organization ${args.orgId}`;
  const [project, ...others] = found;
  if (project === undefined) {
    const by = args.projectId !== undefined ? `id ${wanted}` : `name ${JSON.stringify(wanted)}`;
    throw missing(`getProject: no project with ${by} ${where}`);
  }
  if (others.length > 0) {
    throw new UsageError(
      "InvalidArgument",
      `getProject: ${found.length} projects are named ${JSON.stringify(wanted)} ${where} (${found.map((p) => p.id).join(", ")}); give projectId instead`,
    );
  }
  return { project };
}

/** Finds one branch of a project by id or by name. Throws a NotFoundError naming the project's branches when none matches. */
export async function getBranch(args: GetBranchArgs, opts: DataSourceOptions = {}): Promise<GetBranchResult> {
  oneOf("getBranch", ["branchId", args.branchId], ["name", args.name]);
  const branches = await projectBranches(dataSourceClient(opts), args.projectId);
  const branch = branches.find((b) =>
    args.branchId !== undefined ? b.id === args.branchId : b.name === args.name,
  );
  if (branch === undefined) {
    const by = args.branchId !== undefined ? `id ${args.branchId}` : `name ${JSON.stringify(args.name)}`;
    throw missing(
      `getBranch: project ${args.projectId} has no branch with ${by} (its branches: ${listed(branches.map((b) => b.name))})`,
    );
  }
  return { branch: branchSummary(branch) };
}

/** Lists the branches of a project. */
export async function getBranches(
  args: GetBranchesArgs,
  opts: DataSourceOptions = {},
): Promise<GetBranchesResult> {
  const branches = await projectBranches(dataSourceClient(opts), args.projectId);
  return { branches: branches.map(branchSummary) };
}

function projectBranches(client: CloudDbClient, projectId: string): Promise<readonly Branch[]> {
  return within(`project ${projectId}`, () => client.cached.listBranches(projectId));
}

/**
 * Finds one compute: by id, or the read-write compute of `branchId`. Throws a NotFoundError when the
 * compute does not exist or the branch has no read-write compute.
 */
export async function getEndpoint(
  args: GetEndpointArgs,
  opts: DataSourceOptions = {},
): Promise<GetEndpointResult> {
  oneOf("getEndpoint", ["endpointId", args.endpointId], ["branchId", args.branchId]);
  const endpoints = await projectEndpoints(dataSourceClient(opts), args.projectId);
  if (args.endpointId !== undefined) {
    const endpoint = endpoints.find((e) => e.id === args.endpointId);
    if (endpoint === undefined) {
      throw missing(
        `getEndpoint: project ${args.projectId} has no compute ${args.endpointId} (its computes: ${listed(endpoints.map((e) => e.id))})`,
      );
    }
    return { endpoint: endpointSummary(endpoint, args.projectId) };
  }
  const ofBranch = endpoints.filter((e) => e.branch_id === args.branchId);
  const endpoint = ofBranch.find((e) => e.type === "read_write");
  if (endpoint === undefined) {
    const others =
      ofBranch.length === 0
        ? "no compute at all"
        : `only ${listed(ofBranch.map((e) => `${e.id} (${e.type})`))}`;
    throw missing(
      `getEndpoint: branch ${args.branchId} of project ${args.projectId} has no read-write compute (it has ${others})`,
    );
  }
  return { endpoint: endpointSummary(endpoint, args.projectId) };
}

/** Lists the computes of a project, or of one of its branches. */
export async function getEndpoints(
  args: GetEndpointsArgs,
  opts: DataSourceOptions = {},
): Promise<GetEndpointsResult> {
  const endpoints = await projectEndpoints(dataSourceClient(opts), args.projectId);
  return {
    endpoints: endpoints
      .filter((e) => args.branchId === undefined || e.branch_id === args.branchId)
      .map((e) => endpointSummary(e, args.projectId)),
  };
}

function projectEndpoints(client: CloudDbClient, projectId: string): Promise<readonly Endpoint[]> {
  return within(`project ${projectId}`, () => client.cached.listEndpoints(projectId));
}

/** Finds one role of a branch by name, without its password. Throws a NotFoundError naming the branch's roles when there is none. */
export async function getRole(args: GetRoleArgs, opts: DataSourceOptions = {}): Promise<GetRoleResult> {
  const roles = await branchRoles(dataSourceClient(opts), args.projectId, args.branchId);
  const role = roles.find((r) => r.name === args.name);
  if (role === undefined) {
    throw missing(
      `getRole: branch ${args.branchId} of project ${args.projectId} has no role ${JSON.stringify(args.name)} (its roles: ${listed(roles.map((r) => r.name))})`,
    );
  }
  return { role: roleSummary(role, args.branchId) };
}

/** Lists the roles of a branch, without their passwords. */
export async function getRoles(args: GetRolesArgs, opts: DataSourceOptions = {}): Promise<GetRolesResult> {
  const roles = await branchRoles(dataSourceClient(opts), args.projectId, args.branchId);
  return { roles: roles.map((r) => roleSummary(r, args.branchId)) };
}

function branchRoles(client: CloudDbClient, projectId: string, branchId: string): Promise<readonly Role[]> {
  return within(`branch ${branchId} of project ${projectId}`, () =>
    client.cached.listRoles(projectId, branchId),
  );
}

/** Finds one database of a branch by name. Throws a NotFoundError naming the branch's databases when there is none. */
export async function getDatabase(
  args: GetDatabaseArgs,
  opts: DataSourceOptions = {},
): Promise<GetDatabaseResult> {
  const databases = await branchDatabases(dataSourceClient(opts), args.projectId, args.branchId);
  const database = databases.find((d) => d.name === args.name);
  if (database === undefined) {
    throw missing(
      `getDatabase: branch ${args.branchId} of project ${args.projectId} has no database ${JSON.stringify(args.name)} (its databases: ${listed(databases.map((d) => d.name))})`,
    );
  }
  return { database: databaseSummary(database, args.branchId) };
}

/** Lists the databases of a branch. */
export async function getDatabases(
  args: GetDatabasesArgs,
  opts: DataSourceOptions = {},
): Promise<GetDatabasesResult> {
  const databases = await branchDatabases(dataSourceClient(opts), args.projectId, args.branchId);
  return { databases: databases.map((d) => databaseSummary(d, args.branchId)) };
}

function branchDatabases(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
): Promise<readonly Database[]> {
  return within(`branch ${branchId} of project ${projectId}`, () =>
    client.cached.listDatabases(projectId, branchId),
  );
}

/** {@link getProject} taking Inputs and returning an Output. */
export const getProjectOutput = (args: OutputArgs<GetProjectArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getProject, args, opts);
/** {@link getBranch} taking Inputs and returning an Output. */
export const getBranchOutput = (args: OutputArgs<GetBranchArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getBranch, args, opts);
/** {@link getBranches} taking Inputs and returning an Output. */
export const getBranchesOutput = (args: OutputArgs<GetBranchesArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getBranches, args, opts);
/** {@link getEndpoint} taking Inputs and returning an Output. */
export const getEndpointOutput = (args: OutputArgs<GetEndpointArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getEndpoint, args, opts);
/** {@link getEndpoints} taking Inputs and returning an Output. */
export const getEndpointsOutput = (args: OutputArgs<GetEndpointsArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getEndpoints, args, opts);
/** {@link getRole} taking Inputs and returning an Output. */
export const getRoleOutput = (args: OutputArgs<GetRoleArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getRole, args, opts);
/** {@link getRoles} taking Inputs and returning an Output. */
export const getRolesOutput = (args: OutputArgs<GetRolesArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getRoles, args, opts);
/** {@link getDatabase} taking Inputs and returning an Output. */
export const getDatabaseOutput = (args: OutputArgs<GetDatabaseArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getDatabase, args, opts);
/** {@link getDatabases} taking Inputs and returning an Output. */
export const getDatabasesOutput = (args: OutputArgs<GetDatabasesArgs>, opts: DataSourceOptions = {}) =>
  lookupOutput(getDatabases, args, opts);
