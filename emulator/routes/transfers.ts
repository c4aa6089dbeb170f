import type { FastifyInstance } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import {
  acceptTransferRequest,
  checkGiveAway,
  createTransferRequest,
  transferOrgProjects,
} from "../families/transfers";
import { renderTransferRequest } from "../render/projects";
import { principalOf } from "./principal";
import { route } from "./route";

// Moving projects between accounts: a transfer request and its acceptance, and the direct move of
// an organization's projects to another organization (docs/api-rules.md §21).

/** Registers the project transfer routes. */
export function transferRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "POST /projects/{project_id}/transfer_requests", async (request, reply) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, request.params.project_id);
    checkGiveAway(ctx, principal, project);
    const made = createTransferRequest(ctx, project, request.body?.ttl_seconds);
    return reply.code(201).send(renderTransferRequest(project.id, made));
  });

  route(app, "PUT /projects/{project_id}/transfer_requests/{request_id}", async (request, reply) => {
    const { project_id, request_id } = request.params;
    acceptTransferRequest(ctx, principalOf(request), project_id, request_id, request.body?.org_id);
    return reply.code(204).send();
  });

  route(app, "POST /organizations/{source_org_id}/projects/transfer", async (request) => {
    const { destination_org_id, project_ids } = request.body;
    transferOrgProjects(
      ctx,
      principalOf(request),
      request.params.source_org_id,
      destination_org_id,
      project_ids,
    );
    return {};
  });
}
