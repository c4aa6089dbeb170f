/**
 * Polling operations until they end (`operation-wait.ts` sets a poll up from the client's settings). Only unfinished operations are polled; the first poll comes soon and the
 * interval doubles up to the 5 s the API suggests. Status rules:
 *
 * | status                                   | meaning here                                        |
 * |------------------------------------------|-----------------------------------------------------|
 * | finished                                 | done                                                |
 * | skipped                                  | terminal, counts as done (reported with a note)     |
 * | failed                                   | not terminal: the platform retries it; keep waiting, report `failures_count` |
 * | cancelled, error                         | terminal failure: `OperationFailedError`            |
 * | scheduling, running, cancelling, unknown | keep waiting                                        |
 */
import { OperationFailedError, OperationTimeoutError, type ReportedOperation } from "./errors";
import type { EventSink } from "./events";
import { redactSecrets } from "./redact";
import type { Operation } from "./schemas";
import { sleep } from "./sleep";

/** Statuses after which nothing more happens and the work is done. */
export const DONE_STATUSES: ReadonlySet<string> = new Set(["finished", "skipped"]);
/** Statuses after which nothing more happens and the work did not happen. */
export const FAILED_STATUSES: ReadonlySet<string> = new Set(["cancelled", "error"]);

/** True when the operation will not change any more (done or failed). */
export function isOperationTerminal(status: string): boolean {
  return DONE_STATUSES.has(status) || FAILED_STATUSES.has(status);
}

/** Poll intervals: first poll after `first` ms, doubling up to `max` ms. */
export interface PollInterval {
  first: number;
  max: number;
}

/** The default: first poll after 250 ms, backing off to the 5 s the API suggests (docs/api-rules.md §4). */
export const DEFAULT_POLL_INTERVAL: Readonly<PollInterval> = Object.freeze({ first: 250, max: 5_000 });

/**
 * Reads with `read` while `busy` says the service is still at work on what it read, pausing
 * `interval.first` and doubling up to `interval.max` in between; returns the first reading that is
 * not busy, or at `deadline` the reading as it is.
 */
export async function readWhileBusy<T>(
  interval: PollInterval,
  deadline: number,
  read: () => Promise<T>,
  busy: (reading: T) => boolean,
): Promise<T> {
  for (let pause = interval.first; ; pause = Math.min(pause * 2, interval.max)) {
    const reading = await read();
    if (!busy(reading) || Date.now() + pause > deadline) return reading;
    await sleep(pause);
  }
}

/**
 * How long operations take, learned per action in the process (poll only unfinished
 * operations; first poll soon). With an expectation, a wait polls the operation it is waiting on
 * when it should end and then in short steps, instead of backing off blindly: a queued change to
 * the project starts within a step of the previous one's end. An operation found already done at
 * its first poll teaches a time one step shorter, so the first poll keeps to the edge of the end:
 * just before it (the next step finds it) or just after.
 */
export class OperationDurations {
  readonly #expected = new Map<string, number>();

  /** The expected running time of `action` in ms, once one has been seen. */
  expected(action: string): number | undefined {
    return this.#expected.get(action);
  }

  /**
   * Records a running time measured between two polls, at most `atMostMs`: the time the API says
   * the operation took from its creation (`total_duration_ms`), which a wait that began after the
   * operation was created cannot exceed.
   */
  observed(action: string, ms: number, atMostMs = Number.POSITIVE_INFINITY): void {
    this.#expected.set(action, Math.max(1, Math.round(Math.min(ms, atMostMs))));
  }

  /** The operation was already done at its first poll: probe `byMs` earlier next time, at most `atMostMs`. */
  shorter(action: string, byMs: number, atMostMs = Number.POSITIVE_INFINITY): void {
    const current = this.#expected.get(action);
    if (current !== undefined) this.observed(action, current - byMs, atMostMs);
  }
}

/** Smallest pause between polls of an operation that is due. */
const MIN_STEP_MS = 10;
/** The pause between polls of a due operation: this fraction of its expected running time. */
const STEP_FRACTION = 1 / 50;

/** Everything a poll needs. */
export interface PollParams {
  projectId: string;
  operations: readonly Operation[];
  /** Reads one operation (`GET /projects/{project_id}/operations/{operation_id}`). */
  fetchOperation: (operationId: string) => Promise<Operation>;
  /** Epoch ms after which the wait gives up with `OperationTimeoutError`. */
  deadline: number;
  pollIntervalMs?: PollInterval | undefined;
  /** Called with the operation each time its status is first seen or changes. */
  onProgress?: ((operation: Operation) => void) | undefined;
  emit?: EventSink | undefined;
  /** Settle on any terminal status without throwing for `cancelled` / `error` (waiting out others' work). */
  settleOnly?: boolean | undefined;
  /** Learned running times; without them every poll backs off from `first` to `max`. */
  durations?: OperationDurations | undefined;
}

/** What an error records of an operation: its error text is the platform's, so it is scrubbed too. */
function summary(op: Operation): ReportedOperation {
  return {
    id: op.id,
    action: op.action,
    status: op.status,
    failures_count: op.failures_count,
    error: op.error === undefined ? undefined : redactSecrets(op.error),
  };
}

function note(op: Operation): string | undefined {
  if (op.status === "skipped")
    return "skipped: the platform decided the work was not needed; counted as done";
  if (op.status === "failed") {
    return `failed ${op.failures_count} time(s) so far; the platform retries it, still waiting`;
  }
  return undefined;
}

function describe(op: Operation): string {
  const failures = op.failures_count > 0 ? `, ${op.failures_count} failure(s)` : "";
  return `${op.id} (${op.action}, ${op.status}${failures})`;
}

function failedError(projectId: string, op: Operation): OperationFailedError {
  const reason = op.error ? `: ${redactSecrets(op.error)}` : "";
  const failures = op.failures_count > 0 ? ` after ${op.failures_count} failure(s)` : "";
  return new OperationFailedError(
    `Operation ${op.action} ${op.id} on project ${projectId} ended with status ${op.status}${failures}${reason}. The request was accepted but the platform did not complete the work: run \`pulumi refresh\` to see the object's state, then \`pulumi up\` again.`,
    projectId,
    summary(op),
    {
      method: "GET",
      path: `/projects/${encodeURIComponent(projectId)}/operations/${encodeURIComponent(op.id)}`,
      pathTemplate: "/projects/{project_id}/operations/{operation_id}",
    },
  );
}

/**
 * Poll until every operation is done; resolves with their last states (input order).
 * Throws `OperationFailedError` on `cancelled` / `error` (unless `settleOnly`), and
 * `OperationTimeoutError` listing the pending ids when the deadline passes.
 */
export async function pollOperations(params: PollParams): Promise<Operation[]> {
  const { projectId, deadline } = params;
  const interval = params.pollIntervalMs ?? DEFAULT_POLL_INTERVAL;
  const started = Date.now();
  const latest = new Map<string, Operation>();
  const settled = (op: Operation) =>
    params.settleOnly ? isOperationTerminal(op.status) : DONE_STATUSES.has(op.status);

  const observe = (op: Operation, previous: Operation | undefined) => {
    latest.set(op.id, op);
    if (
      previous !== undefined &&
      previous.status === op.status &&
      previous.failures_count === op.failures_count
    ) {
      return;
    }
    params.emit?.({
      type: "operation",
      projectId,
      operationId: op.id,
      branchId: op.branch_id ?? undefined,
      endpointId: op.endpoint_id ?? undefined,
      action: op.action,
      status: op.status,
      failuresCount: op.failures_count,
      note: note(op),
    });
    params.onProgress?.(op);
    if (!params.settleOnly && FAILED_STATUSES.has(op.status)) throw failedError(projectId, op);
  };

  for (const op of params.operations) {
    if (!latest.has(op.id)) observe(op, undefined);
  }

  const maxDelay = Math.max(interval.max, interval.first);
  let delay = Math.max(0, interval.first);
  // The operation waited on first (the project runs its operations in order) and since when.
  let head: string | undefined;
  let headSince = Date.now();
  let headPolls = 0;
  let headPolledAt = headSince;
  for (;;) {
    const pending = [...latest.values()].filter((op) => !settled(op));
    if (pending.length === 0) break;
    const now = Date.now();
    if (now >= deadline) {
      throw new OperationTimeoutError(
        `Timed out after ${Math.round((now - started) / 1000)} s waiting for ${pending.length} operation(s) on project ${projectId}: ${pending.map(describe).join(", ")}. They may still finish: the next \`pulumi refresh\` or \`pulumi up\` picks them up; raise the resource's \`timeouts\` or \`clouddb:operationTimeoutSeconds\` if they need longer.`,
        projectId,
        pending.map(summary),
        {
          method: "GET",
          pathTemplate: "/projects/{project_id}/operations/{operation_id}",
          elapsedMs: now - started,
        },
      );
    }
    const first = pending[0] as Operation;
    if (first.id !== head) {
      head = first.id;
      headSince = now;
      headPolls = 0;
      headPolledAt = now;
    }
    const expected = params.durations?.expected(first.action);
    let pause: number;
    let targets: Operation[];
    const step = Math.max(MIN_STEP_MS, Math.ceil((expected ?? 0) * STEP_FRACTION));
    if (expected === undefined) {
      pause = delay;
      delay = Math.min(maxDelay, Math.max(1, delay * 2));
      targets = pending;
    } else {
      // When it should end, then in short steps, backing off once well overdue. Never longer than
      // the longest interval: a time learned while operations queued on a busy project (the API
      // counts queueing in `total_duration_ms`) can be far longer than the next one takes.
      const due = headSince + expected;
      const overdueSteps = Math.max(0, headPolls - 10);
      pause = Math.min(maxDelay, now < due ? due - now : step * 2 ** Math.min(overdueSteps, 16));
      targets = [first];
    }
    await sleep(Math.min(pause, deadline - now));
    const previousPoll = headPolledAt;
    headPolledAt = Date.now();
    headPolls += 1;
    const fresh = await Promise.all(targets.map((op) => params.fetchOperation(op.id)));
    for (const [index, op] of fresh.entries()) observe(op, targets[index]);
    const waitedOn = latest.get(first.id) as Operation;
    if (settled(waitedOn)) {
      if (params.durations !== undefined) {
        // It ended between the last two polls: learn the middle of that window.
        const took = waitedOn.total_duration_ms || undefined;
        if (expected !== undefined && headPolls === 1) params.durations.shorter(first.action, step, took);
        else params.durations.observed(first.action, (previousPoll + headPolledAt) / 2 - headSince, took);
      }
      delay = Math.max(0, interval.first);
    }
  }
  const order = [...new Set(params.operations.map((op) => op.id))];
  return order.map((id) => latest.get(id)).filter((op): op is Operation => op !== undefined);
}
