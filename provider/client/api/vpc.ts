/**
 * VPC endpoints: assigned to an organization in a region, and projects restricted to one of them
 * (docs/api-rules.md §10). The changes answer 200 with no body and start no operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { send, sendOrEmpty } from "../request";
import {
  type VpcEndpoint,
  type VpcEndpointDetails,
  VpcEndpointDetailsSchema,
  VpcEndpointsResponseSchema,
} from "../schemas";

const orgEndpoint = (orgId: string, regionId: string, vpcEndpointId: string) => ({
  org_id: orgId,
  region_id: regionId,
  vpc_endpoint_id: vpcEndpointId,
});
const projectEndpoint = (projectId: string, vpcEndpointId: string) => ({
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
  return send(
    ctx.request,
    "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    {
      params: orgEndpoint(orgId, regionId, vpcEndpointId),
      schema: VpcEndpointDetailsSchema,
    },
  );
}

/** `POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: assigns the endpoint, or sets its label. */
export async function assignOrgVpcEndpoint(
  ctx: ClientContext,
  orgId: string,
  regionId: string,
  vpcEndpointId: string,
  label: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    {
      params: orgEndpoint(orgId, regionId, vpcEndpointId),
      body: { label },
      schema: NO_BODY,
    },
  );
}

/** `DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: removes it for good. */
export async function removeOrgVpcEndpoint(
  ctx: ClientContext,
  orgId: string,
  regionId: string,
  vpcEndpointId: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    {
      params: orgEndpoint(orgId, regionId, vpcEndpointId),
      schema: NO_BODY,
    },
  );
}

/** `GET /projects/{project_id}/vpc_endpoints`: the endpoints the project is restricted to. */
export async function listProjectVpcEndpoints(ctx: ClientContext, projectId: string): Promise<VpcEndpoint[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/vpc_endpoints", {
    params: { project_id: projectId },
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
  await sendOrEmpty(ctx.request, "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", {
    params: projectEndpoint(projectId, vpcEndpointId),
    body: { label },
    schema: NO_BODY,
  });
}

/** `DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}`: lifts the restriction. */
export async function removeProjectVpcEndpoint(
  ctx: ClientContext,
  projectId: string,
  vpcEndpointId: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", {
    params: projectEndpoint(projectId, vpcEndpointId),
    schema: NO_BODY,
  });
}
