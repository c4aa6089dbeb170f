import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { ADVISOR_ISSUE, GET_ADVISORS } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getAdvisors}. */
export interface GetAdvisorsArgs extends FunctionArgsOf<typeof GET_ADVISORS> {}

/** Arguments of {@link getAdvisorsOutput}: those of {@link getAdvisors}, each an Input. */
export type GetAdvisorsOutputArgs = { [K in keyof GetAdvisorsArgs]: pulumi.Input<GetAdvisorsArgs[K]> };

/** An issue the advisor found. */
export interface AdvisorIssue extends ResultObjectOf<typeof ADVISOR_ISSUE.properties> {}

/** Result of {@link getAdvisors}. */
export interface GetAdvisorsResult extends FunctionResultOf<typeof GET_ADVISORS> {}

/**
 * Lists the security and performance issues the advisor finds in one database of a project's
 * branch (the default branch unless `branchId`). Throws the client's typed errors: 400 when the
 * branch has several databases and `databaseName` is left out, 404 for a branch or database that
 * does not exist.
 */
export async function getAdvisors(
  args: GetAdvisorsArgs,
  opts: DataSourceOptions = {},
): Promise<GetAdvisorsResult> {
  const issues = await dataSourceClient(opts).listAdvisorIssues(args.projectId, {
    branchId: args.branchId,
    databaseName: args.databaseName,
    category: args.category,
    minSeverity: args.minSeverity,
  });
  return {
    issues: issues.map((i) => ({
      name: i.name,
      title: i.title,
      level: i.level,
      facing: i.facing,
      categories: i.categories,
      description: i.description,
      detail: i.detail,
      remediation: i.remediation,
      metadata: Object.fromEntries(
        Object.entries(i.metadata).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
      ),
      cacheKey: i.cache_key,
    })),
  };
}

/** {@link getAdvisors} taking Inputs and returning an Output. */
export function getAdvisorsOutput(
  args: GetAdvisorsOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetAdvisorsResult> {
  return output(args).apply((a) => getAdvisors(a as GetAdvisorsArgs, opts));
}
