/**
 * The life of a mutating call on a project: queue behind earlier changes to the project, send
 * (re-sending past 423s once the project's running operations finish), then hold the project until
 * the operations the call started are done. Errors after a successful send carry the send's body in
 * `response`.
 */

import type { z } from "zod";
import { type ClientContext, withDeadline } from "./context";
import { isApiError, isLocked, isOperationTimeout, OperationTimeoutError } from "./errors";
import { operationPages } from "./operation-reads";
import { waitForProjectOperations } from "./operation-wait";
import type { RouteName, RouteParams } from "./path";
import { type RouteParts, routeSpec, sendRequest } from "./request";
import type { Operation } from "./schemas";
import { sleep } from "./sleep";
import { isOperationTerminal } from "./wait";

/** Per-call options of mutating calls. */
export interface MutationOptions {
  /** Epoch ms by which the call, including its operation wait, must be done (default: the client's `deadline`, else its `timeoutMs`). */
  deadline?: number | undefined;
  /** Wait for the started operations before resolving (default true). */
  wait?: boolean | undefined;
  /** Called each time the status of an operation the call waits for changes. */
  onProgress?: ((operation: Operation) => void) | undefined;
}

/** The newest operations of a project: one page of 100 (what a request refused with 423 waits for). */
async function recentOperations(
  ctx: ClientContext,
  projectId: string,
  deadline: number,
): Promise<Operation[]> {
  const operations: Operation[] = [];
  const newest = operationPages(() => withDeadline(ctx, deadline), projectId, {
    pageSize: 100,
    maxItems: 100,
  });
  for await (const op of newest) operations.push(op);
  return operations;
}

/** `request()`, sent again past 423s once the project's running operations have ended. */
async function sendPastLocks<T>(
  ctx: ClientContext,
  projectId: string,
  request: () => Promise<T>,
  deadline: number,
): Promise<T> {
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!isLocked(error) || Date.now() >= deadline) throw error;
      // The 423 retries are spent: wait for the project's running work, then try again.
      const unfinished = (await recentOperations(ctx, projectId, deadline)).filter(
        (op) => !isOperationTerminal(op.status),
      );
      ctx.emit({ type: "locked-wait", projectId, pendingOperationIds: unfinished.map((op) => op.id) });
      if (unfinished.length === 0) {
        // The lock holder is not listed (yet): pause one poll interval.
        await sleep(Math.min(ctx.pollIntervalMs.first, Math.max(0, deadline - Date.now())));
        continue;
      }
      try {
        await waitForProjectOperations(ctx, projectId, unfinished, { deadline, settleOnly: true });
      } catch (waitError) {
        if (isOperationTimeout(waitError)) throw error;
        throw waitError;
      }
    }
  }
}

/**
 * Run one mutating call for `projectId` under the project queue. `request` sends it (it receives
 * the deadline); its result's `operations` are awaited unless `wait: false`.
 */
function runMutation<T extends Started | null>(
  ctx: ClientContext,
  projectId: string,
  options: MutationOptions,
  request: (deadline: number) => Promise<T>,
): Promise<T> {
  const deadline = options.deadline ?? ctx.deadline;
  const task = async (): Promise<T> => {
    if (Date.now() >= deadline) {
      throw new OperationTimeoutError(
        `The deadline passed before the request for project ${projectId} was sent (it was queued behind earlier changes to the project). Nothing was changed: raise the resource's \`timeouts\` or \`clouddb:operationTimeoutSeconds\`, or lower \`pulumi up --parallel\`.`,
        projectId,
        [],
      );
    }
    const response = await sendPastLocks(ctx, projectId, () => request(deadline), deadline);
    return response === null ? response : waitForStarted(ctx, projectId, response, { ...options, deadline });
  };
  if (ctx.queues === undefined) return task();
  const ahead = ctx.queues.pending(projectId);
  if (ahead > 0) ctx.emit({ type: "queued", projectId, ahead });
  return ctx.queues.run(projectId, task);
}

/** An answer that may list the operations the call started. */
export type Started = { operations?: Operation[] | undefined; [field: string]: unknown };

/**
 * Waits for the operations `response` started (unless `wait: false`) and resolves with `response`.
 * A failed wait carries `response` in the error, so the caller can record what was made.
 */
export async function waitForStarted<T extends Started>(
  ctx: ClientContext,
  projectId: string,
  response: T,
  options: MutationOptions,
): Promise<T> {
  const operations = response.operations ?? [];
  if (options.wait === false || operations.length === 0) return response;
  try {
    await waitForProjectOperations(ctx, projectId, operations, {
      deadline: options.deadline,
      onProgress: options.onProgress,
    });
  } catch (error) {
    if (isApiError(error)) error.response = response;
    throw error;
  }
  return response;
}

/** A route of one project: its template names `{project_id}`, the project a change to it queues on. */
export type ProjectRouteName = {
  [R in RouteName]: RouteParams<R> extends { project_id: string } ? R : never;
}[RouteName];

/** Sends the request to route `name` under `runMutation` with the call's deadline, on the project of its `project_id`. */
function mutate<R extends ProjectRouteName, S extends z.ZodType<Started>>(
  ctx: ClientContext,
  name: R,
  parts: RouteParts<R, S>,
  options: MutationOptions,
  allowEmpty: boolean,
): Promise<z.output<S> | null> {
  // The path is filled now, before the call queues: a refused parameter throws at the call.
  const spec = routeSpec(name, parts);
  const projectId = (parts.params as { project_id: string }).project_id;
  return runMutation(ctx, projectId, options, (deadline) =>
    sendRequest(ctx.request, { ...spec, deadline }, allowEmpty),
  );
}

/**
 * A mutating call that is one request, to route `name` (`"POST /projects/{project_id}/branches"`):
 * queued on the project its `params.project_id` names, sent with the call's deadline.
 */
export function sendMutation<R extends ProjectRouteName, S extends z.ZodType<Started>>(
  ctx: ClientContext,
  name: R,
  parts: RouteParts<NoInfer<R>, S>,
  options: MutationOptions = {},
): Promise<z.output<S>> {
  return mutate(ctx, name, parts, options, false) as Promise<z.output<S>>;
}

/** `sendMutation` for a delete: `null` when the API answers 204 (already gone). */
export function sendMutationOrEmpty<R extends ProjectRouteName, S extends z.ZodType<Started>>(
  ctx: ClientContext,
  name: R,
  parts: RouteParts<NoInfer<R>, S>,
  options: MutationOptions = {},
): Promise<z.output<S> | null> {
  return mutate(ctx, name, parts, options, true);
}
