/**
 * Roles of a branch (`/projects/{project_id}/branches/{branch_id}/roles`). A role's password comes
 * only in the create and reset answers (and from `revealRolePassword`): never put it in a message.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty } from "../mutation";
import { apiRoute } from "../path";
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

const rolesRoute = (projectId: string, branchId: string) =>
  apiRoute("/projects/{project_id}/branches/{branch_id}/roles", {
    project_id: projectId,
    branch_id: branchId,
  });

const roleRoute = (projectId: string, branchId: string, roleName: string, action = "") =>
  apiRoute(`/projects/{project_id}/branches/{branch_id}/roles/{role_name}${action}`, {
    project_id: projectId,
    branch_id: branchId,
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
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: rolesRoute(projectId, branchId),
    body,
    schema: RoleOperationsSchema,
  });
}

/** `GET .../roles/{role_name}` (no password). */
export async function getRole(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
): Promise<Role> {
  const body = await send(ctx.request, {
    method: "GET",
    route: roleRoute(projectId, branchId, roleName),
    schema: RoleResponseSchema,
  });
  return body.role;
}

/** `GET .../roles`: every role of the branch (no passwords). */
export async function listRoles(ctx: ClientContext, projectId: string, branchId: string): Promise<Role[]> {
  const body = await send(ctx.request, {
    method: "GET",
    route: rolesRoute(projectId, branchId),
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
  return sendMutationOrEmpty(ctx, projectId, options, {
    method: "DELETE",
    route: roleRoute(projectId, branchId, roleName),
    schema: RoleOperationsSchema,
  });
}

/** `POST .../roles/{role_name}/reset_password`: the role with its new password; waits for the operations. */
export function resetRolePassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
  options: MutationOptions = {},
): Promise<RoleOperations> {
  return sendMutation(ctx, projectId, options, {
    method: "POST",
    route: roleRoute(projectId, branchId, roleName, "/reset_password"),
    schema: RoleOperationsSchema,
  });
}

/** `GET .../roles/{role_name}/reveal_password`: the current password (the project must store passwords). */
export async function revealRolePassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  roleName: string,
): Promise<string> {
  const body = await send(ctx.request, {
    method: "GET",
    route: roleRoute(projectId, branchId, roleName, "/reveal_password"),
    schema: RolePasswordResponseSchema,
  });
  return body.password;
}
