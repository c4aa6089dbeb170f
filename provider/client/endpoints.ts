/**
 * One typed function per endpoint. Each builds its route with `apiRoute`, sends through the request
 * loop and returns the zod-parsed body. Mutating branch calls go through `runMutation`.
 */
import type { ClientContext } from "./context";
import { type MutationOptions, type OperationReaders, runMutation } from "./mutation";
import { checkPageSize, DEFAULT_MAX_PAGES, paginate } from "./paginate";
import { apiRoute } from "./path";
import { apiRequest, apiRequestOrEmpty } from "./request";
import {
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  type ApiKeyListItem,
  ApiKeyListSchema,
  type ApiKeyRevoked,
  ApiKeyRevokedSchema,
  type Branch,
  type BranchCreateRequest,
  type BranchCreateResponse,
  BranchCreateResponseSchema,
  type BranchDeleteResponse,
  BranchDeleteResponseSchema,
  BranchEndpointsResponseSchema,
  type BranchGetResponse,
  BranchGetResponseSchema,
  BranchListResponseSchema,
  type BranchUpdateResponse,
  BranchUpdateResponseSchema,
  type Endpoint,
  type Operation,
  OperationResponseSchema,
  OperationsPageSchema,
  type OrgApiKeyCreated,
  OrgApiKeyCreatedSchema,
  type OrgApiKeyListItem,
  OrgApiKeyListSchema,
  type Project,
  ProjectsPageSchema,
} from "./schemas";
import { waitForOperations as waitFor } from "./wait";

// ---------------------------------------------------------------- API keys

/** `POST /api_keys`: create a personal key. The secret is in `key`, returned only now. */
export function createApiKey(ctx: ClientContext, body: { keyName: string }): Promise<ApiKeyCreated> {
  return apiRequest(ctx.request, {
    method: "POST",
    route: apiRoute("/api_keys"),
    body: { key_name: body.keyName },
    schema: ApiKeyCreatedSchema,
  });
}

/** `GET /api_keys`: the personal keys that are not revoked. */
export function listApiKeys(ctx: ClientContext): Promise<ApiKeyListItem[]> {
  return apiRequest(ctx.request, { method: "GET", route: apiRoute("/api_keys"), schema: ApiKeyListSchema });
}

/** `DELETE /api_keys/{key_id}`: revoke a personal key. */
export function revokeApiKey(ctx: ClientContext, keyId: number): Promise<ApiKeyRevoked> {
  return apiRequest(ctx.request, {
    method: "DELETE",
    route: apiRoute("/api_keys/{key_id}", { key_id: keyId }),
    schema: ApiKeyRevokedSchema,
  });
}

/** `POST /organizations/{org_id}/api_keys`: an organization key, or a project-scoped one with `projectId`. */
export function createOrgApiKey(
  ctx: ClientContext,
  orgId: string,
  body: { keyName: string; projectId?: string | undefined },
): Promise<OrgApiKeyCreated> {
  return apiRequest(ctx.request, {
    method: "POST",
    route: apiRoute("/organizations/{org_id}/api_keys", { org_id: orgId }),
    body:
      body.projectId === undefined
        ? { key_name: body.keyName }
        : { key_name: body.keyName, project_id: body.projectId },
    schema: OrgApiKeyCreatedSchema,
  });
}

/** `GET /organizations/{org_id}/api_keys`: the organization's keys (items may carry `project_id`). */
export function listOrgApiKeys(ctx: ClientContext, orgId: string): Promise<OrgApiKeyListItem[]> {
  return apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/organizations/{org_id}/api_keys", { org_id: orgId }),
    schema: OrgApiKeyListSchema,
  });
}

/** `DELETE /organizations/{org_id}/api_keys/{key_id}`: revoke an organization or project-scoped key. */
export function revokeOrgApiKey(ctx: ClientContext, orgId: string, keyId: number): Promise<ApiKeyRevoked> {
  return apiRequest(ctx.request, {
    method: "DELETE",
    route: apiRoute("/organizations/{org_id}/api_keys/{key_id}", { org_id: orgId, key_id: keyId }),
    schema: ApiKeyRevokedSchema,
  });
}

// ---------------------------------------------------------------- projects

/** Query of `listProjects`. `limit` is the page size (1..400). */
export interface ListProjectsQuery {
  search?: string | undefined;
  orgId?: string | undefined;
  /** Page size, 1..400 (default 100). */
  limit?: number | undefined;
  /** Stop after this many projects. */
  maxItems?: number | undefined;
  /** Hard page cap (default 1000). */
  maxPages?: number | undefined;
}

/** Projects as an async iterable; `unavailableProjectIds()` lists ids the API could not load (the list is partial then). */
export interface ProjectListing extends AsyncIterable<Project> {
  /** Ids from `unavailable_project_ids` of the pages read so far by the latest iteration. */
  unavailableProjectIds(): string[];
}

/** `GET /projects`, all pages. Each `for await` starts a fresh listing. */
export function listProjects(context: () => ClientContext, query: ListProjectsQuery = {}): ProjectListing {
  const limit = checkPageSize("listProjects limit", query.limit ?? 100, 1, 400);
  let unavailable = new Set<string>();
  return {
    unavailableProjectIds: () => [...unavailable],
    [Symbol.asyncIterator]: () => {
      unavailable = new Set<string>();
      const seen = unavailable;
      const ctx = context();
      const where = query.orgId ? `projects of organization ${query.orgId}` : "projects";
      return paginate({
        what: query.search ? `${where} matching "${query.search}"` : where,
        limit,
        maxPages: query.maxPages ?? DEFAULT_MAX_PAGES,
        maxItems: query.maxItems,
        fetchPage: ({ cursor, limit: pageSize }) =>
          apiRequest(ctx.request, {
            method: "GET",
            route: apiRoute("/projects"),
            query: { limit: pageSize, cursor, search: query.search, org_id: query.orgId },
            schema: ProjectsPageSchema,
          }),
        items: (page) => page.projects,
        nextCursor: (page) => page.pagination?.cursor,
        onPage: (page) => {
          for (const id of page.unavailable_project_ids ?? []) seen.add(id);
        },
      })[Symbol.asyncIterator]();
    },
  };
}

// ---------------------------------------------------------------- operations

/** Options of `listOperations`. */
export interface ListOperationsOptions {
  /** Page size, 1..1000 (default 1000). */
  pageSize?: number | undefined;
  /** Stop after this many operations. */
  maxItems?: number | undefined;
  /** Hard page cap (default 1000). */
  maxPages?: number | undefined;
}

/** `GET /projects/{project_id}/operations`, newest first, all pages (cursor = last item's `created_at`). */
export function listOperations(
  context: () => ClientContext,
  projectId: string,
  options: ListOperationsOptions = {},
): AsyncIterable<Operation> {
  const limit = checkPageSize("listOperations pageSize", options.pageSize ?? 1_000, 1, 1_000);
  const route = apiRoute("/projects/{project_id}/operations", { project_id: projectId });
  return {
    [Symbol.asyncIterator]: () => {
      const ctx = context();
      return paginate({
        what: `operations of project ${projectId}`,
        limit,
        maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
        maxItems: options.maxItems,
        fetchPage: ({ cursor, limit: pageSize }) =>
          apiRequest(ctx.request, {
            method: "GET",
            route,
            query: { limit: pageSize, cursor },
            schema: OperationsPageSchema,
          }),
        items: (page) => page.operations,
        nextCursor: (page) => page.pagination?.cursor,
      })[Symbol.asyncIterator]();
    },
  };
}

/** `GET /projects/{project_id}/operations/{operation_id}`. */
export async function getOperation(
  ctx: ClientContext,
  projectId: string,
  operationId: string,
): Promise<Operation> {
  const body = await apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/operations/{operation_id}", {
      project_id: projectId,
      operation_id: operationId,
    }),
    schema: OperationResponseSchema,
  });
  return body.operation;
}

/** Options of `waitForOperations`. */
export interface WaitOptions {
  /** Epoch ms after which `OperationTimeoutError` is thrown (default: client `timeoutMs` from now). */
  deadline?: number | undefined;
  onProgress?: ((operation: Operation) => void) | undefined;
}

/** Wait for `operations` of `projectId`; see `wait.ts` for the status rules. */
export function waitForOperations(
  ctx: ClientContext,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions = {},
): Promise<Operation[]> {
  return waitFor({
    projectId,
    operations,
    fetchOperation: (id) => getOperation(ctx, projectId, id),
    deadline: options.deadline ?? Date.now() + ctx.timeoutMs,
    pollIntervalMs: ctx.pollIntervalMs,
    durations: ctx.durations,
    onProgress: options.onProgress,
    emit: ctx.emit,
  });
}

function readers(ctx: ClientContext, projectId: string): OperationReaders {
  return {
    recent: async (deadline) => {
      const page = await apiRequest(ctx.request, {
        method: "GET",
        route: apiRoute("/projects/{project_id}/operations", { project_id: projectId }),
        query: { limit: 100 },
        schema: OperationsPageSchema,
        deadline,
      });
      return page.operations;
    },
    fetch: (id) => getOperation(ctx, projectId, id),
  };
}

// ---------------------------------------------------------------- branches

/**
 * `POST /projects/{project_id}/branches` (201). `body` is the API's own shape
 * (`{branch: {name, parent_id}, endpoints: [{type}]}`). Queued per project; waits for the
 * `create_branch` / `start_compute` operations unless `wait: false`.
 */
export function createBranch(
  ctx: ClientContext,
  projectId: string,
  body: BranchCreateRequest,
  options: MutationOptions = {},
): Promise<BranchCreateResponse> {
  const route = apiRoute("/projects/{project_id}/branches", { project_id: projectId });
  return runMutation(
    ctx,
    projectId,
    (deadline) =>
      apiRequest(ctx.request, { method: "POST", route, body, schema: BranchCreateResponseSchema, deadline }),
    readers(ctx, projectId),
    options,
  );
}

/** `GET /projects/{project_id}/branches/{branch_id}`. */
export function getBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<BranchGetResponse> {
  return apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}", {
      project_id: projectId,
      branch_id: branchId,
    }),
    schema: BranchGetResponseSchema,
  });
}

/** `GET /projects/{project_id}/branches`: every live branch of the project. */
export async function listBranches(ctx: ClientContext, projectId: string): Promise<Branch[]> {
  const body = await apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/branches", { project_id: projectId }),
    schema: BranchListResponseSchema,
  });
  return body.branches;
}

/** `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the branch's computes, with their current state. */
export async function listBranchEndpoints(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Endpoint[]> {
  const body = await apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/branches/{branch_id}/endpoints", {
      project_id: projectId,
      branch_id: branchId,
    }),
    schema: BranchEndpointsResponseSchema,
  });
  return body.endpoints;
}

/** `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: {name}}`. Queued per project. */
export function updateBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: { name: string },
  options: MutationOptions = {},
): Promise<BranchUpdateResponse> {
  const route = apiRoute("/projects/{project_id}/branches/{branch_id}", {
    project_id: projectId,
    branch_id: branchId,
  });
  return runMutation(
    ctx,
    projectId,
    (deadline) =>
      apiRequest(ctx.request, {
        method: "PATCH",
        route,
        body: { branch: { name: body.name } },
        schema: BranchUpdateResponseSchema,
        deadline,
      }),
    readers(ctx, projectId),
    options,
  );
}

/** `DELETE /projects/{project_id}/branches/{branch_id}`: 200 with operations, or 204 (already gone) -> `null`. */
export function deleteBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  options: MutationOptions = {},
): Promise<BranchDeleteResponse | null> {
  const route = apiRoute("/projects/{project_id}/branches/{branch_id}", {
    project_id: projectId,
    branch_id: branchId,
  });
  return runMutation(
    ctx,
    projectId,
    (deadline) =>
      apiRequestOrEmpty(ctx.request, {
        method: "DELETE",
        route,
        schema: BranchDeleteResponseSchema,
        deadline,
      }),
    readers(ctx, projectId),
    options,
  );
}
