import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_PROJECTS, PROJECT_SUMMARY } from "./declared";
import { projectSummary } from "./lookup";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getProjects}. */
export interface GetProjectsArgs extends FunctionArgsOf<typeof GET_PROJECTS> {}

/** A project as listed, with the API's fields in camelCase. */
export interface ProjectSummary extends ResultObjectOf<typeof PROJECT_SUMMARY.properties> {}

/** Result of {@link getProjects}. */
export interface GetProjectsResult extends FunctionResultOf<typeof GET_PROJECTS> {}

/** Lists every project the key can see (all pages). Throws the client's typed errors. */
export async function getProjects(
  args: GetProjectsArgs = {},
  opts: DataSourceOptions = {},
): Promise<GetProjectsResult> {
  const client = dataSourceClient(opts);
  const pages = client.listProjects({
    limit: args.limit ?? 400,
    ...(args.search !== undefined ? { search: args.search } : {}),
    ...(args.orgId !== undefined ? { orgId: args.orgId } : {}),
  });
  const projects: ProjectSummary[] = [];
  for await (const p of pages) projects.push(projectSummary(p));
  return { projects, unavailableProjectIds: [...pages.unavailableProjectIds()] };
}

/** {@link getProjects} taking Inputs and returning an Output. */
export function getProjectsOutput(
  args: pulumi.Input<GetProjectsArgs> = {},
  opts: DataSourceOptions = {},
): pulumi.Output<GetProjectsResult> {
  return output(args).apply((a) => getProjects(a as GetProjectsArgs, opts));
}
