/** A project's advisor findings and the shared preload libraries its Postgres version offers. */
import type { ClientContext } from "../context";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type AdvisorIssue,
  AdvisorIssuesResponseSchema,
  PreloadLibrariesResponseSchema,
  type PreloadLibrary,
} from "../schemas";

type AdvisorsQuery = Requests["GET /projects/{project_id}/advisors"]["Querystring"];

/**
 * `GET /projects/{project_id}/advisors`: the security and performance issues the advisor finds in
 * one database of a branch (the default branch unless `branchId`; `databaseName` is needed when the
 * branch has several), filtered by category and least severity.
 */
export async function listAdvisorIssues(
  ctx: ClientContext,
  projectId: string,
  query: {
    branchId?: string | undefined;
    databaseName?: string | undefined;
    category?: AdvisorsQuery["category"];
    minSeverity?: AdvisorsQuery["min_severity"];
  } = {},
): Promise<AdvisorIssue[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/advisors", {
    params: { project_id: projectId },
    query: {
      branch_id: query.branchId,
      database_name: query.databaseName,
      category: query.category,
      min_severity: query.minSeverity,
    },
    schema: AdvisorIssuesResponseSchema,
  });
  return body.issues;
}

/** `GET /projects/{project_id}/available_preload_libraries`: the shared preload libraries of the project's Postgres version. */
export async function listPreloadLibraries(ctx: ClientContext, projectId: string): Promise<PreloadLibrary[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/available_preload_libraries", {
    params: { project_id: projectId },
    schema: PreloadLibrariesResponseSchema,
  });
  return body.libraries;
}
