import type { FastifyInstance } from "fastify";
import { accessProject, checkReadOrg, type Principal } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, forbidden } from "../errors";
import { memberId, memberUser } from "../families/organizations";
import { owningOrg, removeMemberRole, setMemberRole, standing } from "../families/project-members";
import type { OrgRecord, ProjectRecord } from "../records";
import { renderProjectMember, renderRoleChange } from "../render/project-members";
import { principalOf } from "./principal";
import { route } from "./route";

// A project's members and their roles on it: list them, set a member's explicit role, remove it.
// Whoever reaches the project lists the members who hold a permission on it; one who manages its
// roles (an organization admin's personal key, the organization's key, a member holding ADMIN on
// the project) also sees the unassigned ones, and alone changes roles (docs/api-rules.md §20).

/** Whether the caller manages the project's roles. */
function manages(principal: Principal, org: OrgRecord, project: ProjectRecord): boolean {
  const { key } = principal;
  if (key.kind === "organization") return key.org_id === org.id;
  if (key.kind !== "personal" || org.members[key.user_id] === undefined) return false;
  return standing(org, project, key.user_id).effective === "ADMIN";
}

/** The project and its organization, when the caller may change its members' roles; 403 otherwise. */
function managed(ctx: EmulatorContext, principal: Principal, projectId: string) {
  const project = accessProject(ctx.store, principal, projectId);
  const org = owningOrg(ctx.store, project);
  checkReadOrg(ctx.store, principal, org.id);
  if (!manages(principal, org, project))
    throw forbidden(
      `only organization admins and the project's admins can change members' roles on project ${projectId}`,
    );
  return { project, org };
}

/** Whether the caller is the member `userId` (their own personal key). */
const isSelf = (principal: Principal, userId: string) =>
  principal.key.kind === "personal" && principal.key.user_id === userId;

/** Registers the project member routes. */
export function projectMemberRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "GET /projects/{project_id}/members", async (request) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, request.params.project_id);
    const org = owningOrg(store, project);
    const all = manages(principal, org, project);
    // By email, then member id: an order that holds from page to page.
    const order = (userId: string) =>
      `${store.users.get(userId)?.email.toLowerCase() ?? ""}\u0000${memberId(org, userId)}`;
    let rows = Object.keys(org.members)
      .map((userId) => ({
        userId,
        id: memberId(org, userId),
        key: order(userId),
        s: standing(org, project, userId),
      }))
      .filter((r) => all || r.s.effective !== undefined)
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    const { cursor, limit } = request.query;
    if (cursor !== undefined && cursor !== "") {
      const after = Buffer.from(cursor, "base64url").toString();
      const at = rows.findIndex((r) => r.id === after);
      if (at < 0)
        throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: not a cursor from a previous page`);
      rows = rows.slice(at + 1);
    }
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
      throw badRequest(`limit must be a whole number of at least 1, not ${limit}`);
    const page = rows.slice(0, limit ?? rows.length);
    const last = page.at(-1);
    return {
      project_members: page.map((r) => renderProjectMember(org, r.userId, r.s, store)),
      pagination:
        page.length < rows.length && last !== undefined
          ? { next: Buffer.from(last.id).toString("base64url") }
          : {},
    };
  });

  route(app, "PUT /projects/{project_id}/members/{member_id}/role", async (request) => {
    const principal = principalOf(request);
    const { project, org } = managed(ctx, principal, request.params.project_id);
    const userId = memberUser(org, request.params.member_id);
    const change = setMemberRole(ctx, org, project, userId, request.body.role, {
      self: isSelf(principal, userId),
      confirmed: request.query.confirm_self_demotion === true,
    });
    return renderRoleChange(org, project, userId, change, store);
  });

  route(app, "DELETE /projects/{project_id}/members/{member_id}/role", async (request) => {
    const principal = principalOf(request);
    const { project, org } = managed(ctx, principal, request.params.project_id);
    const userId = memberUser(org, request.params.member_id);
    const change = removeMemberRole(ctx, org, project, userId, {
      self: isSelf(principal, userId),
      confirmed: request.query.confirm_self_lockout === true,
    });
    return renderRoleChange(org, project, userId, change, store);
  });
}
