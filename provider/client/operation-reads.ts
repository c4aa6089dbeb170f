/**
 * Reading operations: a project's operations page by page, and one operation. The routes of
 * `api/operations.ts`, the waits (`wait.ts`) and the mutations' lock waits (`mutation.ts`) read
 * through these, so a request only ever goes down to `request.ts`.
 */
import type { ClientContext } from "./context";
import { checkPageSize, DEFAULT_MAX_PAGES, pages, sendPage } from "./paginate";
import { send } from "./request";
import { type Operation, OperationResponseSchema, OperationsPageSchema } from "./schemas";

/** Options of `listOperations`. */
export interface ListOperationsOptions {
  /** Page size, 1..1000 (default 1000). */
  pageSize?: number | undefined;
  /** Stop after this many operations. */
  maxItems?: number | undefined;
  /** Hard page cap (default 1000). */
  maxPages?: number | undefined;
}

/** A project's operations, newest first, all pages (cursor = last item's `created_at`), or `maxItems`; throws `InvalidArgumentError` for a page size out of range. */
export function operationPages(
  context: () => ClientContext,
  projectId: string,
  options: ListOperationsOptions = {},
): AsyncIterable<Operation> {
  const limit = checkPageSize("listOperations pageSize", options.pageSize ?? 1_000, 1, 1_000);
  return pages(context, (ctx) => ({
    what: `operations of project ${projectId}`,
    limit,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    maxItems: options.maxItems,
    fetchPage: (page) =>
      sendPage(ctx.request, "GET /projects/{project_id}/operations", page, {
        params: { project_id: projectId },
        schema: OperationsPageSchema,
      }),
    items: (page) => page.operations,
    nextCursor: (page) => page.pagination?.cursor,
  }));
}

/** One operation as the API reports it now; throws the request's `ApiError` (404 when unknown). */
export async function readOperation(
  ctx: ClientContext,
  projectId: string,
  operationId: string,
): Promise<Operation> {
  const body = await send(ctx.request, "GET /projects/{project_id}/operations/{operation_id}", {
    params: { project_id: projectId, operation_id: operationId },
    schema: OperationResponseSchema,
  });
  return body.operation;
}
