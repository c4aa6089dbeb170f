import type { FastifyInstance } from "fastify";
import { accessProject, type Principal } from "../auth";
import type { EmulatorContext } from "../context";
import { forbidden } from "../errors";
import { grantPermission, liveGrants, revokePermission } from "../families/permissions";
import { renderPermission } from "../render/permissions";
import { principalOf } from "./principal";
import { route } from "./route";

// Who a project is shared with: list, grant (by email) and revoke (by permission id). Anyone who
// may act on the project lists its grants; sharing it, or no longer sharing it, takes more than a
// project-scoped key's member rights.

/** Registers the project permission routes. */
export function permissionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  /** The project, if the caller may change who it is shared with. */
  const manageable = (principal: Principal, projectId: string) => {
    const project = accessProject(store, principal, projectId);
    if (principal.key.kind === "project")
      throw forbidden(`a project-scoped API key cannot change who project ${projectId} is shared with`);
    return project;
  };

  route(app, "GET /projects/{project_id}/permissions", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id);
    return { project_permissions: liveGrants(project).map(renderPermission) };
  });

  route(app, "POST /projects/{project_id}/permissions", async (request) => {
    const project = manageable(principalOf(request), request.params.project_id);
    return renderPermission(grantPermission(ctx, project, request.body.email));
  });

  route(app, "DELETE /projects/{project_id}/permissions/{permission_id}", async (request) => {
    const project = manageable(principalOf(request), request.params.project_id);
    return renderPermission(revokePermission(ctx, project, request.params.permission_id));
  });
}
