import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { ConsumptionPeriod } from "../client";
import { InvalidArgumentError } from "../client/errors";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { CONSUMPTION_ROW, GET_CONSUMPTION } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getConsumption}. */
export interface GetConsumptionArgs extends FunctionArgsOf<typeof GET_CONSUMPTION> {}

/** Arguments of {@link getConsumptionOutput}: those of {@link getConsumption}, each an Input. */
export type GetConsumptionOutputArgs = {
  [K in keyof GetConsumptionArgs]: pulumi.Input<GetConsumptionArgs[K]>;
};

/** One metric of one timeframe. */
export interface ConsumptionRow extends ResultObjectOf<typeof CONSUMPTION_ROW.properties> {}

/** Result of {@link getConsumption}. */
export interface GetConsumptionResult extends FunctionResultOf<typeof GET_CONSUMPTION> {}

/** The metrics the service reports per project (docs/api-rules.md §18). */
const PROJECT_METRICS = [
  "compute_unit_seconds",
  "root_branch_bytes_month",
  "child_branch_bytes_month",
  "instant_restore_bytes_month",
  "public_network_transfer_bytes",
  "private_network_transfer_bytes",
  "extra_branches_month",
  "snapshot_storage_bytes_month",
];

/** Those it reports per branch too: all but the two that only a project has. */
const BRANCH_METRICS = PROJECT_METRICS.filter(
  (m) => m !== "extra_branches_month" && m !== "snapshot_storage_bytes_month",
);

const GRANULARITIES = ["hourly", "daily", "monthly"];

/** An RFC 3339 date-time, as the service takes `from` and `to`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** The arguments checked before any request; throws `InvalidArgumentError` naming the first wrong one. */
function checkArgs(args: GetConsumptionArgs): void {
  const fail = (message: string): never => {
    throw new InvalidArgumentError(`getConsumption: ${message}`);
  };
  if (!GRANULARITIES.includes(args.granularity)) {
    fail(`granularity must be hourly, daily or monthly, got ${JSON.stringify(args.granularity)}`);
  }
  for (const name of ["from", "to"] as const) {
    const value = args[name];
    if (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
      fail(
        `${name} must be an RFC 3339 date-time such as 2026-01-01T00:00:00Z, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (Date.parse(args.from) > Date.parse(args.to)) fail(`from (${args.from}) is later than to (${args.to})`);
  if (args.metrics !== undefined && (args.metrics.length === 0 || args.metrics.some((m) => m === ""))) {
    fail(
      "metrics, when given, must name at least one metric and no empty one (leave it out for all of them)",
    );
  }
}

/** One row per metric of each timeframe of each period, oldest first. */
function rowsOf(periods: readonly ConsumptionPeriod[]): ConsumptionRow[] {
  return periods.flatMap((period) =>
    period.consumption.flatMap((frame) =>
      (frame.metrics ?? []).map((m) => ({
        timeframeStart: frame.timeframe_start ?? "",
        timeframeEnd: frame.timeframe_end ?? "",
        metric: m.metric_name,
        value: m.value,
        periodStart: period.period_start,
        periodPlan: period.period_plan,
      })),
    ),
  );
}

/**
 * Reads the consumption metrics of a project, or of one of its branches, over `from`..`to` at a
 * granularity: one row per metric and timeframe. Throws `InvalidArgumentError` for arguments the
 * service would refuse on sight (and for a project outside any organization: the history is kept
 * per organization), and the client's typed errors: 406 when the range is longer than the
 * granularity serves, 403 when the account's plan has no consumption history.
 */
export async function getConsumption(
  args: GetConsumptionArgs,
  opts: DataSourceOptions = {},
): Promise<GetConsumptionResult> {
  checkArgs(args);
  const client = dataSourceClient(opts);
  const project = await client.getProject(args.projectId);
  if (project.org_id === undefined) {
    throw new InvalidArgumentError(
      `getConsumption: project ${args.projectId} belongs to no organization, and consumption history is kept per organization: ` +
        "move the project into one to read it",
    );
  }
  const query = {
    orgId: project.org_id,
    from: args.from,
    to: args.to,
    granularity: args.granularity,
    projectIds: [args.projectId],
  };
  if (args.branchId === undefined) {
    const page = await client.getProjectConsumption({ ...query, metrics: args.metrics ?? PROJECT_METRICS });
    return { rows: rowsOf(page.projects.find((p) => p.project_id === args.projectId)?.periods ?? []) };
  }
  const page = await client.getBranchConsumption({
    ...query,
    metrics: args.metrics ?? BRANCH_METRICS,
    branchIds: [args.branchId],
  });
  return { rows: rowsOf(page.branches.find((b) => b.branch_id === args.branchId)?.periods ?? []) };
}

/** {@link getConsumption} taking Inputs and returning an Output. */
export function getConsumptionOutput(
  args: GetConsumptionOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetConsumptionResult> {
  return output(args).apply((a) => getConsumption(a as GetConsumptionArgs, opts));
}
