import type { FastifyInstance } from "fastify";
import { checkCreateOrgKey, checkReadOrg, checkRevokeOrgKey, orgKeyFields, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, forbidden, notFound } from "../errors";
import { createKey, revokeKey } from "../families/api-keys";
import { renderKeyCreated, renderKeyListItem, renderKeyRevoked } from "../render/api-keys";
import { principalOf } from "./principal";
import { route } from "./route";

// API keys: personal (/api_keys) and organization or project-scoped (/organizations/{org_id}/api_keys).

// The document bounds key_name at 64 characters; an empty name is refused too.
function keyName(body: { key_name: string }): string {
  if (body.key_name.trim() === "") throw badRequest("key_name must not be empty");
  return body.key_name;
}

/** Registers the API key routes. */
export function apiKeyRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  route(app, "POST /api_keys", async (request, reply) => {
    const user = requirePersonal(principalOf(request), "creating API keys");
    const name = keyName(request.body);
    const { key, token } = createKey(ctx, {
      kind: "personal",
      name,
      user_id: user.id,
      created_at_ms: ctx.clock.now(),
    });
    return reply.code(200).send(renderKeyCreated(key, token));
  });

  route(app, "GET /api_keys", async (request) => {
    const user = requirePersonal(principalOf(request), "listing personal API keys");
    return [...store.keys.values()]
      .filter((k) => k.kind === "personal" && k.user_id === user.id && !k.revoked)
      .map((k) => renderKeyListItem(k, store));
  });

  route(app, "DELETE /api_keys/{key_id}", async (request) => {
    const keyId = request.params.key_id;
    const user = requirePersonal(principalOf(request), "revoking personal API keys");
    const target = store.keys.get(keyId);
    if (!target || target.revoked || target.kind !== "personal") {
      throw notFound(
        `personal API key ${keyId} not found (organization and project-scoped keys are revoked with DELETE /organizations/{org_id}/api_keys/{key_id})`,
      );
    }
    if (target.user_id !== user.id) throw forbidden("a personal API key can be revoked only by its owner");
    revokeKey(ctx, target);
    return renderKeyRevoked(target);
  });

  route(app, "POST /organizations/{org_id}/api_keys", async (request, reply) => {
    const orgId = request.params.org_id;
    const user = checkCreateOrgKey(principalOf(request));
    const body = request.body;
    const name = keyName(body);
    const fields = orgKeyFields(store, user.id, orgId, body.project_id);
    const { key, token } = createKey(ctx, {
      ...fields,
      name,
      user_id: user.id,
      created_at_ms: ctx.clock.now(),
    });
    return reply.code(200).send(renderKeyCreated(key, token));
  });

  route(app, "GET /organizations/{org_id}/api_keys", async (request) => {
    const orgId = request.params.org_id;
    checkReadOrg(store, principalOf(request), orgId);
    return [...store.keys.values()]
      .filter((k) => k.kind !== "personal" && k.org_id === orgId && !k.revoked)
      .map((k) => renderKeyListItem(k, store));
  });

  route(app, "DELETE /organizations/{org_id}/api_keys/{key_id}", async (request) => {
    const { org_id: orgId, key_id: keyId } = request.params;
    checkRevokeOrgKey(store, principalOf(request), orgId);
    const target = store.keys.get(keyId);
    if (!target || target.revoked || target.kind === "personal" || target.org_id !== orgId) {
      throw notFound(`API key ${keyId} not found in organization ${orgId}`);
    }
    revokeKey(ctx, target);
    return renderKeyRevoked(target);
  });
}
