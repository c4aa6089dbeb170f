import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { projectCompute } from "../defaults";
import { HttpError } from "../errors";
import {
  checkOneReadWrite,
  checkPgSettings,
  createEndpoint,
  cycleEndpoint,
  deleteEndpoint,
  ENDPOINT_OPTIONS,
  type EndpointSpec,
  updateEndpoint,
} from "../families/endpoints";
import { checkIdle } from "../families/operations";
import type { EndpointRecord, OperationRecord } from "../records";
import { renderEndpoint } from "../render/endpoints";
import { checkProvisioner, computeSettings } from "../rules";
import { endpointOf, projectOf } from "./lookup";
import { route } from "./route";

// Compute endpoints: create (one read_write per branch), list, get, update, delete, start,
// suspend, restart. Every change but a read starts operations, so each is refused with 423 while
// the project has unfinished ones.

/** Registers the endpoint routes. */
export function endpointRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const now = () => ctx.clock.now();
  const answer = (endpoint: EndpointRecord, operations: OperationRecord[]) => ({
    endpoint: renderEndpoint(endpoint, store, now()),
    operations: operations.map((op) => ctx.engine.view(op)),
  });

  route(app, "POST /projects/{project_id}/endpoints", async (request, reply) => {
    const project = projectOf(ctx, request);
    const spec = request.body.endpoint;
    const branch = store.liveBranch(project.id, spec.branch_id);
    if (!branch) {
      throw new HttpError(422, `branch ${spec.branch_id} not found in project ${project.id}`);
    }
    if (spec.region_id !== undefined && spec.region_id !== project.region_id) {
      throw new HttpError(400, `endpoint.region_id must be the project's region ${project.region_id}`);
    }
    checkProvisioner(spec.provisioner, "endpoint.");
    checkPgSettings(spec.settings, "endpoint.");
    const wanted: EndpointSpec = {
      type: spec.type,
      compute: computeSettings(projectCompute(project), spec, "endpoint."),
      ...pick(spec, ENDPOINT_OPTIONS),
    } as EndpointSpec;
    checkOneReadWrite(ctx, branch, [wanted]);
    checkIdle(ctx, project);
    const created = createEndpoint(ctx, project, branch, wanted);
    return reply.code(201).send(answer(created.endpoint, created.operations));
  });

  route(app, "GET /projects/{project_id}/endpoints", async (request) => {
    const project = projectOf(ctx, request);
    return { endpoints: store.projectEndpoints(project.id).map((e) => renderEndpoint(e, store, now())) };
  });

  route(app, "GET /projects/{project_id}/endpoints/{endpoint_id}", async (request) => {
    const { endpoint } = endpointOf(ctx, request);
    return { endpoint: renderEndpoint(endpoint, store, now()) };
  });

  route(app, "PATCH /projects/{project_id}/endpoints/{endpoint_id}", async (request) => {
    const { project, endpoint } = endpointOf(ctx, request);
    const spec = request.body.endpoint;
    checkProvisioner(spec.provisioner, "endpoint.");
    checkPgSettings(spec.settings, "endpoint.");
    if (spec.branch_id !== undefined && spec.branch_id !== endpoint.branch_id) {
      const target = store.liveBranch(project.id, spec.branch_id);
      if (!target) {
        throw new HttpError(422, `branch ${spec.branch_id} not found in project ${project.id}`);
      }
      if (endpoint.type === "read_write") checkOneReadWrite(ctx, target, [{ type: "read_write" }]);
    }
    const compute = computeSettings(endpoint.compute ?? projectCompute(project), spec, "endpoint.");
    // A new name alone is no configuration: no operation, so no 423 either.
    const given = Object.keys(spec).filter((k) => spec[k as keyof typeof spec] !== undefined);
    const renameOnly = given.length === 1 && given[0] === "name";
    if (!renameOnly) checkIdle(ctx, project);
    const changes: Partial<EndpointRecord> = {
      ...pick(spec, ENDPOINT_OPTIONS),
      compute,
    } as Partial<EndpointRecord>;
    if (spec.branch_id !== undefined) changes.branch_id = spec.branch_id;
    return answer(endpoint, updateEndpoint(ctx, project, endpoint, changes, renameOnly));
  });

  route(app, "DELETE /projects/{project_id}/endpoints/{endpoint_id}", async (request, reply) => {
    const project = projectOf(ctx, request);
    const endpoint = store.endpoints.get(request.params.endpoint_id);
    // The document: 204 when the endpoint does not exist or has already been deleted.
    if (!endpoint || endpoint.project_id !== project.id) return reply.code(204).send();
    checkIdle(ctx, project);
    return answer(endpoint, deleteEndpoint(ctx, project, endpoint));
  });

  for (const what of ["start", "suspend", "restart"] as const) {
    route(app, `POST /projects/{project_id}/endpoints/{endpoint_id}/${what}`, async (request) => {
      const { project, endpoint } = endpointOf(ctx, request);
      checkIdle(ctx, project);
      return answer(endpoint, cycleEndpoint(ctx, project, endpoint, what));
    });
  }
}

/** The given fields of `value` that are set. */
function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]])) as Partial<
    Pick<T, K>
  >;
}
