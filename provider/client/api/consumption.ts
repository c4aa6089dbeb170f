/** Consumption history: an organization's usage per project and per branch over a time range. */
import type { ClientContext } from "../context";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type BranchConsumptionPage,
  BranchConsumptionPageSchema,
  type ProjectConsumptionPage,
  ProjectConsumptionPageSchema,
} from "../schemas";

/** What both consumption routes are asked: whose, over which range, at which granularity, which metrics. */
export interface ConsumptionQuery {
  /** The organization whose projects are measured. */
  orgId: string;
  /** Start of the range (RFC 3339), rounded down to the granularity. */
  from: string;
  /** End of the range (RFC 3339), rounded down to the granularity. */
  to: string;
  granularity: Requests["GET /consumption_history/v2/projects"]["Querystring"]["granularity"];
  metrics: readonly string[];
  /** At most 100. */
  projectIds?: readonly string[] | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** The query both routes share (each list is sent as one comma-separated value). */
function sharedQuery(query: ConsumptionQuery) {
  return {
    org_id: query.orgId,
    from: query.from,
    to: query.to,
    granularity: query.granularity,
    metrics: [...query.metrics],
    project_ids: query.projectIds === undefined ? undefined : [...query.projectIds],
    cursor: query.cursor,
    limit: query.limit,
  };
}

/**
 * `GET /consumption_history/v2/projects`: one page of the organization's projects (newest first, or
 * those of `projectIds`), each with its metrics per timeframe, by billing period. The API answers
 * 406 when the range does not fit the granularity, 404 for an organization the key is not in.
 */
export async function getProjectConsumption(
  ctx: ClientContext,
  query: ConsumptionQuery,
): Promise<ProjectConsumptionPage> {
  return send(ctx.request, "GET /consumption_history/v2/projects", {
    query: sharedQuery(query),
    schema: ProjectConsumptionPageSchema,
  });
}

/**
 * `GET /consumption_history/v2/branches`: one page of the branches of `projectIds` (all of them, or
 * those of `branchIds`), by project id then branch id, each with its metrics per timeframe. The
 * route serves the metrics that are per branch only (not `extra_branches_month` or
 * `snapshot_storage_bytes_month`).
 */
export async function getBranchConsumption(
  ctx: ClientContext,
  query: ConsumptionQuery & { projectIds: readonly string[]; branchIds?: readonly string[] | undefined },
): Promise<BranchConsumptionPage> {
  return send(ctx.request, "GET /consumption_history/v2/branches", {
    query: {
      ...sharedQuery(query),
      project_ids: [...query.projectIds],
      branch_ids: query.branchIds === undefined ? undefined : [...query.branchIds],
    },
    schema: BranchConsumptionPageSchema,
  });
}
