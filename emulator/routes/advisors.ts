import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { databaseOf, projectOf } from "./lookup";
import { route } from "./route";

// A project's advisor findings on one database of a branch (docs/api-rules.md §19): with the data
// plane the checks run on the database's catalog; without it no database holds any object, so
// there is nothing to find.

const SEVERITY = { INFO: 0, WARN: 1, ERROR: 2 } as const;

/** Registers the advisor route. */
export function advisorRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, "GET /projects/{project_id}/advisors", async (request) => {
    const project = projectOf(ctx, request);
    const q = request.query;
    const branchId = q.branch_id ?? project.default_branch_id;
    const branch = ctx.store.liveBranch(project.id, branchId);
    if (!branch) throw notFound(`branch ${branchId} not found in project ${project.id}`);
    let database = q.database_name === undefined ? undefined : databaseOf(branch, q.database_name);
    if (database === undefined) {
      if (branch.databases.length > 1) {
        throw badRequest(
          `branch ${branch.id} has ${branch.databases.length} databases: give database_name, one of ${branch.databases.map((d) => d.name).join(", ")}`,
        );
      }
      database = branch.databases[0];
    }
    if (database === undefined || ctx.data === undefined) return { issues: [] };
    const least = SEVERITY[q.min_severity ?? "INFO"];
    const issues = (await ctx.data.advisorIssuesOf(branch, database.id)).filter(
      (issue) =>
        SEVERITY[issue.level as keyof typeof SEVERITY] >= least &&
        (q.category === undefined || issue.categories.includes(q.category)),
    );
    return { issues };
  });
}
