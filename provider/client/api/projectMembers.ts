/**
 * A project's members and their roles on it (docs/api-rules.md §20): the organization's members,
 * each with what they hold on the project; an explicit role set or removed. Routes only @neon/sdk's
 * types describe, typed by `sdk-routes.gen.ts`. None starts an operation.
 */
import type { ClientContext } from "../context";
import { DEFAULT_MAX_PAGES, paginate } from "../paginate";
import { apiRoute } from "../path";
import { send } from "../request";
import {
  type ProjectMember,
  type ProjectMemberRole,
  ProjectMemberRoleSchema,
  ProjectMembersSchema,
} from "../schemas";
import type { Requests } from "../sdk-routes.gen";

type SetRole = Requests["PUT /projects/{project_id}/members/{member_id}/role"];
type RemoveRole = Requests["DELETE /projects/{project_id}/members/{member_id}/role"];

/** A project role: `viewer`, `editor` or `admin`. */
export type ProjectRole = SetRole["Body"]["role"];

const role = (projectId: string, memberId: string) =>
  apiRoute("/projects/{project_id}/members/{member_id}/role", { project_id: projectId, member_id: memberId });

/** `GET /projects/{project_id}/members`: every member the caller may see, page by page; 404 for a personal project. */
export async function listProjectMembers(ctx: ClientContext, projectId: string): Promise<ProjectMember[]> {
  const members: ProjectMember[] = [];
  const listing = paginate({
    what: `members of project ${projectId}`,
    limit: 500,
    maxPages: DEFAULT_MAX_PAGES,
    fetchPage: ({ cursor, limit }) =>
      send(ctx.request, {
        method: "GET",
        route: apiRoute("/projects/{project_id}/members", { project_id: projectId }),
        query: { limit, cursor } satisfies Requests["GET /projects/{project_id}/members"]["Querystring"],
        schema: ProjectMembersSchema,
      }),
    items: (page) => page.project_members,
    nextCursor: (page) => page.pagination?.next,
  });
  for await (const member of listing) members.push(member);
  return members;
}

/**
 * `PUT /projects/{project_id}/members/{member_id}/role`: sets the member's explicit role. Lowering
 * the caller's own permission is refused unless `confirmSelfDemotion`.
 */
export function setProjectMemberRole(
  ctx: ClientContext,
  projectId: string,
  memberId: string,
  projectRole: ProjectRole,
  confirmSelfDemotion = false,
): Promise<ProjectMemberRole> {
  return send(ctx.request, {
    method: "PUT",
    route: role(projectId, memberId),
    query: (confirmSelfDemotion ? { confirm_self_demotion: true } : {}) satisfies SetRole["Querystring"],
    body: { role: projectRole } satisfies SetRole["Body"],
    schema: ProjectMemberRoleSchema,
  });
}

/**
 * `DELETE /projects/{project_id}/members/{member_id}/role`: removes the member's explicit role (they
 * fall back to their organization role's default); without one it changes nothing. Leaving the
 * caller without ADMIN is refused unless `confirmSelfLockout`.
 */
export function removeProjectMemberRole(
  ctx: ClientContext,
  projectId: string,
  memberId: string,
  confirmSelfLockout = false,
): Promise<ProjectMemberRole> {
  return send(ctx.request, {
    method: "DELETE",
    route: role(projectId, memberId),
    query: (confirmSelfLockout ? { confirm_self_lockout: true } : {}) satisfies RemoveRole["Querystring"],
    schema: ProjectMemberRoleSchema,
  });
}
