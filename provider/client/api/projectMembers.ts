/**
 * A project's members and their roles on it (docs/api-rules.md §20): the organization's members,
 * each with what they hold on the project; an explicit role set or removed. Routes only @neon/sdk's
 * types describe, typed by `sdk-routes.gen.ts`. None starts an operation.
 */
import type { ClientContext } from "../context";
import { DEFAULT_MAX_PAGES, paginate, sendPage } from "../paginate";
import { send } from "../request";
import {
  type ProjectMember,
  type ProjectMemberRole,
  ProjectMemberRoleSchema,
  ProjectMembersSchema,
} from "../schemas";
import type { Requests } from "../sdk-routes.gen";

/** A project role: `viewer`, `editor` or `admin`. */
export type ProjectRole = Requests["PUT /projects/{project_id}/members/{member_id}/role"]["Body"]["role"];

const member = (projectId: string, memberId: string) => ({ project_id: projectId, member_id: memberId });

/** `GET /projects/{project_id}/members`: every member the caller may see, page by page; 404 for a personal project. */
export async function listProjectMembers(ctx: ClientContext, projectId: string): Promise<ProjectMember[]> {
  const members: ProjectMember[] = [];
  const listing = paginate({
    what: `members of project ${projectId}`,
    limit: 500,
    maxPages: DEFAULT_MAX_PAGES,
    fetchPage: (page) =>
      sendPage(ctx.request, "GET /projects/{project_id}/members", page, {
        params: { project_id: projectId },
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
  return send(ctx.request, "PUT /projects/{project_id}/members/{member_id}/role", {
    params: member(projectId, memberId),
    query: confirmSelfDemotion ? { confirm_self_demotion: true } : {},
    body: { role: projectRole },
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
  return send(ctx.request, "DELETE /projects/{project_id}/members/{member_id}/role", {
    params: member(projectId, memberId),
    query: confirmSelfLockout ? { confirm_self_lockout: true } : {},
    schema: ProjectMemberRoleSchema,
  });
}
