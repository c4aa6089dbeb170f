/**
 * Operations: listing, reading one, and waiting for some to end. The reads are `operation-reads.ts`'s
 * and the wait `operation-wait.ts`'s (the mutations use them too); here they are routes.
 */
import type { ClientContext } from "../context";
import { type ListOperationsOptions, operationPages, readOperation } from "../operation-reads";
import { type WaitOptions, waitForProjectOperations } from "../operation-wait";
import { iterableRoute } from "../route";
import type { Operation } from "../schemas";

export type { ListOperationsOptions } from "../operation-reads";
export type { WaitOptions } from "../operation-wait";

/** `GET /projects/{project_id}/operations`, newest first, all pages (cursor = last item's `created_at`), or `maxItems`. */
export const listOperations = iterableRoute(
  (
    context: () => ClientContext,
    projectId: string,
    options: ListOperationsOptions = {},
  ): AsyncIterable<Operation> => operationPages(context, projectId, options),
);

/** `GET /projects/{project_id}/operations/{operation_id}`. */
export function getOperation(ctx: ClientContext, projectId: string, operationId: string): Promise<Operation> {
  return readOperation(ctx, projectId, operationId);
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
  return waitForProjectOperations(ctx, projectId, operations, options);
}
