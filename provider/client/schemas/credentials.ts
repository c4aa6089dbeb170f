/**
 * A branch's scoped service credentials, its custom domains and its AI gateway endpoint. The
 * credential and AI gateway shapes are the official document's; custom domains and the reveal and
 * rotate answers are described only by @neon/sdk's types (`in: "sdk"`).
 */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** A credential without its secrets, as a listing shows it. Scopes are strings: the list grows. */
export const CredentialMetaSchema = z.looseObject({
  token_id: z.string(),
  token_id_short: z.string(),
  name: maybe(z.string()),
  scopes: z.array(z.string()),
  branch_id: maybe(z.string()),
  principal_type: z.string(),
  created_at: z.string(),
  last_used_at: maybe(z.string()),
  revoked_at: maybe(z.string()),
  expires_at: maybe(z.string()),
});
DOCUMENTED.add(CredentialMetaSchema, { as: "CredentialMeta" });
/** A credential without its secrets. */
export type CredentialMeta = z.infer<typeof CredentialMetaSchema>;

/** `GET .../credentials`: every credential of the branch, revoked ones included. */
export const CredentialListSchema = z.looseObject({ credentials: z.array(CredentialMetaSchema) });
DOCUMENTED.add(CredentialListSchema, { as: "ListCredentialsResponse" });

/** `POST .../credentials`: the new credential with its secrets, shown this once. */
export const CredentialIssuedSchema = z.looseObject({
  token_id: z.string(),
  token_id_short: z.string(),
  name: maybe(z.string()),
  api_token: z.string(),
  s3_secret_access_key: z.string(),
  scopes: z.array(z.string()),
  branch_id: z.string(),
  created_at: z.string(),
  expires_at: maybe(z.string()),
});
DOCUMENTED.add(CredentialIssuedSchema, { as: "CreateCredentialResponse" });
/** A credential with its secrets. */
export type CredentialIssued = z.infer<typeof CredentialIssuedSchema>;

/** `POST .../credentials/{token_id}/reveal`: the credential's live secrets. */
export const CredentialSecretSchema = z.looseObject({
  token_id: z.string(),
  api_token: z.string(),
  s3_secret_access_key: z.string(),
});
DOCUMENTED.add(CredentialSecretSchema, { as: "CredentialSecret", in: "sdk" });
/** A credential's live secrets. */
export type CredentialSecret = z.infer<typeof CredentialSecretSchema>;

/** A domain routed to an entity of the branch, with the CNAME it needs and where its checks stand. */
export const CustomDomainSchema = z.looseObject({
  domain: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  cname_target: z.string(),
  status: maybe(z.string()),
  dns_status: maybe(z.string()),
  binding_status: maybe(z.string()),
  status_reason: maybe(z.string()),
});
DOCUMENTED.add(CustomDomainSchema, { as: "CustomDomain", in: "sdk" });
/** A custom domain of a branch. */
export type CustomDomain = z.infer<typeof CustomDomainSchema>;

/** `GET .../custom-domains`: one page of the branch's domains (its cursor is `CursorPageSchema`'s). */
export const CustomDomainsSchema = z.looseObject({ custom_domains: z.array(CustomDomainSchema) });
DOCUMENTED.add(CustomDomainsSchema, { as: "CustomDomainsListResponse", in: "sdk" });

/** The cursor of a page of the routes @neon/sdk describes: where the next page starts, if any. */
export const CursorPageSchema = z.looseObject({
  pagination: maybe(z.looseObject({ next: maybe(z.string()) })),
});
DOCUMENTED.add(CursorPageSchema, { as: "CursorPaginationResponse", in: "sdk" });

/** `GET .../ai_gateway`: the branch's OpenAI-compatible endpoint root. */
export const AiGatewaySchema = z.looseObject({ enabled: z.boolean(), base_url: z.string() });
DOCUMENTED.add(AiGatewaySchema, { as: "BranchAiGateway" });
/** A branch's AI gateway endpoint. */
export type AiGateway = z.infer<typeof AiGatewaySchema>;
