/** Databases of a branch (`/projects/{project_id}/branches/{branch_id}/databases`), each owned by a role. */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type Database,
  type DatabaseOperations,
  DatabaseOperationsSchema,
  DatabaseResponseSchema,
  DatabasesResponseSchema,
} from "../schemas";

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const database = (projectId: string, branchId: string, databaseName: string) => ({
  ...branch(projectId, branchId),
  database_name: databaseName,
});

/** `POST .../databases` (201); waits for the operations it starts. */
export function createDatabase(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/databases"]["Body"],
  options: MutationOptions = {},
): Promise<DatabaseOperations> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/databases",
    { params: branch(projectId, branchId), body, schema: DatabaseOperationsSchema },
    options,
  );
}

/** `GET .../databases/{database_name}`. */
export async function getDatabase(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
): Promise<Database> {
  const body = await send(
    ctx.request,
    "GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    {
      params: database(projectId, branchId, databaseName),
      schema: DatabaseResponseSchema,
    },
  );
  return body.database;
}

/** `GET .../databases`: every database of the branch. */
export async function listDatabases(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Database[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/databases", {
    params: branch(projectId, branchId),
    schema: DatabasesResponseSchema,
  });
  return body.databases;
}

/** `PATCH .../databases/{database_name}`: rename or change the owner in place. */
export function updateDatabase(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
  body: Requests["PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}"]["Body"],
  options: MutationOptions = {},
): Promise<DatabaseOperations> {
  return sendMutation(
    ctx,
    "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    { params: database(projectId, branchId, databaseName), body, schema: DatabaseOperationsSchema },
    options,
  );
}

/** `DELETE .../databases/{database_name}`: 200 with operations, or 204 (already gone) -> `null`. */
export function deleteDatabase(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  databaseName: string,
  options: MutationOptions = {},
): Promise<DatabaseOperations | null> {
  return sendMutationOrEmpty(
    ctx,
    "DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    { params: database(projectId, branchId, databaseName), schema: DatabaseOperationsSchema },
    options,
  );
}
