import type { DatabaseCreateRequest, DatabaseUpdateRequest } from "@neondatabase/api-client";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { HttpError } from "../errors";
import { createDatabase, deleteDatabase, updateDatabase } from "../families/databases";
import { checkIdle } from "../families/operations";
import { renderDatabases } from "../render";
import { checkDatabaseName } from "../rules";
import type { BranchRecord, DatabaseRecord } from "../state";
import { branchOf, databaseOf } from "./lookup";
import { bodyOf, paramsOf } from "./request";

// Databases of a branch: list, create (its owner role must exist), get, update (name, owner),
// delete. Changes apply to the branch's compute through operations.

function checkOwner(branch: BranchRecord, owner: string): void {
  if (!branch.roles.some((r) => r.name === owner)) {
    throw new HttpError(422, `owner role ${JSON.stringify(owner)} does not exist on branch ${branch.id}`);
  }
}

function checkFree(branch: BranchRecord, name: string): void {
  if (branch.databases.some((d) => d.name === name)) {
    throw new HttpError(409, `database ${JSON.stringify(name)} already exists on branch ${branch.id}`);
  }
}

/** Registers the database routes. */
export function databaseRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = "/projects/:project_id/branches/:branch_id/databases";
  const one = (branch: BranchRecord, d: DatabaseRecord) =>
    renderDatabases({ ...branch, databases: [d] })[0] as Record<string, unknown>;

  app.get(base, async (request) => ({ databases: renderDatabases(branchOf(ctx, request).branch) }));

  app.post(base, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const spec = bodyOf<DatabaseCreateRequest>(request).database;
    checkDatabaseName(spec.name, "database.name");
    checkFree(branch, spec.name);
    checkOwner(branch, spec.owner_name);
    checkIdle(ctx, project);
    const { database, operations } = createDatabase(ctx, project, branch, spec.name, spec.owner_name);
    return reply
      .code(201)
      .send({ database: one(branch, database), operations: operations.map((op) => ctx.engine.view(op)) });
  });

  app.get(`${base}/:database_name`, async (request) => {
    const { branch } = branchOf(ctx, request);
    return { database: one(branch, databaseOf(branch, paramsOf(request)["database_name"] as string)) };
  });

  app.patch(`${base}/:database_name`, async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const database = databaseOf(branch, paramsOf(request)["database_name"] as string);
    const spec = bodyOf<DatabaseUpdateRequest>(request).database;
    if (spec.name !== undefined && spec.name !== database.name) {
      checkDatabaseName(spec.name, "database.name");
      checkFree(branch, spec.name);
    }
    if (spec.owner_name !== undefined) checkOwner(branch, spec.owner_name);
    checkIdle(ctx, project);
    const operations = updateDatabase(ctx, project, branch, database, {
      name: spec.name,
      ownerName: spec.owner_name,
    });
    return { database: one(branch, database), operations: operations.map((op) => ctx.engine.view(op)) };
  });

  app.delete(`${base}/:database_name`, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const database = branch.databases.find((d) => d.name === paramsOf(request)["database_name"]);
    // The document: 204 when the database does not exist or has already been deleted.
    if (!database) return reply.code(204).send();
    checkIdle(ctx, project);
    const operations = deleteDatabase(ctx, project, branch, database);
    return { database: one(branch, database), operations: operations.map((op) => ctx.engine.view(op)) };
  });
}
