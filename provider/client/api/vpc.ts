/**
 * VPC endpoints: assigned to an organization in a region, and projects restricted to one of them
 * (docs/api-rules.md §10). The changes answer 200 with no body and start no operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { apiRoute } from "../path";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type VpcEndpoint,
  type VpcEndpointDetails,
  VpcEndpointDetailsSchema,
  VpcEndpointsResponseSchema,
} from "../schemas";

const orgEndpoint = (orgId: string, regionId: string, vpcEndpointId: string) =>
  apiRoute("/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}", {
    org_id: orgId,
    region_id: regionId,
    vpc_endpoint_id: vpcEndpointId,
  });
const projectEndpoint = (projectId: string, vpcEndpointId: string) =>
  apiRoute("/projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", {
    project_id: projectId,
    vpc_endpoint_id: vpcEndpointId,
  });
/** The changes' answer: nothing the client reads. */
const NO_BODY = z.unknown();

/** `GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: its label and state; 404 when not assigned there. */
export function getOrgVpcEndpoint(
  ctx: ClientContext,
  orgId: string,
  regionId: string,
  vpcEndpointId: string,
): Promise<VpcEndpointDetails> {
  return send(ctx.request, {
    method: "GET",
    route: orgEndpoint(orgId, regionId, vpcEndpointId),
    schema: VpcEndpointDetailsSchema,
  });
}

/** `POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: assigns the endpoint, or sets its label. */
export async function assignOrgVpcEndpoint(
  ctx: ClientContext,
  orgId: string,
  regionId: string,
  vpcEndpointId: string,
  label: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "POST",
    route: orgEndpoint(orgId, regionId, vpcEndpointId),
    body: {
      label,
    } satisfies Requests["POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}"]["Body"],
    schema: NO_BODY,
  });
}

/** `DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: removes it for good. */
export async function removeOrgVpcEndpoint(
  ctx: ClientContext,
  orgId: string,
  regionId: string,
  vpcEndpointId: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: orgEndpoint(orgId, regionId, vpcEndpointId),
    schema: NO_BODY,
  });
}

/** `GET /projects/{project_id}/vpc_endpoints`: the endpoints the project is restricted to. */
export async function listProjectVpcEndpoints(ctx: ClientContext, projectId: string): Promise<VpcEndpoint[]> {
  const body = await send(ctx.request, {
    method: "GET",
    route: apiRoute("/projects/{project_id}/vpc_endpoints", { project_id: projectId }),
    schema: VpcEndpointsResponseSchema,
  });
  return body.endpoints;
}

/** `POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}`: restricts the project to the endpoint, or sets the label. */
export async function restrictProjectVpcEndpoint(
  ctx: ClientContext,
  projectId: string,
  vpcEndpointId: string,
  label: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "POST",
    route: projectEndpoint(projectId, vpcEndpointId),
    body: { label } satisfies Requests["POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}"]["Body"],
    schema: NO_BODY,
  });
}

/** `DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}`: lifts the restriction. */
export async function removeProjectVpcEndpoint(
  ctx: ClientContext,
  projectId: string,
  vpcEndpointId: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: projectEndpoint(projectId, vpcEndpointId),
    schema: NO_BODY,
  });
}
