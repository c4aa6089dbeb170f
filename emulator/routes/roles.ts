import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { HttpError } from "../errors";
import { checkIdle } from "../families/operations";
import { createRole, deleteRole, resetRolePassword } from "../families/roles";
import { renderRole, renderRoles } from "../render/roles";
import { checkRoleName } from "../rules";
import { branchOf, roleOf } from "./lookup";
import { route } from "./route";

// Database roles of a branch: list, create (the password is in the answer), get, delete, reveal
// and reset the password. Changes apply to the branch's compute through operations.

/** Registers the role routes. */
export function roleRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = "/projects/{project_id}/branches/{branch_id}/roles";
  const view = (op: Parameters<typeof ctx.engine.view>[0]) => ctx.engine.view(op);

  route(app, `GET ${base}`, async (request) => ({
    roles: renderRoles(branchOf(ctx, request).branch),
  }));

  route(app, `POST ${base}`, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const spec = request.body.role;
    checkRoleName(spec.name, "role.name");
    if (branch.roles.some((r) => r.name === spec.name)) {
      throw new HttpError(409, `role ${JSON.stringify(spec.name)} already exists on branch ${branch.id}`);
    }
    checkIdle(ctx, project);
    const { role, operations } = createRole(ctx, project, branch, spec.name, spec.no_login === true);
    return reply.code(201).send({ role: renderRole(branch, role, true), operations: operations.map(view) });
  });

  route(app, `GET ${base}/{role_name}`, async (request) => {
    const { branch } = branchOf(ctx, request);
    return { role: renderRole(branch, roleOf(branch, request.params.role_name)) };
  });

  route(app, `DELETE ${base}/{role_name}`, async (request, reply) => {
    const { project, branch } = branchOf(ctx, request);
    const role = branch.roles.find((r) => r.name === request.params.role_name);
    // The document: 204 when the role does not exist or has already been deleted.
    if (!role) return reply.code(204).send();
    if (role.protected) throw new HttpError(422, `role ${role.name} is protected and cannot be deleted`);
    const owned = branch.databases.filter((d) => d.owner_name === role.name).map((d) => d.name);
    if (owned.length > 0) {
      throw new HttpError(
        422,
        `role ${role.name} owns databases (${owned.join(", ")}); delete them or change their owner first`,
      );
    }
    checkIdle(ctx, project);
    const operations = deleteRole(ctx, project, branch, role);
    return { role: renderRole(branch, role), operations: operations.map(view) };
  });

  route(app, `GET ${base}/{role_name}/reveal_password`, async (request) => {
    const { branch } = branchOf(ctx, request);
    const role = roleOf(branch, request.params.role_name);
    // The document's 412 is for a password the service does not hold.
    if (role.password === undefined) {
      throw new HttpError(412, `role ${role.name} cannot log in and has no stored password`);
    }
    return { password: role.password };
  });

  route(app, `POST ${base}/{role_name}/reset_password`, async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const role = roleOf(branch, request.params.role_name);
    if (role.no_login) throw new HttpError(422, `role ${role.name} cannot log in and has no password`);
    checkIdle(ctx, project);
    const operations = resetRolePassword(ctx, project, branch, role);
    return { role: renderRole(branch, role, true), operations: operations.map(view) };
  });
}
