/** API keys: personal keys (`/api_keys`) and organization or project-scoped keys (`/organizations/{org_id}/api_keys`). */
import type { ClientContext } from "../context";
import { send } from "../request";
import {
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  type ApiKeyListItem,
  ApiKeyListSchema,
  type ApiKeyRevoked,
  ApiKeyRevokedSchema,
  type OrgApiKeyCreated,
  OrgApiKeyCreatedSchema,
  type OrgApiKeyListItem,
  OrgApiKeyListSchema,
} from "../schemas";

/** `POST /api_keys`: create a personal key. The secret is in `key`, returned only now. */
export function createApiKey(ctx: ClientContext, body: { keyName: string }): Promise<ApiKeyCreated> {
  return send(ctx.request, "POST /api_keys", {
    body: { key_name: body.keyName },
    schema: ApiKeyCreatedSchema,
  });
}

/** `GET /api_keys`: the personal keys that are not revoked. */
export function listApiKeys(ctx: ClientContext): Promise<ApiKeyListItem[]> {
  return send(ctx.request, "GET /api_keys", { schema: ApiKeyListSchema });
}

/** `DELETE /api_keys/{key_id}`: revoke a personal key. */
export function revokeApiKey(ctx: ClientContext, keyId: number): Promise<ApiKeyRevoked> {
  return send(ctx.request, "DELETE /api_keys/{key_id}", {
    params: { key_id: keyId },
    schema: ApiKeyRevokedSchema,
  });
}

/** `POST /organizations/{org_id}/api_keys`: an organization key, or a project-scoped one with `projectId`. */
export function createOrgApiKey(
  ctx: ClientContext,
  orgId: string,
  body: { keyName: string; projectId?: string | undefined },
): Promise<OrgApiKeyCreated> {
  return send(ctx.request, "POST /organizations/{org_id}/api_keys", {
    params: { org_id: orgId },
    body:
      body.projectId === undefined
        ? { key_name: body.keyName }
        : { key_name: body.keyName, project_id: body.projectId },
    schema: OrgApiKeyCreatedSchema,
  });
}

/** `GET /organizations/{org_id}/api_keys`: the organization's keys (items may carry `project_id`). */
export function listOrgApiKeys(ctx: ClientContext, orgId: string): Promise<OrgApiKeyListItem[]> {
  return send(ctx.request, "GET /organizations/{org_id}/api_keys", {
    params: { org_id: orgId },
    schema: OrgApiKeyListSchema,
  });
}

/** `DELETE /organizations/{org_id}/api_keys/{key_id}`: revoke an organization or project-scoped key. */
export function revokeOrgApiKey(ctx: ClientContext, orgId: string, keyId: number): Promise<ApiKeyRevoked> {
  return send(ctx.request, "DELETE /organizations/{org_id}/api_keys/{key_id}", {
    params: { org_id: orgId, key_id: keyId },
    schema: ApiKeyRevokedSchema,
  });
}
