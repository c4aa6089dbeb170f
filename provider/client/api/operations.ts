/**
 * Operations: listing, reading one, and waiting for some to end. `waitForOperations` is the one
 * place a wait is set up from the client's settings (poll interval, learned durations, events).
 */
import type { ClientContext } from "../context";
import { checkPageSize, DEFAULT_MAX_PAGES, pages } from "../paginate";
import { apiRoute } from "../path";
import { send } from "../request";
import { iterableRoute } from "../route";
import { type Operation, OperationResponseSchema, OperationsPageSchema } from "../schemas";
import { pollOperations } from "../wait";

/** Options of `listOperations`. */
export interface ListOperationsOptions {
  /** Page size, 1..1000 (default 1000). */
  pageSize?: number | undefined;
  /** Stop after this many operations. */
  maxItems?: number | undefined;
  /** Hard page cap (default 1000). */
  maxPages?: number | undefined;
}

/** `GET /projects/{project_id}/operations`, newest first, all pages (cursor = last item's `created_at`), or `maxItems`. */
export const listOperations = iterableRoute(
  (
    context: () => ClientContext,
    projectId: string,
    options: ListOperationsOptions = {},
  ): AsyncIterable<Operation> => {
    const limit = checkPageSize("listOperations pageSize", options.pageSize ?? 1_000, 1, 1_000);
    return pages(context, (ctx) => ({
      what: `operations of project ${projectId}`,
      limit,
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      maxItems: options.maxItems,
      fetchPage: ({ cursor, limit: pageSize }) =>
        send(ctx.request, {
          method: "GET",
          route: apiRoute("/projects/{project_id}/operations", { project_id: projectId }),
          query: { limit: pageSize, cursor },
          schema: OperationsPageSchema,
        }),
      items: (page) => page.operations,
      nextCursor: (page) => page.pagination?.cursor,
    }));
  },
);

/** `GET /projects/{project_id}/operations/{operation_id}`. */
export async function getOperation(
  ctx: ClientContext,
  projectId: string,
  operationId: string,
): Promise<Operation> {
  const body = await send(ctx.request, {
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
  /** Wait for any end, failures included, without throwing for them (waiting out someone else's work). */
  settleOnly?: boolean | undefined;
}

/**
 * Poll until every one of `operations` is done; resolves with their last states. Throws
 * `OperationFailedError` / `OperationTimeoutError`; the status rules are in `wait.ts`.
 */
export function waitForOperations(
  ctx: ClientContext,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions = {},
): Promise<Operation[]> {
  return pollOperations({
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
