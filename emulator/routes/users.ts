import type { FastifyInstance } from "fastify";
import { checkReadOrg, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { notFound } from "../errors";
import { renderCurrentUser, renderMember, renderOrg } from "../render/users";
import { principalOf } from "./principal";
import { route } from "./route";

// The caller and their organizations: `GET /users/me` and `/users/me/organizations` (personal
// keys), an organization and its members (members' personal keys and the organization's own key).

/** Registers the user and organization routes. */
export function userRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "GET /users/me", async (request) =>
    renderCurrentUser(requirePersonal(principalOf(request), "GET /users/me")),
  );

  route(app, "GET /users/me/organizations", async (request) => {
    const user = requirePersonal(principalOf(request), "listing your organizations");
    const orgs = [...store.orgs.values()].filter((o) => o.members[user.id] !== undefined);
    return { organizations: orgs.map(renderOrg) };
  });

  route(app, "GET /organizations/{org_id}", async (request) =>
    renderOrg(checkReadOrg(store, principalOf(request), request.params.org_id)),
  );

  route(app, "GET /organizations/{org_id}/members", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    return { members: Object.keys(org.members).map((userId) => renderMember(org, userId, store)) };
  });

  route(app, "GET /organizations/{org_id}/members/{member_id}", async (request) => {
    const org = checkReadOrg(store, principalOf(request), request.params.org_id);
    const memberId = request.params.member_id;
    const userId = Object.keys(org.members).find((u) => renderMember(org, u, store).member.id === memberId);
    if (userId === undefined) throw notFound(`member ${memberId} not found in organization ${org.id}`);
    return renderMember(org, userId, store).member;
  });
}
