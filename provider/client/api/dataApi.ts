/**
 * The Data API on a branch's database (`/projects/{project_id}/branches/{branch_id}/data-api/{database_name}`)
 * and a project's JWKS URLs (`/projects/{project_id}/jwks`), docs/api-rules.md §24. The Data API's
 * routes start no operation; adding a JWKS URL may, and its create waits for them.
 */

import { z } from "zod";
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation } from "../mutation";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type DataApi,
  DataApiCreatedSchema,
  DataApiSchema,
  type Jwks,
  JwksCreationSchema,
  JwksSchema,
  ProjectJwksSchema,
} from "../schemas";

type DataApiRoute = "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}";

const database = (projectId: string, branchId: string, databaseName: string) => ({
  project_id: projectId,
  branch_id: branchId,
  database_name: databaseName,
});

/** The empty object a change or a delete of the Data API answers with. */
const EmptySchema = z.unknown();

/** `POST .../data-api/{database_name}` (201): enables the Data API on the database; its url. */
export async function createDataApi(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
  body: Requests[`POST ${DataApiRoute}`]["Body"],
): Promise<string> {
  const created = await send(
    ctx.request,
    "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    {
      params: database(projectId, branchId, databaseName),
      body,
      schema: DataApiCreatedSchema,
    },
  );
  return created.url;
}

/** `GET .../data-api/{database_name}`: the Data API, its status and settings; 404 when it is not enabled. */
export function getDataApi(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
): Promise<DataApi> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", {
    params: database(projectId, branchId, databaseName),
    schema: DataApiSchema,
  });
}

/**
 * `PATCH .../data-api/{database_name}`: replaces the settings as a whole (one left out reads as its
 * default again) and refreshes the schema cache; without settings it only refreshes the cache.
 */
export async function updateDataApi(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
  body: Requests[`PATCH ${DataApiRoute}`]["Body"],
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    {
      params: database(projectId, branchId, databaseName),
      body,
      schema: EmptySchema,
    },
  );
}

/** `DELETE .../data-api/{database_name}`: turns the Data API off for the database. */
export async function deleteDataApi(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    {
      params: database(projectId, branchId, databaseName),
      schema: EmptySchema,
    },
  );
}

/** `GET /projects/{project_id}/jwks`: every JWKS URL the project trusts. */
export async function listJwks(ctx: ClientContext, projectId: string): Promise<Jwks[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/jwks", {
    params: { project_id: projectId },
    schema: ProjectJwksSchema,
  });
  return body.jwks;
}

/** `POST /projects/{project_id}/jwks` (201): adds a JWKS URL; waits for the operations it starts. */
export async function addJwks(
  ctx: ClientContext,
  projectId: string,
  body: Requests["POST /projects/{project_id}/jwks"]["Body"],
  options: MutationOptions = {},
): Promise<Jwks> {
  const added = await sendMutation(
    ctx,
    "POST /projects/{project_id}/jwks",
    { params: { project_id: projectId }, body, schema: JwksCreationSchema },
    options,
  );
  return added.jwks;
}

/** `DELETE /projects/{project_id}/jwks/{jwks_id}`: removes a JWKS URL; the one removed. */
export function deleteJwks(ctx: ClientContext, projectId: string, jwksId: string): Promise<Jwks> {
  return send(ctx.request, "DELETE /projects/{project_id}/jwks/{jwks_id}", {
    params: { project_id: projectId, jwks_id: jwksId },
    schema: JwksSchema,
  });
}
