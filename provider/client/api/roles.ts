/**
 * Roles of a branch (`/projects/{project_id}/branches/{branch_id}/roles`). A role's password comes
 * only in the create and reset answers (and from `revealRolePassword`): never put it in a message.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type Role,
  type RoleOperations,
  RoleOperationsSchema,
  RolePasswordResponseSchema,
  RoleResponseSchema,
  RolesResponseSchema,
} from "../schemas";

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const role = (projectId: string, branchId: string, roleName: string) => ({
  ...branch(projectId, branchId),
  role_name: roleName,
});

/** `POST .../roles` (201): the role with its password; waits for the operations it starts. */
export function createRole(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/roles"]["Body"],
  options: MutationOptions = {},
): Promise<RoleOperations> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/roles",
    { params: branch(projectId, branchId), body, schema: RoleOperationsSchema },
    options,
  );
}

/** `GET .../roles/{role_name}` (no password). */
export async function getRole(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
): Promise<Role> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
    params: role(projectId, branchId, roleName),
    schema: RoleResponseSchema,
  });
  return body.role;
}

/** `GET .../roles`: every role of the branch (no passwords). */
export async function listRoles(ctx: ClientContext, projectId: string, branchId: string): Promise<Role[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/roles", {
    params: branch(projectId, branchId),
    schema: RolesResponseSchema,
  });
  return body.roles;
}

/** `DELETE .../roles/{role_name}`: 200 with operations, or 204 (already gone) -> `null`. */
export function deleteRole(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
  options: MutationOptions = {},
): Promise<RoleOperations | null> {
  return sendMutationOrEmpty(
    ctx,
    "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
    { params: role(projectId, branchId, roleName), schema: RoleOperationsSchema },
    options,
  );
}

/** `POST .../roles/{role_name}/reset_password`: the role with its new password; waits for the operations. */
export function resetRolePassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
  options: MutationOptions = {},
): Promise<RoleOperations> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
    { params: role(projectId, branchId, roleName), schema: RoleOperationsSchema },
    options,
  );
}

/** `GET .../roles/{role_name}/reveal_password`: the current password (the project must store passwords). */
export async function revealRolePassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
): Promise<string> {
  const body = await send(
    ctx.request,
    "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
    {
      params: role(projectId, branchId, roleName),
      schema: RolePasswordResponseSchema,
    },
  );
  return body.password;
}
