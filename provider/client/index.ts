/**
 * The public surface of the client: `createClient(options)` and the types, schemas, error helpers and
 * policy functions others code against.
 *
 * `createClient` is cheap and holds no connection: the key and URL are resolved on every call (explicit
 * options, else CLOUDDB_API_KEY / CLOUDDB_API_URL), and throttles and project queues live in the
 * process-wide registry. In Pulumi dynamic providers, `require()` this module inside the provider
 * methods rather than capturing a client at module level, so no credential is serialized.
 */

import * as account from "./api/account";
import * as apiKeys from "./api/apiKeys";
import * as branches from "./api/branches";
import * as computeEndpoints from "./api/computeEndpoints";
import * as databases from "./api/databases";
import type { ListOperationsOptions, WaitOptions } from "./api/operations";
import * as operations from "./api/operations";
import type { ConnectionUriQuery, ListProjectsQuery, ProjectListing } from "./api/projects";
import * as projects from "./api/projects";
import * as roles from "./api/roles";
import { type ClientContext, type ClientOptions, contextFactory } from "./context";
import type { MutationOptions } from "./mutation";
import type {
  ApiKeyCreated,
  ApiKeyListItem,
  ApiKeyRevoked,
  Branch,
  BranchCreateRequest,
  BranchCreateResponse,
  BranchDeleteResponse,
  BranchGetResponse,
  BranchRestoreRequest,
  BranchUpdateRequest,
  BranchUpdateResponse,
  CurrentUser,
  Database,
  DatabaseCreateRequest,
  DatabaseOperations,
  DatabaseUpdateRequest,
  Endpoint,
  EndpointCreateRequest,
  EndpointOperations,
  EndpointUpdateRequest,
  Operation,
  OrgApiKeyCreated,
  OrgApiKeyListItem,
  Organization,
  OrgMember,
  ProjectCreateRequest,
  ProjectCreateResponse,
  ProjectDetail,
  ProjectResponse,
  ProjectUpdateRequest,
  ProjectUpdateResponse,
  Role,
  RoleCreateRequest,
  RoleOperations,
} from "./schemas";

/** A client of the Cloud Database Control API v2. Every method rejects with an `ApiError` on failure. */
export interface CloudDbClient {
  /** `POST /api_keys`. The secret is in `key` and cannot be read again. */
  createApiKey(body: { keyName: string }): Promise<ApiKeyCreated>;
  /** `GET /api_keys` (revoked keys are not listed). */
  listApiKeys(): Promise<ApiKeyListItem[]>;
  /** `DELETE /api_keys/{key_id}`. */
  revokeApiKey(keyId: number): Promise<ApiKeyRevoked>;
  /** `POST /organizations/{org_id}/api_keys`; with `projectId` the key is project-scoped. */
  createOrgApiKey(
    orgId: string,
    body: { keyName: string; projectId?: string | undefined },
  ): Promise<OrgApiKeyCreated>;
  /** `GET /organizations/{org_id}/api_keys`. */
  listOrgApiKeys(orgId: string): Promise<OrgApiKeyListItem[]>;
  /** `DELETE /organizations/{org_id}/api_keys/{key_id}`. */
  revokeOrgApiKey(orgId: string, keyId: number): Promise<ApiKeyRevoked>;
  /** `GET /projects`, every page; read `unavailableProjectIds()` after iterating (a non-empty list means partial). */
  listProjects(query?: ListProjectsQuery): ProjectListing;
  /** `POST /projects/{project_id}/branches` in the API's snake_case shape; queued per project; waits for its operations. */
  createBranch(
    projectId: string,
    body: BranchCreateRequest,
    options?: MutationOptions,
  ): Promise<BranchCreateResponse>;
  /** `GET /projects/{project_id}/branches/{branch_id}`. */
  getBranch(projectId: string, branchId: string): Promise<BranchGetResponse>;
  /** `GET /projects/{project_id}/branches`: every live branch of the project. */
  listBranches(projectId: string): Promise<Branch[]>;
  /** `GET /projects/{project_id}/branches`: every live branch, and the annotation values set on each (by branch id). */
  listAnnotatedBranches(
    projectId: string,
  ): Promise<{ branches: Branch[]; annotations: Map<string, Record<string, string>> }>;
  /** `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the branch's computes and their current state. */
  listBranchEndpoints(projectId: string, branchId: string): Promise<Endpoint[]>;
  /** `PATCH /projects/{project_id}/branches/{branch_id}` (name, protected, expiry); queued per project. */
  updateBranch(
    projectId: string,
    branchId: string,
    body: BranchUpdateRequest,
    options?: MutationOptions,
  ): Promise<BranchUpdateResponse>;
  /** `POST /projects/{project_id}/branches/{branch_id}/restore` (e.g. reset from the parent); queued per project; waits for its operations. */
  restoreBranch(
    projectId: string,
    branchId: string,
    body: BranchRestoreRequest,
    options?: MutationOptions,
  ): Promise<BranchUpdateResponse>;
  /** `DELETE /projects/{project_id}/branches/{branch_id}`; `null` for a 204 (already gone); queued per project. */
  deleteBranch(
    projectId: string,
    branchId: string,
    options?: MutationOptions,
  ): Promise<BranchDeleteResponse | null>;
  /** `GET /projects/{project_id}/operations`, newest first, every page (or `maxItems`). */
  listOperations(projectId: string, options?: ListOperationsOptions): AsyncIterable<Operation>;
  /** `GET /projects/{project_id}/operations/{operation_id}`. */
  getOperation(projectId: string, operationId: string): Promise<Operation>;
  /** Poll until every operation is done; throws `OperationFailedError` / `OperationTimeoutError`. */
  waitForOperations(
    projectId: string,
    operations: readonly Operation[],
    options?: WaitOptions,
  ): Promise<Operation[]>;

  /** `POST /projects`: the project with its default branch, compute, role (password inside) and database; waits for its operations. */
  createProject(body: ProjectCreateRequest, options?: MutationOptions): Promise<ProjectCreateResponse>;
  /** `GET /projects/{project_id}`. */
  getProject(projectId: string): Promise<ProjectDetail>;
  /** `PATCH /projects/{project_id}`; queued per project. */
  updateProject(
    projectId: string,
    body: ProjectUpdateRequest,
    options?: MutationOptions,
  ): Promise<ProjectUpdateResponse>;
  /** `DELETE /projects/{project_id}`: deletes everything in it; `null` for a 204. */
  deleteProject(projectId: string, options?: MutationOptions): Promise<ProjectResponse | null>;
  /** `GET /projects/{project_id}/connection_uri`: a connection string with its password (a secret). */
  getConnectionUri(projectId: string, query: ConnectionUriQuery): Promise<string>;

  /** `POST /projects/{project_id}/endpoints`; queued per project; waits for its operations. */
  createEndpoint(
    projectId: string,
    body: EndpointCreateRequest,
    options?: MutationOptions,
  ): Promise<EndpointOperations>;
  /** `GET /projects/{project_id}/endpoints/{endpoint_id}`. */
  getEndpoint(projectId: string, endpointId: string): Promise<Endpoint>;
  /** `GET /projects/{project_id}/endpoints`. */
  listEndpoints(projectId: string): Promise<Endpoint[]>;
  /** `PATCH /projects/{project_id}/endpoints/{endpoint_id}`; queued per project. */
  updateEndpoint(
    projectId: string,
    endpointId: string,
    body: EndpointUpdateRequest,
    options?: MutationOptions,
  ): Promise<EndpointOperations>;
  /** `DELETE /projects/{project_id}/endpoints/{endpoint_id}`; `null` for a 204. */
  deleteEndpoint(
    projectId: string,
    endpointId: string,
    options?: MutationOptions,
  ): Promise<EndpointOperations | null>;

  /** `POST .../branches/{branch_id}/roles`: the role with its one-time password; waits for its operations. */
  createRole(
    projectId: string,
    branchId: string,
    body: RoleCreateRequest,
    options?: MutationOptions,
  ): Promise<RoleOperations>;
  /** `GET .../roles/{role_name}`. */
  getRole(projectId: string, branchId: string, roleName: string): Promise<Role>;
  /** `GET .../roles`. */
  listRoles(projectId: string, branchId: string): Promise<Role[]>;
  /** `DELETE .../roles/{role_name}`; `null` for a 204. */
  deleteRole(
    projectId: string,
    branchId: string,
    roleName: string,
    options?: MutationOptions,
  ): Promise<RoleOperations | null>;
  /** `POST .../roles/{role_name}/reset_password`: the role with its new password. */
  resetRolePassword(
    projectId: string,
    branchId: string,
    roleName: string,
    options?: MutationOptions,
  ): Promise<RoleOperations>;
  /** `GET .../roles/{role_name}/reveal_password`. */
  revealRolePassword(projectId: string, branchId: string, roleName: string): Promise<string>;

  /** `POST .../branches/{branch_id}/databases`; waits for its operations. */
  createDatabase(
    projectId: string,
    branchId: string,
    body: DatabaseCreateRequest,
    options?: MutationOptions,
  ): Promise<DatabaseOperations>;
  /** `GET .../databases/{database_name}`. */
  getDatabase(projectId: string, branchId: string, databaseName: string): Promise<Database>;
  /** `GET .../databases`. */
  listDatabases(projectId: string, branchId: string): Promise<Database[]>;
  /** `PATCH .../databases/{database_name}`: rename or change the owner. */
  updateDatabase(
    projectId: string,
    branchId: string,
    databaseName: string,
    body: DatabaseUpdateRequest,
    options?: MutationOptions,
  ): Promise<DatabaseOperations>;
  /** `DELETE .../databases/{database_name}`; `null` for a 204. */
  deleteDatabase(
    projectId: string,
    branchId: string,
    databaseName: string,
    options?: MutationOptions,
  ): Promise<DatabaseOperations | null>;

  /** `GET /users/me`. */
  getCurrentUser(): Promise<CurrentUser>;
  /** `GET /users/me/organizations`. */
  listMyOrganizations(): Promise<Organization[]>;
  /** `GET /organizations/{org_id}`. */
  getOrganization(orgId: string): Promise<Organization>;
  /** `GET /organizations/{org_id}/members`: every member, with their role. */
  listOrgMembers(orgId: string): Promise<OrgMember[]>;

  /** Listings for refresh, shared by the concurrent and recent reads of this account. */
  shared: SharedReads;
}

/**
 * The listings a refresh reads objects from, each shared by identical listings asked for while it
 * is in flight or within a few seconds after, until this process changes something (`listings.ts`).
 * The arrays are shared: do not modify them.
 */
export interface SharedReads {
  listApiKeys(): Promise<readonly ApiKeyListItem[]>;
  listOrgApiKeys(orgId: string): Promise<readonly OrgApiKeyListItem[]>;
  listBranches(projectId: string): Promise<readonly Branch[]>;
  listEndpoints(projectId: string): Promise<readonly Endpoint[]>;
  listRoles(projectId: string, branchId: string): Promise<readonly Role[]>;
  listDatabases(projectId: string, branchId: string): Promise<readonly Database[]>;
}

/** Create a client. Cheap; shares throttles and project queues with every other client in the process. */
export function createClient(options: ClientOptions = {}): CloudDbClient {
  const context = contextFactory(options);
  // Async wrappers turn synchronous throws (config, arguments) into rejections.
  const call =
    <A extends unknown[], R>(fn: (ctx: ClientContext, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> =>
      fn(context(), ...args);
  const shared =
    <A extends string[], R>(name: string, fn: (ctx: ClientContext, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const ctx = context();
      const load = () => fn(ctx, ...args);
      return ctx.request.listings === undefined
        ? load()
        : ctx.request.listings.get([name, ...args].join(" "), load);
    };
  return {
    shared: {
      listApiKeys: shared("api_keys", apiKeys.listApiKeys),
      listOrgApiKeys: shared("org_api_keys", apiKeys.listOrgApiKeys),
      listBranches: shared("branches", branches.listBranches),
      listEndpoints: shared("endpoints", computeEndpoints.listEndpoints),
      listRoles: shared("roles", roles.listRoles),
      listDatabases: shared("databases", databases.listDatabases),
    },
    createApiKey: call(apiKeys.createApiKey),
    listApiKeys: call(apiKeys.listApiKeys),
    revokeApiKey: call(apiKeys.revokeApiKey),
    createOrgApiKey: call(apiKeys.createOrgApiKey),
    listOrgApiKeys: call(apiKeys.listOrgApiKeys),
    revokeOrgApiKey: call(apiKeys.revokeOrgApiKey),
    listProjects: (query) => projects.listProjects(context, query),
    createBranch: call(branches.createBranch),
    getBranch: call(branches.getBranch),
    listBranches: call(branches.listBranches),
    listAnnotatedBranches: call(branches.listAnnotatedBranches),
    listBranchEndpoints: call(branches.listBranchEndpoints),
    updateBranch: call(branches.updateBranch),
    restoreBranch: call(branches.restoreBranch),
    deleteBranch: call(branches.deleteBranch),
    listOperations: (projectId, listOptions) => operations.listOperations(context, projectId, listOptions),
    getOperation: call(operations.getOperation),
    waitForOperations: call(operations.waitForOperations),
    createProject: call(projects.createProject),
    getProject: call(projects.getProject),
    updateProject: call(projects.updateProject),
    deleteProject: call(projects.deleteProject),
    getConnectionUri: call(projects.getConnectionUri),
    createEndpoint: call(computeEndpoints.createEndpoint),
    getEndpoint: call(computeEndpoints.getEndpoint),
    listEndpoints: call(computeEndpoints.listEndpoints),
    updateEndpoint: call(computeEndpoints.updateEndpoint),
    deleteEndpoint: call(computeEndpoints.deleteEndpoint),
    createRole: call(roles.createRole),
    getRole: call(roles.getRole),
    listRoles: call(roles.listRoles),
    deleteRole: call(roles.deleteRole),
    resetRolePassword: call(roles.resetRolePassword),
    revealRolePassword: call(roles.revealRolePassword),
    createDatabase: call(databases.createDatabase),
    getDatabase: call(databases.getDatabase),
    listDatabases: call(databases.listDatabases),
    updateDatabase: call(databases.updateDatabase),
    deleteDatabase: call(databases.deleteDatabase),
    getCurrentUser: call(account.getCurrentUser),
    listMyOrganizations: call(account.listMyOrganizations),
    getOrganization: call(account.getOrganization),
    listOrgMembers: call(account.listOrgMembers),
  };
}

export type { ListOperationsOptions, WaitOptions } from "./api/operations";
export type { ConnectionUriQuery, ListProjectsQuery, ProjectListing } from "./api/projects";
export {
  API_KEY_ENV,
  API_URL_ENV,
  type ConfigInput,
  DEFAULT_API_URL,
  normalizeApiUrl,
  type ResolvedConfig,
  resolveConfig,
} from "./config";
export { type ClientOptions, DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from "./context";
export * from "./errors";
export type { ClientEvent } from "./events";
export type { MutationOptions } from "./mutation";
export { type ApiRoute, apiRoute } from "./path";
export { redactSecrets } from "./redact";
export { keyFingerprint, resetRegistry } from "./registry";
export {
  boundedRetryAfter,
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  RETRY_RULES,
  type RetryDecision,
  type RetryDelayInput,
  type RetryFailure,
  type RetryPolicy,
  type RetryRule,
} from "./retry";
export * from "./schemas";
export { DEFAULT_RATE_LIMITS, type RateLimit, type RateLimits } from "./throttle";
export {
  type HttpMethod,
  isTransportFailure,
  type Transport,
  TransportFailure,
  type TransportRequest,
  type TransportResponse,
} from "./transport";
export {
  DEFAULT_POLL_INTERVAL,
  DONE_STATUSES,
  FAILED_STATUSES,
  isOperationTerminal,
  type PollInterval,
} from "./wait";
