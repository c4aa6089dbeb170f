import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import {
  addJwks,
  dataApiOf,
  disableDataApi,
  enableDataApi,
  removeJwks,
  updateDataApi,
} from "../families/data-api";
import { renderDataApi, renderDataApiCreated, renderJwks } from "../render/data-api";
import { branchOf, databaseOf, projectOf } from "./lookup";
import { route } from "./route";

// The Data API on a branch's database (enable, read, change settings, disable) and the project's
// JWKS URLs (list, add, remove), docs/api-rules.md §24. Neither starts an operation: the service
// applies them without restarting the branch's compute.

/** Registers the Data API and JWKS routes. */
export function dataApiRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}";

  route(app, `POST ${base}`, async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const database = databaseOf(branch, request.params.database_name);
    const api = enableDataApi(ctx, branch, database, request.body ?? {});
    return reply.code(201).send(renderDataApiCreated(api));
  });

  route(app, `GET ${base}`, async (request) => {
    const { branch } = branchOf(ctx, request);
    return renderDataApi(dataApiOf(branch, databaseOf(branch, request.params.database_name)));
  });

  route(app, `PATCH ${base}`, async (request, reply) => {
    const { branch } = branchOf(ctx, request);
    const api = dataApiOf(branch, databaseOf(branch, request.params.database_name));
    updateDataApi(ctx, api, request.body?.settings);
    // The document answers a change with 201 and an empty object.
    return reply.code(201).send({});
  });

  route(app, `DELETE ${base}`, async (request) => {
    const { branch } = branchOf(ctx, request);
    disableDataApi(ctx, branch, dataApiOf(branch, databaseOf(branch, request.params.database_name)));
    return {};
  });

  route(app, "GET /projects/{project_id}/jwks", async (request) => {
    const project = projectOf(ctx, request);
    return { jwks: (project.jwks ?? []).map((j) => renderJwks(project, j)) };
  });

  route(app, "POST /projects/{project_id}/jwks", async (request, reply) => {
    const project = projectOf(ctx, request);
    const jwks = addJwks(ctx, project, request.body);
    return reply.code(201).send({ jwks: renderJwks(project, jwks), operations: [] });
  });

  route(app, "DELETE /projects/{project_id}/jwks/{jwks_id}", async (request) => {
    const project = projectOf(ctx, request);
    return renderJwks(project, removeJwks(ctx, project, request.params.jwks_id));
  });
}
