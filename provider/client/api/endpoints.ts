/**
 * Compute endpoints of a project (`/projects/{project_id}/endpoints`). Named so to keep them apart
 * from the API's routes; changes are queued per project and wait for the operations they start.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  BranchEndpointsResponseSchema,
  type Endpoint,
  type EndpointOperations,
  EndpointOperationsSchema,
  EndpointResponseSchema,
} from "../schemas";

const endpoint = (projectId: string, endpointId: string) => ({
  project_id: projectId,
  endpoint_id: endpointId,
});

/** `POST /projects/{project_id}/endpoints` (201); waits for the `start_compute` operation unless `wait: false`. */
export function createEndpoint(
  ctx: ClientContext,
  projectId: string,
  body: Requests["POST /projects/{project_id}/endpoints"]["Body"],
  options: MutationOptions = {},
): Promise<EndpointOperations> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/endpoints",
    { params: { project_id: projectId }, body, schema: EndpointOperationsSchema },
    options,
  );
}

/** `GET /projects/{project_id}/endpoints/{endpoint_id}`. */
export async function getEndpoint(
  ctx: ClientContext,
  projectId: string,
  endpointId: string,
): Promise<Endpoint> {
  const body = await send(ctx.request, "GET /projects/{project_id}/endpoints/{endpoint_id}", {
    params: endpoint(projectId, endpointId),
    schema: EndpointResponseSchema,
  });
  return body.endpoint;
}

/** `GET /projects/{project_id}/endpoints`: every compute of the project. */
export async function listEndpoints(ctx: ClientContext, projectId: string): Promise<Endpoint[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/endpoints", {
    params: { project_id: projectId },
    schema: BranchEndpointsResponseSchema,
  });
  return body.endpoints;
}

/** `PATCH /projects/{project_id}/endpoints/{endpoint_id}`: autoscaling, suspend timeout, pooler, ... in place. */
export function updateEndpoint(
  ctx: ClientContext,
  projectId: string,
  endpointId: string,
  body: Requests["PATCH /projects/{project_id}/endpoints/{endpoint_id}"]["Body"],
  options: MutationOptions = {},
): Promise<EndpointOperations> {
  return sendMutation(
    ctx,
    "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
    { params: endpoint(projectId, endpointId), body, schema: EndpointOperationsSchema },
    options,
  );
}

/** `DELETE /projects/{project_id}/endpoints/{endpoint_id}`: 200 with operations, or 204 (already gone) -> `null`. */
export function deleteEndpoint(
  ctx: ClientContext,
  projectId: string,
  endpointId: string,
  options: MutationOptions = {},
): Promise<EndpointOperations | null> {
  return sendMutationOrEmpty(
    ctx,
    "DELETE /projects/{project_id}/endpoints/{endpoint_id}",
    { params: endpoint(projectId, endpointId), schema: EndpointOperationsSchema },
    options,
  );
}
