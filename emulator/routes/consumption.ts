import type { ConsumptionHistoryGranularity } from "@neon/sdk/raw";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Principal } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, HttpError, notFound } from "../errors";
import type { ContractRequests } from "../openapi/contract";
import type { BranchRecord, ProjectRecord } from "../records";
import { BRANCH_METRICS, PROJECT_METRICS, renderPeriods, type Span, timeframes } from "../render/consumption";
import type { Store } from "../state";
import { principalOf } from "./principal";
import { route } from "./route";

// Consumption history per project and per branch of an organization, over a time range at a
// granularity (docs/api-rules.md §18). Every organization here is on a plan that has it, so the
// plan's 403 is never answered.

const HOUR_MS = 3_600_000;

/** The longest range each granularity serves: 168 hours, 60 days, a year. */
const RANGE_LIMIT: Record<ConsumptionHistoryGranularity, { ms: number; text: string }> = {
  hourly: { ms: 168 * HOUR_MS, text: "168 hours" },
  daily: { ms: 60 * 24 * HOUR_MS, text: "60 days" },
  monthly: { ms: 366 * 24 * HOUR_MS, text: "1 year" },
};

/** The metrics each route serves. */
const SUPPORTED = {
  "GET /consumption_history/v2/projects": PROJECT_METRICS,
  "GET /consumption_history/v2/branches": BRANCH_METRICS,
} as const;

/** The earliest `from` the service has history for. */
const HISTORY_START_MS = Date.UTC(2024, 2, 1);

/** The range is invalid for the granularity: the document's 406. */
const notAcceptable = (message: string): HttpError => new HttpError(406, message);

/** Values given repeated or comma-separated, as the document allows for list parameters. */
function listOf(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(",")).filter((v) => v !== "");
}

/** The query parameters both routes share. */
type Query = Pick<
  ContractRequests["GET /consumption_history/v2/projects"]["Querystring"],
  "org_id" | "from" | "to" | "granularity" | "metrics"
>;

/** The time range and granularity checked; 406 when the range does not fit the granularity. */
function rangeOf(query: Query): {
  fromMs: number;
  toMs: number;
} {
  const fromMs = Date.parse(query.from);
  const toMs = Date.parse(query.to);
  if (fromMs < HISTORY_START_MS) {
    throw notAcceptable(
      "from must not be earlier than 2024-03-01T00:00:00Z, when consumption history starts",
    );
  }
  if (toMs < fromMs) throw notAcceptable(`from (${query.from}) must not be later than to (${query.to})`);
  const limit = RANGE_LIMIT[query.granularity];
  if (toMs - fromMs > limit.ms) {
    throw notAcceptable(
      `${query.granularity} consumption metrics are limited to ${limit.text}: narrow from and to, or choose a coarser granularity`,
    );
  }
  return { fromMs, toMs };
}

/** The metrics asked for, each one the route serves; 400 naming the first it does not. */
function metricsOf(values: readonly string[], supported: readonly string[], path: string): string[] {
  const metrics = listOf(values);
  if (metrics.length === 0) throw badRequest(`metrics is required: one or more of ${supported.join(", ")}`);
  const unknown = metrics.find((m) => !supported.includes(m));
  if (unknown !== undefined) {
    throw badRequest(`metric ${unknown} is not supported by ${path}; supported: ${supported.join(", ")}`);
  }
  return [...new Set(metrics)];
}

/** The organization's live projects the caller reaches; 404 when the caller is not one of its members. */
function orgProjects(store: Store, principal: Principal, orgId: string): ProjectRecord[] {
  const { key } = principal;
  const member =
    key.kind === "personal" ? store.membershipOf(orgId, key.user_id) !== undefined : key.org_id === orgId;
  if (!store.orgs.has(orgId) || !member) throw notFound(`you are not a member of organization ${orgId}`);
  return [...store.projects.values()].filter(
    (p) =>
      p.org_id === orgId &&
      p.deleted_at_ms === undefined &&
      (key.kind !== "project" || p.id === key.project_id),
  );
}

/** The items after `cursor` (an id of an earlier page), `limit` of them; the cursor of the page is its last id. */
function pageAfter<T extends { id: string }>(sorted: T[], cursor: string | undefined, limit: number) {
  let rest = sorted;
  if (cursor !== undefined && cursor !== "") {
    const at = sorted.findIndex((item) => item.id === cursor);
    if (at < 0) throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: not an id from a previous page`);
    rest = sorted.slice(at + 1);
  }
  const page = rest.slice(0, limit);
  const last = page.at(-1)?.id ?? (cursor || undefined);
  return { page, ...(last === undefined ? {} : { pagination: { cursor: last } }) };
}

/** The project's branches, deleted ones included: they consumed while they lived. */
function branchesOf(store: Store, projectId: string): BranchRecord[] {
  return [...store.branches.values()].filter((b) => b.project_id === projectId);
}

/** Registers the consumption history routes. */
export function consumptionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  /** What both routes check first (caller, metrics, range, in the document's order of statuses) and the timeframes asked for. */
  function question(
    request: FastifyRequest & { query: Query },
    path: keyof typeof SUPPORTED,
  ): { projects: ProjectRecord[]; metrics: string[]; frames: Span[]; nowMs: number } {
    const q = request.query;
    const projects = orgProjects(store, principalOf(request), q.org_id);
    const metrics = metricsOf(q.metrics, SUPPORTED[path], path);
    const { fromMs, toMs } = rangeOf(q);
    const nowMs = ctx.clock.now();
    return { projects, metrics, frames: timeframes(fromMs, toMs, q.granularity, nowMs), nowMs };
  }

  route(app, "GET /consumption_history/v2/projects", async (request) => {
    const q = request.query;
    const { projects, metrics, frames, nowMs } = question(request, "GET /consumption_history/v2/projects");
    const wanted = listOf(q.project_ids);
    const sorted = projects
      .filter((p) => wanted.length === 0 || wanted.includes(p.id))
      .sort((a, b) => b.created_at_ms - a.created_at_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const { page, pagination } = pageAfter(sorted, q.cursor, q.limit);
    return {
      projects: page.map((project) => ({
        project_id: project.id,
        periods: renderPeriods(
          store,
          { project, branches: branchesOf(store, project.id), withSnapshots: true },
          frames,
          metrics,
          nowMs,
        ),
      })),
      ...(pagination ? { pagination } : {}),
    };
  });

  route(app, "GET /consumption_history/v2/branches", async (request) => {
    const q = request.query;
    const { projects, metrics, frames, nowMs } = question(request, "GET /consumption_history/v2/branches");
    const projectIds = listOf(q.project_ids);
    if (projectIds.length === 0) throw badRequest("project_ids is required: 1 to 100 project ids");
    const branchIds = listOf(q.branch_ids);
    const byId = new Map(projects.map((p) => [p.id, p]));
    const rows = projectIds
      .flatMap((id) => {
        const project = byId.get(id);
        return project === undefined
          ? []
          : branchesOf(store, id).map((branch) => ({ project, branch, id: branch.id }));
      })
      .filter((row) => branchIds.length === 0 || branchIds.includes(row.branch.id))
      .sort((a, b) =>
        a.project.id !== b.project.id
          ? a.project.id < b.project.id
            ? -1
            : 1
          : a.id < b.id
            ? -1
            : a.id > b.id
              ? 1
              : 0,
      );
    const { page, pagination } = pageAfter(rows, q.cursor, q.limit);
    return {
      branches: page.map(({ project, branch }) => ({
        project_id: project.id,
        branch_id: branch.id,
        periods: renderPeriods(
          store,
          { project, branches: [branch], withSnapshots: false },
          frames,
          metrics,
          nowMs,
        ),
      })),
      ...(pagination ? { pagination } : {}),
    };
  });
}
