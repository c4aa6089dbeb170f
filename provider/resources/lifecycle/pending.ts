/**
 * Operations an interrupted run left behind (`pendingOperationIds`): the next `update` waits for
 * them before it changes anything.
 */
import type { Operation } from "../../client";
import { isOperationFailed } from "../../client/errors";
import { redactSecrets } from "../../client/redact";
import { ResourceError } from "../errors";
import type { CommonState, Step } from "./define";
import { labelOf } from "./define";

/** What `settlePending` needs of the resource: which failed operations it survives, which one makes it. */
export interface PendingRules {
  /** Actions whose failure leaves the object usable. */
  survives?: ReadonlySet<string> | undefined;
  /** The action that makes the object: when it fails, the object was never made (an `Unmade` error). */
  madeBy?: string | undefined;
  /** The resource's URN, for messages. */
  urn?: string | undefined;
}

/**
 * Waits for the operations an earlier run stopped waiting for. An operation that ended cancelled or
 * in error is accepted when its action is in `survives` (the object still works), whether it ended
 * before this run or during the wait. When it is the one that makes the object, this throws an
 * `Unmade` error (the caller deletes what is left); otherwise the object may be unusable and this throws.
 */
export async function settlePending(
  { client, deadline }: Step,
  noun: string,
  id: string,
  olds: CommonState,
  { survives = new Set(), madeBy, urn }: PendingRules = {},
): Promise<void> {
  const pending = olds.pendingOperationIds ?? [];
  const projectId = olds.projectId;
  if (pending.length === 0 || projectId === undefined) return;
  const settle = (op: { id: string; action: string; status: string; error?: string | null | undefined }) => {
    if (survives.has(op.action)) return;
    const ended =
      `${labelOf(noun, id, olds)}: operation ${op.action} ${op.id} ended ${op.status}` +
      `${op.error ? ` (${redactSecrets(op.error)})` : ""}`;
    if (op.action === madeBy) throw new ResourceError("Unmade", ended);
    throw new ResourceError(
      "Unusable",
      `${ended}; the ${noun} may be unusable. Replace it with \`pulumi up --replace '${urn ?? "<urn>"}'\`.`,
    );
  };
  let open: Operation[] = [];
  for (const opId of pending) {
    const op = await client.getOperation(projectId, opId);
    if (op.status === "cancelled" || op.status === "error") settle(op);
    else if (op.status !== "finished" && op.status !== "skipped") open.push(op);
  }
  while (open.length > 0) {
    try {
      await client.waitForOperations(projectId, open, { deadline });
      open = [];
    } catch (err) {
      if (!isOperationFailed(err)) throw err;
      settle(err.operation);
      open = open.filter((op) => op.id !== err.operation.id);
    }
  }
}
