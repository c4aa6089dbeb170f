import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { compareSchemas, type SchemaSide, schemaOf } from "../families/schemas";
import { branchOf, databaseOf } from "./lookup";
import { route } from "./route";

// Schemas of a branch's database: the SQL now or at a point of its history, and the diff from
// another branch's (its parent's by default), each side at its own point (docs/api-rules.md §12).

/** Registers the schema routes. */
export function schemaRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, "GET /projects/{project_id}/branches/{branch_id}/schema", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const { db_name, lsn, timestamp, format } = request.query;
    if (format !== undefined && format !== "sql") {
      throw badRequest(
        format === "json"
          ? "format json is not served by this emulator; leave format out (or give sql) for the schema as SQL"
          : `format must be sql or json, got ${JSON.stringify(format)}`,
      );
    }
    const database = databaseOf(branch, db_name);
    return { sql: await schemaOf(ctx, { project, branch, database, point: { lsn, timestamp }, prefix: "" }) };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/compare_schema", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const q = request.query;
    const baseId = q.base_branch_id ?? branch.parent_id;
    if (baseId === undefined) {
      throw badRequest(`branch ${branch.id} has no parent: give base_branch_id, the branch to compare with`);
    }
    const base = ctx.store.liveBranch(project.id, baseId);
    if (!base) throw notFound(`branch ${baseId} not found in project ${project.id}`);
    const target: SchemaSide = {
      project,
      branch,
      database: databaseOf(branch, q.db_name),
      point: { lsn: q.lsn, timestamp: q.timestamp },
      prefix: "",
    };
    const from: SchemaSide = {
      project,
      branch: base,
      database: databaseOf(base, q.db_name),
      point: { lsn: q.base_lsn, timestamp: q.base_timestamp },
      prefix: "base_",
    };
    return { diff: await compareSchemas(ctx, target, from) };
  });
}
