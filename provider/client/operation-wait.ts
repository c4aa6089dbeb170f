/**
 * A wait for a project's operations set up from the client's settings (poll interval, learned
 * durations, events), reading each through `operation-reads.ts`: the one place a wait is set up, for
 * the `waitForOperations` route and the mutations alike. The loop and its status rules are `wait.ts`.
 */
import type { ClientContext } from "./context";
import { readOperation } from "./operation-reads";
import type { Operation } from "./schemas";
import { pollOperations } from "./wait";

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
 * `OperationFailedError` / `OperationTimeoutError` as `pollOperations` does.
 */
export function waitForProjectOperations(
  ctx: ClientContext,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions = {},
): Promise<Operation[]> {
  return pollOperations({
    projectId,
    operations,
    fetchOperation: (id) => readOperation(ctx, projectId, id),
    deadline: options.deadline ?? ctx.deadline,
    pollIntervalMs: ctx.pollIntervalMs,
    durations: ctx.durations,
    onProgress: options.onProgress,
    emit: ctx.emit,
    settleOnly: options.settleOnly,
  });
}
