import type { FastifyInstance } from "fastify";
import { checkCreateOrgKey, checkListOrgKeys, checkRevokeOrgKey, requirePersonal } from "../auth";
import type { EmulatorContext } from "../context";
import { forbidden, notFound } from "../errors";
import { newToken } from "../ids";
import { revokeKey } from "../mutations";
import { renderKeyCreated, renderKeyListItem, renderKeyRevoked } from "../render";
import type { KeyRecord } from "../state";
import { bodyObject, optionalId, pathId, pathInt, requiredString } from "../validate";
import { principalOf } from "./principal";

// API keys: personal (/api_keys) and organization or project-scoped (/organizations/{org_id}/api_keys).

const KEY_NAME = { min: 1, max: 64 };

/** Registers the API key routes. */
export function apiKeyRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.post("/api_keys", async (request, reply) => {
    const user = requirePersonal(principalOf(request), "creating API keys");
    const name = requiredString(bodyObject(request.body), "key_name", KEY_NAME);
    const token = newToken();
    const key = store.createKey(
      { kind: "personal", name, user_id: user.id, created_at_ms: ctx.clock.now() },
      token,
    );
    ctx.changed();
    return reply.code(200).send(renderKeyCreated(key, token));
  });

  app.get("/api_keys", async (request) => {
    const user = requirePersonal(principalOf(request), "listing personal API keys");
    return [...store.keys.values()]
      .filter((k) => k.kind === "personal" && k.user_id === user.id && !k.revoked)
      .map((k) => renderKeyListItem(k, store));
  });

  app.delete("/api_keys/:key_id", async (request) => {
    const keyId = pathInt(request.params, "key_id");
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

  app.post("/organizations/:org_id/api_keys", async (request, reply) => {
    const orgId = pathId(request.params, "org_id");
    const user = checkCreateOrgKey(store, principalOf(request), orgId);
    const body = bodyObject(request.body);
    const name = requiredString(body, "key_name", KEY_NAME);
    const projectId = optionalId(body, "project_id");
    const fields: Omit<KeyRecord, "id" | "token_hash" | "revoked" | "last_used_from_addr"> = {
      kind: projectId === undefined ? "organization" : "project",
      name,
      user_id: user.id,
      org_id: orgId,
      created_at_ms: ctx.clock.now(),
    };
    if (projectId === undefined) {
      if (store.roleOf(orgId, user.id) !== "admin") {
        throw forbidden("only organization admins can create organization API keys");
      }
    } else {
      const project = store.projects.get(projectId);
      if (!project) throw notFound(`project ${projectId} not found`);
      if (project.org_id !== orgId)
        throw forbidden(`project ${projectId} does not belong to organization ${orgId}`);
      fields.project_id = projectId;
    }
    const token = newToken();
    const key = store.createKey(fields, token);
    ctx.changed();
    return reply.code(200).send(renderKeyCreated(key, token));
  });

  app.get("/organizations/:org_id/api_keys", async (request) => {
    const orgId = pathId(request.params, "org_id");
    checkListOrgKeys(store, principalOf(request), orgId);
    return [...store.keys.values()]
      .filter((k) => k.kind !== "personal" && k.org_id === orgId && !k.revoked)
      .map((k) => renderKeyListItem(k, store));
  });

  app.delete("/organizations/:org_id/api_keys/:key_id", async (request) => {
    const orgId = pathId(request.params, "org_id");
    const keyId = pathInt(request.params, "key_id");
    checkRevokeOrgKey(store, principalOf(request), orgId);
    const target = store.keys.get(keyId);
    if (!target || target.revoked || target.kind === "personal" || target.org_id !== orgId) {
      throw notFound(`API key ${keyId} not found in organization ${orgId}`);
    }
    revokeKey(ctx, target);
    return renderKeyRevoked(target);
  });
}
