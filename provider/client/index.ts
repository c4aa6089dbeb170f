/**
 * The public surface of the client: `createClient(options)` and the types, schemas, error helpers and
 * policy functions others code against.
 *
 * `createClient` is cheap and holds no connection: the key and URL are resolved on every call (explicit
 * options, else CLOUDDB_API_KEY / CLOUDDB_API_URL), and throttles and project queues live in the
 * process-wide registry. In Pulumi dynamic providers, `require()` this module inside the provider
 * methods rather than capturing a client at module level, so no credential is serialized.
 */

import * as apiKeys from "./api/apiKeys";
import * as branches from "./api/branches";
import type { ListOperationsOptions, WaitOptions } from "./api/operations";
import * as operations from "./api/operations";
import type { ListProjectsQuery, ProjectListing } from "./api/projects";
import * as projects from "./api/projects";
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
  BranchUpdateResponse,
  Endpoint,
  Operation,
  OrgApiKeyCreated,
  OrgApiKeyListItem,
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
  /** `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the branch's computes and their current state. */
  listBranchEndpoints(projectId: string, branchId: string): Promise<Endpoint[]>;
  /** `PATCH /projects/{project_id}/branches/{branch_id}` (rename); queued per project. */
  updateBranch(
    projectId: string,
    branchId: string,
    body: { name: string },
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
}

/** Create a client. Cheap; shares throttles and project queues with every other client in the process. */
export function createClient(options: ClientOptions = {}): CloudDbClient {
  const context = contextFactory(options);
  // Async wrappers turn synchronous throws (config, arguments) into rejections.
  const call =
    <A extends unknown[], R>(fn: (ctx: ClientContext, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> =>
      fn(context(), ...args);
  return {
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
    listBranchEndpoints: call(branches.listBranchEndpoints),
    updateBranch: call(branches.updateBranch),
    deleteBranch: call(branches.deleteBranch),
    listOperations: (projectId, listOptions) => operations.listOperations(context, projectId, listOptions),
    getOperation: call(operations.getOperation),
    waitForOperations: call(operations.waitForOperations),
  };
}

export type { ListOperationsOptions, WaitOptions } from "./api/operations";
export type { ListProjectsQuery, ProjectListing } from "./api/projects";
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
