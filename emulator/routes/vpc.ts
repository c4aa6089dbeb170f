import type { FastifyInstance, FastifyRequest } from "fastify";
import { accessProject, checkOrgAdmin, checkReadOrg, type Principal } from "../auth";
import type { EmulatorContext } from "../context";
import { forbidden } from "../errors";
import {
  assignVpcEndpoint,
  checkVpcRegion,
  orgVpcEndpoint,
  orgVpcEndpoints,
  removeVpcEndpoint,
  restrictProject,
  unrestrictProject,
} from "../families/vpc";
import type { OrgRecord, ProjectRecord } from "../records";
import { renderVpcEndpoint, renderVpcEndpointDetails, renderVpcEndpointWithRegion } from "../render/vpc";
import { principalOf } from "./principal";
import { route } from "./route";

// VPC endpoints of an organization (`/organizations/{org_id}/vpc/...`: read by any member or the
// organization's key, changed by its administrators or its key) and the restrictions of its
// projects (`/projects/{project_id}/vpc_endpoints`: read by any key that reaches the project,
// changed by the organization's administrators or its key). Successful changes answer 200 with no body.

const ASSIGN = "assign or remove VPC endpoints";
const RESTRICT = "restrict projects to VPC endpoints";

/** The project's organization, with the caller checked as its administrator; 403 for a personal project. */
function adminOfProject(ctx: EmulatorContext, principal: Principal, project: ProjectRecord): OrgRecord {
  if (project.org_id === undefined)
    throw forbidden(
      `project ${project.id} belongs to no organization: VPC endpoints are set on organization projects`,
    );
  return checkOrgAdmin(ctx.store, principal, project.org_id, RESTRICT);
}

/** The path's organization, with the caller checked as its administrator, and the endpoint it names. */
function administered(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { org_id: string; region_id: string; vpc_endpoint_id: string } }>,
): { org: OrgRecord; regionId: string; id: string } {
  const { org_id: orgId, region_id: regionId, vpc_endpoint_id: id } = request.params;
  return { org: checkOrgAdmin(ctx.store, principalOf(request), orgId, ASSIGN), regionId, id };
}

/** Registers the VPC endpoint routes. */
export function vpcRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "GET /organizations/{org_id}/vpc/vpc_endpoints", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    return { endpoints: orgVpcEndpoints(org).map(renderVpcEndpointWithRegion) };
  });

  route(app, "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    checkVpcRegion(request.params.region_id);
    return { endpoints: orgVpcEndpoints(org, request.params.region_id).map(renderVpcEndpoint) };
  });

  route(
    app,
    "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    async (request) => {
      const { org_id: orgId, region_id: regionId, vpc_endpoint_id: id } = request.params;
      const org = checkReadOrg(store, principalOf(request), orgId);
      checkVpcRegion(regionId);
      return renderVpcEndpointDetails(orgVpcEndpoint(org, regionId, id), org, store, ctx.clock.now());
    },
  );

  route(
    app,
    "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    async (request, reply) => {
      const { org, regionId, id } = administered(ctx, request);
      assignVpcEndpoint(ctx, org, regionId, id, request.body.label);
      return reply.code(200).send();
    },
  );

  route(
    app,
    "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    async (request, reply) => {
      const { org, regionId, id } = administered(ctx, request);
      checkVpcRegion(regionId);
      removeVpcEndpoint(ctx, org, orgVpcEndpoint(org, regionId, id));
      return reply.code(200).send();
    },
  );

  route(app, "GET /projects/{project_id}/vpc_endpoints", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id);
    return { endpoints: (project.vpc_restrictions ?? []).map(renderVpcEndpoint) };
  });

  route(app, "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", async (request, reply) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, request.params.project_id);
    const org = adminOfProject(ctx, principal, project);
    restrictProject(ctx, org, project, request.params.vpc_endpoint_id, request.body.label);
    return reply.code(200).send();
  });

  route(app, "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", async (request, reply) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, request.params.project_id);
    adminOfProject(ctx, principal, project);
    unrestrictProject(ctx, project, request.params.vpc_endpoint_id);
    return reply.code(200).send();
  });
}
