/** Consumption history: metrics per timeframe, grouped by billing period, per project or per branch. */
import { z } from "zod";
import { DOCUMENTED, maybe, PaginationSchema } from "./common";

/** One metric's value in a timeframe. */
export const ConsumptionMetricSchema = z.looseObject({ metric_name: z.string(), value: z.number() });
DOCUMENTED.add(ConsumptionMetricSchema, { as: "ConsumptionMetricValue" });

/** The metrics of one timeframe (an hour, a day or a month); the document requires none of its fields. */
export const ConsumptionTimeframeSchema = z.looseObject({
  timeframe_start: maybe(z.string()),
  timeframe_end: maybe(z.string()),
  metrics: maybe(z.array(ConsumptionMetricSchema)),
});
DOCUMENTED.add(ConsumptionTimeframeSchema, { as: "ConsumptionHistoryPerTimeframeV2" });

/** A billing period and its timeframes, oldest first. */
export const ConsumptionPeriodSchema = z.looseObject({
  period_id: z.string(),
  period_plan: z.string(),
  period_start: z.string(),
  period_end: maybe(z.string()),
  consumption: z.array(ConsumptionTimeframeSchema),
});
DOCUMENTED.add(ConsumptionPeriodSchema, { as: "ConsumptionHistoryPerPeriodV2" });
/** A billing period of consumption history. */
export type ConsumptionPeriod = z.infer<typeof ConsumptionPeriodSchema>;

/** `GET /consumption_history/v2/projects`: a page of projects, each with its periods. */
export const ProjectConsumptionPageSchema = z.looseObject({
  projects: z.array(z.looseObject({ project_id: z.string(), periods: z.array(ConsumptionPeriodSchema) })),
  pagination: maybe(PaginationSchema),
});
DOCUMENTED.add(ProjectConsumptionPageSchema, { as: "GET /consumption_history/v2/projects 200" });
/** A page of per-project consumption history. */
export type ProjectConsumptionPage = z.infer<typeof ProjectConsumptionPageSchema>;

/** `GET /consumption_history/v2/branches`: a page of branches, each with its periods. */
export const BranchConsumptionPageSchema = z.looseObject({
  branches: z.array(
    z.looseObject({
      project_id: z.string(),
      branch_id: z.string(),
      periods: z.array(ConsumptionPeriodSchema),
    }),
  ),
  pagination: maybe(PaginationSchema),
});
DOCUMENTED.add(BranchConsumptionPageSchema, { as: "GET /consumption_history/v2/branches 200" });
/** A page of per-branch consumption history. */
export type BranchConsumptionPage = z.infer<typeof BranchConsumptionPageSchema>;
