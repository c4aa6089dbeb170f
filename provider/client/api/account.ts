/** The caller's account: the user the key belongs to, their organizations, and one organization. */
import type { ClientContext } from "../context";
import { send } from "../request";
import {
  type CurrentUser,
  CurrentUserSchema,
  type Organization,
  OrganizationSchema,
  OrganizationsResponseSchema,
  type OrgMember,
  OrgMembersResponseSchema,
} from "../schemas";

/** `GET /users/me`. */
export function getCurrentUser(ctx: ClientContext): Promise<CurrentUser> {
  return send(ctx.request, "GET /users/me", { schema: CurrentUserSchema });
}

/** `GET /users/me/organizations`: the organizations the user belongs to. */
export async function listMyOrganizations(ctx: ClientContext): Promise<Organization[]> {
  const body = await send(ctx.request, "GET /users/me/organizations", {
    schema: OrganizationsResponseSchema,
  });
  return body.organizations;
}

/** `GET /organizations/{org_id}`. */
export function getOrganization(ctx: ClientContext, orgId: string): Promise<Organization> {
  return send(ctx.request, "GET /organizations/{org_id}", {
    params: { org_id: orgId },
    schema: OrganizationSchema,
  });
}

/** Pages of members read at most: 500 members each. */
const MEMBER_PAGES = 20;

/** `GET /organizations/{org_id}/members`: every member and their role, page by page. */
export async function listOrgMembers(ctx: ClientContext, orgId: string): Promise<OrgMember[]> {
  const members: OrgMember[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MEMBER_PAGES; page++) {
    const body = await send(ctx.request, "GET /organizations/{org_id}/members", {
      params: { org_id: orgId },
      query: { limit: 500, cursor },
      schema: OrgMembersResponseSchema,
    });
    members.push(...body.members);
    const next = body.pagination?.next ?? undefined;
    if (next === undefined || next === "" || next === cursor || body.members.length === 0) break;
    cursor = next;
  }
  return members;
}
