import type { FastifyInstance } from "fastify";
import { checkReadOrg, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { renderCurrentUser, renderOrg } from "../render/users";
import { principalOf } from "./principal";
import { route } from "./route";

// The caller and their organizations: `GET /users/me` and `/users/me/organizations` (personal
// keys), and an organization (members' personal keys and the organization's own key; its members
// are in organizations.ts).

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
}
