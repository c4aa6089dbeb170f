/** API keys: personal, organization and project-scoped keys, as created, listed and revoked. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** `POST /api_keys` (200). Only `id` and `key` are promised (docs/api-rules.md §6); the rest are read when sent. */
export const ApiKeyCreatedSchema = z.looseObject({
  id: z.number().int(),
  key: z.string(),
  name: maybe(z.string()),
  created_at: maybe(z.string()),
  created_by: maybe(z.string()),
});
DOCUMENTED.add(ApiKeyCreatedSchema, { as: "ApiKeyCreateResponse" });
/** A new personal key, including its one-time secret `key`. */
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** `POST /organizations/{org_id}/api_keys`: the same plus `project_id` for project-scoped keys. */
export const OrgApiKeyCreatedSchema = ApiKeyCreatedSchema.extend({ project_id: maybe(z.string()) });
DOCUMENTED.add(OrgApiKeyCreatedSchema, { as: "OrgApiKeyCreateResponse" });
/** A new organization or project-scoped key, including its one-time secret `key`. */
export type OrgApiKeyCreated = z.infer<typeof OrgApiKeyCreatedSchema>;

/** `created_by` in list items: an object `{id, name, image}` (a bare string is tolerated). */
export const ApiKeyCreatorSchema = z.union([
  z.looseObject({ id: z.string(), name: maybe(z.string()), image: maybe(z.string()) }),
  z.string(),
]);
DOCUMENTED.add(ApiKeyCreatorSchema, { as: "ApiKeyCreatorData" });
/** Who created a listed key. */
export type ApiKeyCreator = z.infer<typeof ApiKeyCreatorSchema>;

/** One item of `GET /api_keys` (a bare array; revoked keys are not listed). */
export const ApiKeyListItemSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  created_at: maybe(z.string()),
  created_by: maybe(ApiKeyCreatorSchema),
  last_used_at: maybe(z.string()),
  last_used_from_addr: maybe(z.string()),
});
DOCUMENTED.add(ApiKeyListItemSchema, { as: "ApiKeysListResponseItem" });
/** A listed personal key (no secret). */
export type ApiKeyListItem = z.infer<typeof ApiKeyListItemSchema>;

/** `GET /api_keys` */
export const ApiKeyListSchema = z.array(ApiKeyListItemSchema);
DOCUMENTED.add(ApiKeyListSchema, { as: "GET /api_keys 200" });

/** One item of `GET /organizations/{org_id}/api_keys`; may carry `project_id`. */
export const OrgApiKeyListItemSchema = ApiKeyListItemSchema.extend({ project_id: maybe(z.string()) });
DOCUMENTED.add(OrgApiKeyListItemSchema, { as: "OrgApiKeysListResponseItem" });
/** A listed organization or project-scoped key (no secret). */
export type OrgApiKeyListItem = z.infer<typeof OrgApiKeyListItemSchema>;

/** `GET /organizations/{org_id}/api_keys` */
export const OrgApiKeyListSchema = z.array(OrgApiKeyListItemSchema);
DOCUMENTED.add(OrgApiKeyListSchema, { as: "GET /organizations/{org_id}/api_keys 200" });

/** `DELETE /api_keys/{key_id}` and `DELETE /organizations/{org_id}/api_keys/{key_id}`. */
export const ApiKeyRevokedSchema = z.looseObject({
  id: z.number().int(),
  name: maybe(z.string()),
  created_at: maybe(z.string()),
  created_by: maybe(z.string()),
  last_used_at: maybe(z.string()),
  last_used_from_addr: maybe(z.string()),
  revoked: z.boolean(),
  project_id: maybe(z.string()),
});
DOCUMENTED.add(ApiKeyRevokedSchema, { as: "OrgApiKeyRevokeResponse" });
/** A revoked key. */
export type ApiKeyRevoked = z.infer<typeof ApiKeyRevokedSchema>;
