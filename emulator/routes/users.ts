import type { FastifyInstance } from "fastify";
import { checkReadOrg, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { notFound } from "../errors";
import { renderCurrentUser, renderMember, renderOrg } from "../render";
import { principalOf } from "./principal";
import { paramsOf } from "./request";

// The caller and their organizations: `GET /users/me` and `/users/me/organizations` (personal
// keys), an organization and its members (members' personal keys and the organization's own key).

/** Registers the user and organization routes. */
export function userRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.get("/users/me", async (request) =>
    renderCurrentUser(requirePersonal(principalOf(request), "GET /users/me")),
  );

  app.get("/users/me/organizations", async (request) => {
    const user = requirePersonal(principalOf(request), "listing your organizations");
    const orgs = [...store.orgs.values()].filter((o) => o.members[user.id] !== undefined);
    return { organizations: orgs.map(renderOrg) };
  });

  app.get("/organizations/:org_id", async (request) =>
    renderOrg(checkReadOrg(store, principalOf(request), paramsOf(request)["org_id"] as string)),
  );

  app.get("/organizations/:org_id/members", async (request) => {
    const org = checkReadOrg(store, principalOf(request), paramsOf(request)["org_id"] as string);
    return { members: Object.keys(org.members).map((userId) => renderMember(org, userId, store)) };
  });

  app.get("/organizations/:org_id/members/:member_id", async (request) => {
    const org = checkReadOrg(store, principalOf(request), paramsOf(request)["org_id"] as string);
    const memberId = paramsOf(request)["member_id"] as string;
    const userId = Object.keys(org.members).find(
      (u) => (renderMember(org, u, store)["member"] as { id: string }).id === memberId,
    );
    if (userId === undefined) throw notFound(`member ${memberId} not found in organization ${org.id}`);
    return renderMember(org, userId, store)["member"];
  });
}
