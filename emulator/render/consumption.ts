import type {
  ConsumptionHistoryGranularity,
  ConsumptionHistoryPerPeriodV2,
  ConsumptionHistoryPerTimeframeV2,
} from "@neon/sdk/raw";
import { CONSUMPTION_PLAN, DEFAULT_BRANCH_BYTES } from "../defaults";
import { isoSeconds, stableUuid } from "../ids";
import { timeline } from "../operations";
import type { BranchRecord, EndpointRecord, ProjectRecord } from "../records";
import type { Store } from "../state";

// Consumption history from the emulator's own records, on its clock: compute unit seconds from the
// endpoints' start and suspend operations, branch and snapshot storage from their recorded sizes
// over their lifetimes. Metrics the emulator has no basis for are 0 (emulator/README.md).

/** The metrics `GET /consumption_history/v2/projects` accepts. */
export const PROJECT_METRICS = [
  "compute_unit_seconds",
  "root_branch_bytes_month",
  "child_branch_bytes_month",
  "instant_restore_bytes_month",
  "public_network_transfer_bytes",
  "private_network_transfer_bytes",
  "extra_branches_month",
  "snapshot_storage_bytes_month",
] as const;

/** The metrics `GET /consumption_history/v2/branches` accepts: the project ones less the two that are per project only. */
export const BRANCH_METRICS: readonly string[] = PROJECT_METRICS.filter(
  (m) => m !== "extra_branches_month" && m !== "snapshot_storage_bytes_month",
);

/** A time span [startMs, endMs). */
export interface Span {
  startMs: number;
  endMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A byte-month is a byte kept for an average month: 730 hours (8,760 hours a year over 12). */
const MONTH_MS = 730 * HOUR_MS;

/** The start of the granularity's unit that holds `ms` (UTC). */
export function roundDown(ms: number, granularity: ConsumptionHistoryGranularity): number {
  if (granularity === "hourly") return Math.floor(ms / HOUR_MS) * HOUR_MS;
  if (granularity === "daily") return Math.floor(ms / DAY_MS) * DAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextUnit(ms: number, granularity: ConsumptionHistoryGranularity): number {
  if (granularity === "hourly") return ms + HOUR_MS;
  if (granularity === "daily") return ms + DAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * The timeframes from the one holding `from` to the one holding `to` (both rounded down to the
 * granularity, so `from` equal to `to` is one timeframe), those begun by `nowMs` only.
 */
export function timeframes(
  fromMs: number,
  toMs: number,
  granularity: ConsumptionHistoryGranularity,
  nowMs: number,
): Span[] {
  const out: Span[] = [];
  const last = Math.min(roundDown(toMs, granularity), roundDown(nowMs, granularity));
  for (let s = roundDown(fromMs, granularity); s <= last; s = nextUnit(s, granularity)) {
    out.push({ startMs: s, endMs: nextUnit(s, granularity) });
  }
  return out;
}

function overlapMs(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs));
}

/** When an endpoint's compute was active: from each finished start to the suspend that ended it (or now). */
export function activeSpans(endpoint: EndpointRecord, store: Store, nowMs: number): Span[] {
  const spans: Span[] = [];
  let since: number | undefined;
  for (const opId of endpoint.op_ids) {
    const op = store.operations.get(opId);
    if (!op || (op.action !== "start_compute" && op.action !== "suspend_compute")) continue;
    const { segments, endMs } = timeline(op);
    if (endMs === null || endMs > nowMs || segments.at(-1)?.status !== "finished") continue;
    if (op.action === "start_compute") since ??= endMs;
    else if (since !== undefined) {
      spans.push({ startMs: since, endMs });
      since = undefined;
    }
  }
  if (since !== undefined) spans.push({ startMs: since, endMs: nowMs });
  return spans;
}

/** The branches and snapshots a set of metrics is computed over, and the project they belong to. */
interface Scope {
  project: ProjectRecord;
  branches: BranchRecord[];
  /** Snapshots count only for a project's metrics. */
  withSnapshots: boolean;
}

function lifetime(created: number, ended: number | undefined, nowMs: number): Span {
  return { startMs: created, endMs: ended ?? nowMs };
}

function metricValue(name: string, scope: Scope, frame: Span, store: Store, nowMs: number): number {
  const branchIds = new Set(scope.branches.map((b) => b.id));
  const byteMonths = (roots: boolean) =>
    scope.branches
      .filter((b) => (b.parent_id === undefined) === roots)
      .reduce(
        (sum, b) =>
          sum +
          ((b.logical_size ?? DEFAULT_BRANCH_BYTES) *
            overlapMs(lifetime(b.created_at_ms, b.deleted_at_ms, nowMs), frame)) /
            MONTH_MS,
        0,
      );
  switch (name) {
    case "compute_unit_seconds": {
      let cuSeconds = 0;
      for (const e of store.endpoints.values()) {
        if (e.project_id !== scope.project.id || !branchIds.has(e.branch_id)) continue;
        const cu = (e.compute ?? scope.project.default_endpoint_settings)?.autoscaling_limit_min_cu ?? 0.25;
        for (const span of activeSpans(e, store, nowMs)) cuSeconds += (cu * overlapMs(span, frame)) / 1000;
      }
      return Math.round(cuSeconds);
    }
    case "root_branch_bytes_month":
      return Math.round(byteMonths(true));
    case "child_branch_bytes_month":
      return Math.round(byteMonths(false));
    case "snapshot_storage_bytes_month": {
      if (!scope.withSnapshots) return 0;
      let sum = 0;
      for (const s of store.snapshots.values()) {
        if (s.project_id !== scope.project.id) continue;
        sum += (s.logical_size * overlapMs(lifetime(s.created_at_ms, undefined, nowMs), frame)) / MONTH_MS;
      }
      return Math.round(sum);
    }
    default:
      // Data transfer, instant restore storage and extra branches: the emulator keeps no basis for them.
      return 0;
  }
}

/**
 * The consumption of a project's branches (all of them, or one) in each timeframe, grouped by
 * billing period: one a calendar month, the last one open (no `period_end`).
 */
export function renderPeriods(
  store: Store,
  scope: Scope,
  frames: readonly Span[],
  metrics: readonly string[],
  nowMs: number,
): ConsumptionHistoryPerPeriodV2[] {
  const periods = new Map<number, ConsumptionHistoryPerPeriodV2>();
  const current = roundDown(nowMs, "monthly");
  for (const frame of frames) {
    const start = roundDown(frame.startMs, "monthly");
    let period = periods.get(start);
    if (period === undefined) {
      const end = nextUnit(start, "monthly");
      period = {
        period_id: stableUuid(`consumption period ${scope.project.org_id ?? scope.project.id} ${start}`),
        period_plan: CONSUMPTION_PLAN,
        period_start: isoSeconds(start),
        ...(start < current ? { period_end: isoSeconds(end) } : {}),
        consumption: [],
      };
      periods.set(start, period);
    }
    const timeframe: ConsumptionHistoryPerTimeframeV2 = {
      timeframe_start: isoSeconds(frame.startMs),
      timeframe_end: isoSeconds(frame.endMs),
      metrics: metrics.map((metric_name) => ({
        metric_name,
        value: metricValue(metric_name, scope, frame, store, nowMs),
      })),
    };
    period.consumption.push(timeframe);
  }
  return [...periods.values()];
}
