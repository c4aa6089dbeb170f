/**
 * Operations: listing, reading one, and waiting for some to end. `awaitOperations` is the one place
 * a wait is set up from the client's settings (poll interval, learned durations, events).
 */
import type { ClientContext } from "../context";
import { checkPageSize, DEFAULT_MAX_PAGES, paginate } from "../paginate";
import { apiRoute } from "../path";
import { apiRequest } from "../request";
import { type Operation, OperationResponseSchema, OperationsPageSchema } from "../schemas";
import { waitForOperations as poll } from "../wait";

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
  return {
    [Symbol.asyncIterator]: () => {
      const ctx = context();
      return paginate({
        what: `operations of project ${projectId}`,
        limit,
        maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
        maxItems: options.maxItems,
        fetchPage: ({ cursor, limit: pageSize }) =>
          operationsPage(ctx, projectId, { limit: pageSize, cursor }),
        items: (page) => page.operations,
        nextCursor: (page) => page.pagination?.cursor,
      })[Symbol.asyncIterator]();
    },
  };
}

/** The newest operations of a project: one page of 100 (what a request refused with 423 waits for). */
export async function recentOperations(
  ctx: ClientContext,
  projectId: string,
  deadline?: number | undefined,
): Promise<Operation[]> {
  return (await operationsPage(ctx, projectId, { limit: 100 }, deadline)).operations;
}

function operationsPage(
  ctx: ClientContext,
  projectId: string,
  query: { limit: number; cursor?: string | undefined },
  deadline?: number | undefined,
) {
  return apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/operations", { project_id: projectId }),
    query,
    schema: OperationsPageSchema,
    deadline,
  });
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
  /** Epoch ms after which `OperationTimeoutError` is thrown (default: the client's deadline). */
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
  return awaitOperations(ctx, projectId, operations, options);
}

/**
 * Every wait of the client: polls `operations` with the client's interval and learned durations.
 * `settleOnly` waits for any end, failures included (waiting out someone else's work).
 */
export function awaitOperations(
  ctx: ClientContext,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions & { settleOnly?: boolean | undefined },
): Promise<Operation[]> {
  return poll({
    projectId,
    operations,
    fetchOperation: (id) => getOperation(ctx, projectId, id),
    deadline: options.deadline ?? ctx.deadline,
    pollIntervalMs: ctx.pollIntervalMs,
    durations: ctx.durations,
    onProgress: options.onProgress,
    emit: ctx.emit,
    settleOnly: options.settleOnly,
  });
}
