/** A branch's Auth: what enabling it answers, the integration, and each group of its settings. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** What enabling Auth answers: the keys and URLs an app needs (the keys are secrets). */
export const AuthKeysSchema = z.looseObject({
  auth_provider: z.string(),
  auth_provider_project_id: z.string(),
  pub_client_key: z.string(),
  secret_server_key: z.string(),
  jwks_url: z.string(),
  schema_name: z.string(),
  table_name: z.string(),
  base_url: maybe(z.string()),
});
DOCUMENTED.add(AuthKeysSchema, { as: "NeonAuthCreateIntegrationResponse" });
/** The keys and URLs of a branch's Auth. */
export type AuthKeys = z.infer<typeof AuthKeysSchema>;

/** A branch's Auth integration. */
export const AuthIntegrationSchema = z.looseObject({
  auth_provider: z.string(),
  auth_provider_project_id: z.string(),
  branch_id: z.string(),
  db_name: z.string(),
  jwks_url: z.string(),
  base_url: maybe(z.string()),
  name: maybe(z.string()),
});
DOCUMENTED.add(AuthIntegrationSchema, { as: "NeonAuthIntegration" });
/** A branch's Auth integration. */
export type AuthIntegration = z.infer<typeof AuthIntegrationSchema>;

/** The trusted domains. */
export const AuthDomainsSchema = z.looseObject({
  domains: z.array(z.looseObject({ domain: z.string() })),
});
DOCUMENTED.add(AuthDomainsSchema, { as: "NeonAuthRedirectURIWhitelistResponse" });

/** An OAuth provider; the id and type lists may grow. */
export const AuthOauthProviderSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  client_id: maybe(z.string()),
  client_secret: maybe(z.string()),
});
DOCUMENTED.add(AuthOauthProviderSchema, { as: "NeonAuthOauthProvider" });
/** An OAuth provider of a branch's Auth. */
export type AuthOauthProvider = z.infer<typeof AuthOauthProviderSchema>;

/** The email provider: `shared`, or `standard` with the team's SMTP server. */
export const AuthEmailProviderSchema = z.looseObject({
  type: maybe(z.string()),
  host: maybe(z.string()),
  port: maybe(z.number()),
  username: maybe(z.string()),
  password: maybe(z.string()),
  sender_email: maybe(z.string()),
  sender_name: maybe(z.string()),
});
DOCUMENTED.add(AuthEmailProviderSchema, { as: "StandardEmailServer" });
/** The email provider of a branch's Auth. */
export type AuthEmailProvider = z.infer<typeof AuthEmailProviderSchema>;

/** Email-and-password sign-in settings. */
export const AuthEmailAndPasswordSchema = z.looseObject({
  enabled: z.boolean(),
  email_verification_method: z.string(),
  require_email_verification: z.boolean(),
  auto_sign_in_after_verification: z.boolean(),
  send_verification_email_on_sign_up: z.boolean(),
  send_verification_email_on_sign_in: z.boolean(),
  disable_sign_up: z.boolean(),
});
DOCUMENTED.add(AuthEmailAndPasswordSchema, { as: "NeonAuthEmailAndPasswordConfig" });

/** The magic-link plugin. */
export const AuthMagicLinkSchema = z.looseObject({
  enabled: z.boolean(),
  expires_in: z.number(),
  disable_sign_up: z.boolean(),
});
DOCUMENTED.add(AuthMagicLinkSchema, { as: "NeonAuthMagicLinkConfig" });

/** The organization plugin. */
export const AuthOrganizationSchema = z.looseObject({
  enabled: z.boolean(),
  organization_limit: z.number(),
  membership_limit: z.number(),
  creator_role: z.string(),
  send_invitation_email: z.boolean(),
});
DOCUMENTED.add(AuthOrganizationSchema, { as: "NeonAuthOrganizationConfig" });

/** The phone-number plugin. */
export const AuthPhoneNumberSchema = z.looseObject({
  enabled: z.boolean(),
  otp_expires_in: maybe(z.number()),
});
DOCUMENTED.add(AuthPhoneNumberSchema, { as: "NeonAuthPhoneNumberConfig" });

/** Every plugin's settings in one answer. */
export const AuthPluginsSchema = z.looseObject({
  organization: maybe(AuthOrganizationSchema),
  magic_link: maybe(AuthMagicLinkSchema),
  phone_number: maybe(AuthPhoneNumberSchema),
  email_and_password: maybe(AuthEmailAndPasswordSchema),
  oauth_providers: maybe(z.array(AuthOauthProviderSchema)),
  allow_localhost: maybe(z.boolean()),
});
DOCUMENTED.add(AuthPluginsSchema, { as: "NeonAuthPluginConfigs" });
/** Every setting of a branch's Auth but its domains, email provider and webhooks. */
export type AuthPlugins = z.infer<typeof AuthPluginsSchema>;

/** The webhook settings. */
export const AuthWebhooksSchema = z.looseObject({
  enabled: z.boolean(),
  webhook_url: maybe(z.string()),
  enabled_events: maybe(z.array(z.string())),
  timeout_seconds: maybe(z.number()),
});
DOCUMENTED.add(AuthWebhooksSchema, { as: "NeonAuthWebhookConfig" });
/** The webhook settings of a branch's Auth. */
export type AuthWebhooks = z.infer<typeof AuthWebhooksSchema>;
