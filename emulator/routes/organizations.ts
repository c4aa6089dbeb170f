import type { FastifyInstance } from "fastify";
import { checkOrgAdmin, checkReadOrg, type Principal } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, forbidden } from "../errors";
import {
  changeMemberRole,
  clearSpendingLimit,
  dismissMember,
  invite,
  joinedAt,
  memberId,
  memberUser,
  orgRole,
  setSpendingLimit,
} from "../families/organizations";
import type { Requests } from "../openapi/requests.gen";
import type { OrgRecord } from "../records";
import { renderInvitation, renderMember, renderSpendingLimit } from "../render/organizations";
import { principalOf } from "./principal";
import { route } from "./route";

// An organization's members (list in pages, get, change a role, remove), its invitations (list,
// invite) and its spending limit (get, set, clear). Any member's personal key and the
// organization's own key read them; only an admin's personal key or the organization's key changes
// them (docs/api-rules.md §17).

type MembersQuery = Requests["GET /organizations/{org_id}/members"]["Querystring"];

/** The organization's members as user ids, in the order the query asks for (ties by member id). */
function sortedMembers(ctx: EmulatorContext, org: OrgRecord, query: MembersQuery): string[] {
  const key = (userId: string): string | number => {
    switch (query.sort_by) {
      case "email":
        return ctx.store.users.get(userId)?.email.toLowerCase() ?? "";
      case "role":
        return org.members[userId] ?? "";
      case "joined_at":
        return joinedAt(org, userId);
    }
  };
  const sign = query.sort_order === "asc" ? 1 : -1;
  return Object.keys(org.members).sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka !== kb) return ka < kb ? -sign : sign;
    return memberId(org, a) < memberId(org, b) ? -sign : sign;
  });
}

/** One page of members after `cursor` (the member id that ended the page before), with the next cursor while more remain. */
function membersPage(ctx: EmulatorContext, org: OrgRecord, query: MembersQuery) {
  let users = sortedMembers(ctx, org, query);
  if (query.cursor !== undefined && query.cursor !== "") {
    const after = Buffer.from(query.cursor, "base64url").toString();
    const at = users.findIndex((u) => memberId(org, u) === after);
    if (at < 0)
      throw badRequest(`invalid cursor ${JSON.stringify(query.cursor)}: not a cursor from a previous page`);
    users = users.slice(at + 1);
  }
  const page = users.slice(0, query.limit ?? users.length);
  const last = page.at(-1);
  const next =
    page.length < users.length && last !== undefined
      ? { next: Buffer.from(memberId(org, last)).toString("base64url") }
      : {};
  return {
    members: page.map((userId) => renderMember(org, userId, ctx.store)),
    pagination: { ...next, sort_by: query.sort_by, sort_order: query.sort_order },
  };
}

/** The user an invitation names as its sender: the caller, or the creator of the key that calls. */
function sender(principal: Principal): string {
  if (!principal.user) throw forbidden("this API key has no user to send invitations as");
  return principal.user.id;
}

/** Registers the organization member, invitation and spending limit routes. */
export function organizationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "GET /organizations/{org_id}/members", async (request) =>
    membersPage(ctx, checkReadOrg(store, principalOf(request), request.params.org_id), request.query),
  );

  route(app, "GET /organizations/{org_id}/members/{member_id}", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    return renderMember(org, memberUser(org, request.params.member_id), store).member;
  });

  route(app, "PATCH /organizations/{org_id}/members/{member_id}", async (request) => {
    const org = checkOrgAdmin(store, principalOf(request), request.params.org_id, "change members' roles");
    const userId = memberUser(org, request.params.member_id);
    changeMemberRole(ctx, org, userId, orgRole(org, request.body.role));
    return renderMember(org, userId, store).member;
  });

  route(app, "DELETE /organizations/{org_id}/members/{member_id}", async (request) => {
    const org = checkOrgAdmin(store, principalOf(request), request.params.org_id, "remove members");
    dismissMember(ctx, org, memberUser(org, request.params.member_id));
    return {};
  });

  route(app, "GET /organizations/{org_id}/invitations", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    return { invitations: (org.invitations ?? []).map((i) => renderInvitation(org, i)) };
  });

  route(app, "POST /organizations/{org_id}/invitations", async (request) => {
    const principal = principalOf(request);
    const org = checkOrgAdmin(store, principal, request.params.org_id, "invite members");
    const made = invite(ctx, org, sender(principal), request.body.invitations);
    return { invitations: made.map((i) => renderInvitation(org, i)) };
  });

  route(app, "GET /organizations/{org_id}/billing/spending_limit", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    return renderSpendingLimit(org);
  });

  route(app, "PUT /organizations/{org_id}/billing/spending_limit", async (request) => {
    const org = checkOrgAdmin(store, principalOf(request), request.params.org_id, "set the spending limit");
    setSpendingLimit(ctx, org, request.body.spending_limit_cents);
    return renderSpendingLimit(org);
  });

  route(app, "DELETE /organizations/{org_id}/billing/spending_limit", async (request) => {
    const org = checkOrgAdmin(store, principalOf(request), request.params.org_id, "clear the spending limit");
    clearSpendingLimit(ctx, org);
    return {};
  });
}
