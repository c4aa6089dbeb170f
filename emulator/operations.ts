import type { Clock } from "./clock";
import { isoMicros, newUuid } from "./ids";
import type { OperationRecord, Outcome } from "./records";
import type { Store } from "./state";

// The operation engine. An operation's whole life is decided when it is created (its queue slot,
// its duration, its scripted outcome); its status at any moment is computed from the clock on
// read. That keeps a manual clock fully deterministic and makes restarts trivial.
//
// Life of one operation of duration D that leaves the project's queue at S:
//   scheduling  [created, S + D/10)   (queued behind the project's earlier operations, then a short start-up)
//   running     [S + D/10, S + D)
//   finished    from S + D
// Scripted outcomes change the tail: fail K times (status `failed` with `retry_at`, then running
// again after D/2, K times, then finished), cancelled (cancelling from the middle), error, skipped
// (straight from scheduling), stuck (running forever, so the project stays locked).

/** An operation as the API returns it. */
export interface OperationView {
  id: string;
  project_id: string;
  branch_id?: string;
  endpoint_id?: string;
  action: string;
  status: string;
  failures_count: number;
  created_at: string;
  updated_at: string;
  total_duration_ms: number;
  error?: string;
  retry_at?: string;
}

/** A scripted outcome for operations the emulator will create. */
export type ScriptedOutcome =
  | { kind: "fail"; times: number }
  | { kind: "cancelled" }
  | { kind: "error"; message?: string }
  | { kind: "skipped" }
  | { kind: "stuck" };

/** Which future operations a script applies to; `count` absent means every match until cleared. */
export interface OperationMatch {
  action?: string;
  projectId?: string;
  count?: number;
}

/** What one new operation concerns. */
export interface OperationSpec {
  action: string;
  branch_id?: string;
  endpoint_id?: string;
}

/** Platform-initiated operations on a schedule. */
export interface PlatformSchedule {
  everyMs: number;
  actions: string[];
}

/** Statuses after which an operation never changes. `failed` is not one: it is retried. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["finished", "cancelled", "skipped", "error"]);

const DEFAULT_ERROR = "operation failed: the compute node did not respond";
const BULK_ACTIONS = [
  "start_compute",
  "suspend_compute",
  "check_availability",
  "apply_config",
  "create_branch",
];

interface Segment {
  atUs: number;
  status: string;
  failures: number;
  retryAtMs?: number;
  error?: string;
}

interface Timeline {
  segments: Segment[];
  /** When the operation reaches a terminal status; null if never. */
  endMs: number | null;
}

/** The full, precomputed life of an operation. */
export function timeline(op: OperationRecord): Timeline {
  const segments: Segment[] = [{ atUs: op.created_us, status: "scheduling", failures: 0 }];
  if (op.start_ms === null) return { segments, endMs: null };
  const d = op.duration_ms;
  const sched = Math.floor(d / 10);
  const runStart = op.start_ms + sched;
  const run = d - sched;
  const at = (ms: number) => ms * 1000;
  const outcome: Outcome = op.outcome;
  switch (outcome.kind) {
    case "skipped":
      segments.push({ atUs: at(runStart), status: "skipped", failures: 0 });
      return { segments, endMs: runStart };
    case "stuck":
      segments.push({ atUs: at(runStart), status: "running", failures: 0 });
      return { segments, endMs: null };
    case "cancelled": {
      const cancelling = runStart + Math.floor(run / 2);
      segments.push({ atUs: at(runStart), status: "running", failures: 0 });
      segments.push({ atUs: at(cancelling), status: "cancelling", failures: 0 });
      segments.push({ atUs: at(runStart + run), status: "cancelled", failures: 0 });
      return { segments, endMs: runStart + run };
    }
    case "error":
      segments.push({ atUs: at(runStart), status: "running", failures: 0 });
      segments.push({ atUs: at(runStart + run), status: "error", failures: 1, error: outcome.message });
      return { segments, endMs: runStart + run };
    case "fail": {
      const retryWait = Math.max(1, Math.round(d / 2));
      let attempt = runStart;
      for (let i = 0; i < outcome.times; i++) {
        segments.push({ atUs: at(attempt), status: "running", failures: i });
        const failedAt = attempt + run;
        attempt = failedAt + retryWait;
        segments.push({ atUs: at(failedAt), status: "failed", failures: i + 1, retryAtMs: attempt });
      }
      segments.push({ atUs: at(attempt), status: "running", failures: outcome.times });
      segments.push({ atUs: at(attempt + run), status: "finished", failures: outcome.times });
      return { segments, endMs: attempt + run };
    }
    case "finish":
      segments.push({ atUs: at(runStart), status: "running", failures: 0 });
      segments.push({ atUs: at(runStart + run), status: "finished", failures: 0 });
      return { segments, endMs: runStart + run };
  }
}

/** The operation as the API shows it at emulator time `nowMs`. */
export function viewOperation(op: OperationRecord, nowMs: number): OperationView {
  const { segments, endMs } = timeline(op);
  const nowUs = nowMs * 1000;
  let current = segments[0] as Segment;
  for (const seg of segments) {
    if (seg.atUs <= nowUs) current = seg;
    else break;
  }
  const createdMs = Math.floor(op.created_us / 1000);
  const upTo = endMs === null ? nowMs : Math.min(nowMs, endMs);
  const view: OperationView = {
    id: op.id,
    project_id: op.project_id,
    ...(op.branch_id === undefined ? {} : { branch_id: op.branch_id }),
    ...(op.endpoint_id === undefined ? {} : { endpoint_id: op.endpoint_id }),
    action: op.action,
    status: current.status,
    failures_count: current.failures,
    created_at: isoMicros(op.created_us),
    updated_at: isoMicros(Math.max(current.atUs, op.created_us)),
    total_duration_ms: Math.max(0, upTo - createdMs),
  };
  if (current.error !== undefined) view.error = current.error;
  if (current.retryAtMs !== undefined) view.retry_at = isoMicros(current.retryAtMs * 1000);
  return view;
}

/** Creates operations on the project queues, applies scripts, and runs the platform's own schedule. */
export class OperationEngine {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #durationOf: (action: string) => number;
  readonly #platform: PlatformSchedule | undefined;
  #scripts: Array<{ match: OperationMatch; outcome: ScriptedOutcome; remaining: number }> = [];

  constructor(
    store: Store,
    clock: Clock,
    durationOf: (action: string) => number,
    platform: PlatformSchedule | undefined,
  ) {
    this.#store = store;
    this.#clock = clock;
    this.#durationOf = durationOf;
    this.#platform = platform;
    if (platform && store.platformTickMs === undefined) store.platformTickMs = clock.now();
  }

  /** Scripts the outcome of the next `match.count` matching operations (all of them without a count). */
  script(match: OperationMatch, outcome: ScriptedOutcome): void {
    const count = match.count ?? Number.POSITIVE_INFINITY;
    if (!(count > 0)) throw new RangeError("scriptOperations: count must be > 0");
    if (outcome.kind === "fail" && !(Number.isInteger(outcome.times) && outcome.times >= 1)) {
      throw new RangeError("scriptOperations: fail needs an integer times >= 1");
    }
    this.#scripts.push({ match, outcome, remaining: count });
  }

  /** How long work of this action takes (`opDurationMs`, per action or its default). */
  durationOf(action: string): number {
    return this.#durationOf(action);
  }

  /** Forgets every script. */
  clearScripts(): void {
    this.#scripts = [];
  }

  /** True while the project has an operation that has not reached a terminal status. */
  isBusy(projectId: string): boolean {
    const project = this.#store.projects.get(projectId);
    if (!project) return false;
    return project.queue_end_ms === null || this.#clock.now() < project.queue_end_ms;
  }

  /** Queues operations on a project, in order, each after the previous one ends. */
  create(
    projectId: string,
    specs: OperationSpec[],
    initiator: OperationRecord["initiator"],
    at: number = this.#clock.now(),
    durationMs?: number,
  ): OperationRecord[] {
    const project = this.#store.projects.get(projectId);
    if (!project) throw new Error(`unknown project ${projectId}`);
    const created: OperationRecord[] = [];
    for (const spec of specs) {
      const start = project.queue_end_ms === null ? null : Math.max(at, project.queue_end_ms);
      const op: OperationRecord = {
        id: newUuid(this.#store.ids),
        project_id: projectId,
        action: spec.action,
        created_us: this.#store.nextMicros(at),
        start_ms: start,
        duration_ms: durationMs ?? this.#durationOf(spec.action),
        outcome: this.#takeScript(projectId, spec.action),
        initiator,
      };
      if (spec.branch_id !== undefined) op.branch_id = spec.branch_id;
      if (spec.endpoint_id !== undefined) {
        op.endpoint_id = spec.endpoint_id;
        this.#store.endpoints.get(spec.endpoint_id)?.op_ids.push(op.id);
      }
      this.#store.insertOperation(op);
      project.queue_end_ms = timeline(op).endMs;
      created.push(op);
    }
    return created;
  }

  /** Starts one platform-initiated operation (default `check_availability`) on the project now. */
  startPlatform(projectId: string, action = "check_availability", durationMs?: number): OperationRecord {
    const target = this.#computeTarget(projectId);
    const spec: OperationSpec = { action };
    if (target.branchId !== undefined) spec.branch_id = target.branchId;
    if (target.endpointId !== undefined) spec.endpoint_id = target.endpointId;
    const [op] = this.create(projectId, [spec], "platform", this.#clock.now(), durationMs);
    return op as OperationRecord;
  }

  /** Creates the platform's scheduled operations up to now (lazy; called before every request). */
  catchUp(): void {
    const platform = this.#platform;
    if (!platform || platform.actions.length === 0) return;
    const now = this.#clock.now();
    let tick = this.#store.platformTickMs ?? now;
    // A long jump of the clock would create a flood; the platform only checks so often.
    if ((now - tick) / platform.everyMs > 100) tick = now - 100 * platform.everyMs;
    while (tick + platform.everyMs <= now) {
      tick += platform.everyMs;
      const action = platform.actions[this.#store.platformTicks++ % platform.actions.length] as string;
      for (const project of this.#store.projects.values()) {
        if (project.deleted_at_ms !== undefined) continue;
        const target = this.#computeTarget(project.id);
        // Branches without a compute are not checked (docs/api-rules.md §4).
        if (target.endpointId === undefined || target.branchId === undefined) continue;
        this.create(
          project.id,
          [{ action, branch_id: target.branchId, endpoint_id: target.endpointId }],
          "platform",
          tick,
        );
      }
    }
    this.#store.platformTickMs = tick;
  }

  /** Adds `count` finished operations in the project's past, 1 ms apart, for pagination tests. */
  addFinished(projectId: string, count: number): number {
    const project = this.#store.projects.get(projectId);
    if (!project) throw new Error(`unknown project ${projectId}`);
    if (!(Number.isInteger(count) && count >= 0 && count <= 1_000_000)) {
      throw new RangeError("addOperations: count must be an integer in 0..1000000");
    }
    const nowMs = this.#clock.now();
    const list = this.#store.projectOps.get(projectId) ?? [];
    const used = new Set(list.map((op) => op.created_us));
    const branchId = project.default_branch_id;
    const endpointId = this.#store.branchEndpoints(branchId)[0]?.id;
    for (let i = 0; i < count; i++) {
      let us = (nowMs - (count - i)) * 1000;
      while (used.has(us)) us -= 1;
      used.add(us);
      const action = BULK_ACTIONS[i % BULK_ACTIONS.length] as string;
      const createdMs = Math.floor(us / 1000);
      const op: OperationRecord = {
        id: newUuid(this.#store.ids),
        project_id: projectId,
        branch_id: branchId,
        action,
        created_us: us,
        start_ms: createdMs,
        duration_ms: Math.min(1000, nowMs - createdMs),
        outcome: { kind: "finish" },
        initiator: "platform",
      };
      if (endpointId !== undefined && action.endsWith("_compute")) op.endpoint_id = endpointId;
      this.#store.insertOperation(op);
    }
    this.#store.projectOps.get(projectId)?.sort((a, b) => a.created_us - b.created_us);
    return count;
  }

  /** One page of the project's operations, newest first, strictly older than `beforeUs` when given. */
  page(projectId: string, limit: number, beforeUs: number | undefined): OperationRecord[] {
    const list = this.#store.projectOps.get(projectId) ?? [];
    let end = list.length;
    if (beforeUs !== undefined) {
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((list[mid] as OperationRecord).created_us < beforeUs) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    const out: OperationRecord[] = [];
    for (let i = end - 1; i >= 0 && out.length < limit; i--) out.push(list[i] as OperationRecord);
    return out;
  }

  /** The operation at the current clock time. */
  view(op: OperationRecord): OperationView {
    return viewOperation(op, this.#clock.now());
  }

  #takeScript(projectId: string, action: string): Outcome {
    for (const script of this.#scripts) {
      if (script.remaining <= 0) continue;
      if (script.match.action !== undefined && script.match.action !== action) continue;
      if (script.match.projectId !== undefined && script.match.projectId !== projectId) continue;
      script.remaining -= 1;
      const outcome = script.outcome;
      return outcome.kind === "error"
        ? { kind: "error", message: outcome.message ?? DEFAULT_ERROR }
        : outcome;
    }
    return { kind: "finish" };
  }

  #computeTarget(projectId: string): { branchId?: string; endpointId?: string } {
    const project = this.#store.projects.get(projectId);
    if (!project) throw new Error(`unknown project ${projectId}`);
    const candidates = [project.default_branch_id, ...this.#store.liveBranches(projectId).map((b) => b.id)];
    for (const branchId of candidates) {
      const endpoint = this.#store.branchEndpoints(branchId)[0];
      if (endpoint) return { branchId, endpointId: endpoint.id };
    }
    return { branchId: project.default_branch_id };
  }
}
