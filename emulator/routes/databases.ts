import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { HttpError } from "../errors";
import { createDatabase, deleteDatabase, updateDatabase } from "../families/databases";
import { checkIdle } from "../families/operations";
import type { BranchRecord } from "../records";
import { renderDatabase, renderDatabases } from "../render/databases";
import { checkDatabaseName } from "../rules";
import { branchOf, databaseOf } from "./lookup";
import { route } from "./route";

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
  const base = "/projects/{project_id}/branches/{branch_id}/databases";

  route(app, `GET ${base}`, async (request) => ({
    databases: renderDatabases(branchOf(ctx, request).branch),
  }));

  route(app, `POST ${base}`, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const spec = request.body.database;
    checkDatabaseName(spec.name, "database.name");
    checkFree(branch, spec.name);
    checkOwner(branch, spec.owner_name);
    checkIdle(ctx, project);
    const { database, operations } = createDatabase(ctx, project, branch, spec.name, spec.owner_name);
    return reply.code(201).send({
      database: renderDatabase(branch, database),
      operations: operations.map((op) => ctx.engine.view(op)),
    });
  });

  route(app, `GET ${base}/{database_name}`, async (request) => {
    const { branch } = branchOf(ctx, request);
    return { database: renderDatabase(branch, databaseOf(branch, request.params.database_name)) };
  });

  route(app, `PATCH ${base}/{database_name}`, async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const database = databaseOf(branch, request.params.database_name);
    const spec = request.body.database;
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
    return {
      database: renderDatabase(branch, database),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });

  route(app, `DELETE ${base}/{database_name}`, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const database = branch.databases.find((d) => d.name === request.params.database_name);
    // The document: 204 when the database does not exist or has already been deleted.
    if (!database) return reply.code(204).send();
    checkIdle(ctx, project);
    const operations = deleteDatabase(ctx, project, branch, database);
    return {
      database: renderDatabase(branch, database),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });
}
