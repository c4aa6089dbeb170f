/** The caller's account: the user the key belongs to, their organizations, and one organization. */
import type { ClientContext } from "../context";
import { apiRoute } from "../path";
import { apiRequest } from "../request";
import {
  type CurrentUser,
  CurrentUserSchema,
  type Organization,
  OrganizationSchema,
  OrganizationsResponseSchema,
} from "../schemas";

/** `GET /users/me`. */
export function getCurrentUser(ctx: ClientContext): Promise<CurrentUser> {
  return apiRequest(ctx.request, { method: "GET", route: apiRoute("/users/me"), schema: CurrentUserSchema });
}

/** `GET /users/me/organizations`: the organizations the user belongs to. */
export async function listMyOrganizations(ctx: ClientContext): Promise<Organization[]> {
  const body = await apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/users/me/organizations"),
    schema: OrganizationsResponseSchema,
  });
  return body.organizations;
}

/** `GET /organizations/{org_id}`. */
export function getOrganization(ctx: ClientContext, orgId: string): Promise<Organization> {
  return apiRequest(ctx.request, {
    method: "GET",
    route: apiRoute("/organizations/{org_id}", { org_id: orgId }),
    schema: OrganizationSchema,
  });
}
