/** Who a project is shared with (`/projects/{project_id}/permissions`): grants by email, revoked by id. None starts an operation. */
import type { ClientContext } from "../context";
import { send } from "../request";
import { type ProjectPermission, ProjectPermissionSchema, ProjectPermissionsSchema } from "../schemas";

/** `GET /projects/{project_id}/permissions`: the grants in force (revoked ones are not listed). */
export async function listProjectPermissions(
  ctx: ClientContext,
  projectId: string,
): Promise<ProjectPermission[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/permissions", {
    params: { project_id: projectId },
    schema: ProjectPermissionsSchema,
  });
  return body.project_permissions;
}

/** `POST /projects/{project_id}/permissions`: shares the project with `email`; a grant in force for it is a conflict (409). */
export function grantProjectPermission(
  ctx: ClientContext,
  projectId: string,
  email: string,
): Promise<ProjectPermission> {
  return send(ctx.request, "POST /projects/{project_id}/permissions", {
    params: { project_id: projectId },
    body: { email },
    schema: ProjectPermissionSchema,
  });
}

/** `DELETE /projects/{project_id}/permissions/{permission_id}`: revokes the grant; an unknown or revoked one is not found (404). */
export function revokeProjectPermission(
  ctx: ClientContext,
  projectId: string,
  permissionId: string,
): Promise<ProjectPermission> {
  return send(ctx.request, "DELETE /projects/{project_id}/permissions/{permission_id}", {
    params: { project_id: projectId, permission_id: permissionId },
    schema: ProjectPermissionSchema,
  });
}
