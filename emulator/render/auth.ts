import type {
  NeonAuthCreateIntegrationResponse,
  NeonAuthEmailAndPasswordConfig,
  NeonAuthEmailServerConfigResponse,
  NeonAuthIntegration,
  NeonAuthOauthProvider,
  NeonAuthPluginConfigs,
  NeonAuthRedirectUriWhitelistResponse,
  NeonAuthWebhookConfig,
} from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { AuthOauthProviderRecord, BranchAuthRecord, BranchRecord } from "../records";

// A branch's Auth as the API shows it. Its base URL and JWKS URL are on the emulator's own server
// (the origin the request came to), so an app verifies tokens against the emulator offline.

/** The path a branch's Auth is served under on the emulator's server. */
export const AUTH_BASE_PATH = "/neon-auth";

/** The Auth's base URL on the server at `origin`. */
export const authBaseUrl = (origin: string, auth: BranchAuthRecord) =>
  `${origin}${AUTH_BASE_PATH}/${auth.auth_provider_project_id}`;

/** The Auth's JWKS URL on the server at `origin`. */
export const authJwksUrl = (origin: string, auth: BranchAuthRecord) =>
  `${authBaseUrl(origin, auth)}/.well-known/jwks.json`;

/** What enabling Auth answers: the keys and URLs an app needs. */
export function renderAuthKeys(auth: BranchAuthRecord, origin: string): NeonAuthCreateIntegrationResponse {
  return {
    auth_provider: auth.auth_provider,
    auth_provider_project_id: auth.auth_provider_project_id,
    pub_client_key: auth.pub_client_key,
    secret_server_key: auth.secret_server_key,
    jwks_url: authJwksUrl(origin, auth),
    schema_name: "neon_auth",
    table_name: "users_sync",
    base_url: authBaseUrl(origin, auth),
  };
}

/** The branch's Auth integration. */
export function renderAuthIntegration(
  branch: BranchRecord,
  auth: BranchAuthRecord,
  origin: string,
): NeonAuthIntegration {
  return {
    auth_provider: auth.auth_provider,
    auth_provider_project_id: auth.auth_provider_project_id,
    branch_id: branch.id,
    db_name: auth.db_name,
    created_at: isoSeconds(auth.created_at_ms),
    owned_by: "neon",
    jwks_url: authJwksUrl(origin, auth),
    base_url: authBaseUrl(origin, auth),
    name: auth.name,
  };
}

/** The trusted domains. */
export function renderDomains(auth: BranchAuthRecord): NeonAuthRedirectUriWhitelistResponse {
  return { domains: auth.domains.map((domain) => ({ domain, auth_provider: auth.auth_provider })) };
}

/** An OAuth provider, its client secret included as the service shows it to the key's holder. */
export function renderOauthProvider(p: AuthOauthProviderRecord): NeonAuthOauthProvider {
  return {
    id: p.id,
    type: p.type,
    ...(p.client_id === undefined ? {} : { client_id: p.client_id }),
    ...(p.client_secret === undefined ? {} : { client_secret: p.client_secret }),
  };
}

/** The email provider. */
export function renderEmailProvider(auth: BranchAuthRecord): NeonAuthEmailServerConfigResponse {
  return { ...auth.email_provider };
}

/** The email-and-password settings. */
export function renderEmailAndPassword(auth: BranchAuthRecord): NeonAuthEmailAndPasswordConfig {
  return { ...auth.email_and_password };
}

/** The webhook settings. */
export function renderWebhooks(auth: BranchAuthRecord): NeonAuthWebhookConfig {
  const { webhook_url, enabled_events, ...rest } = auth.webhooks;
  return {
    ...rest,
    ...(webhook_url === undefined ? {} : { webhook_url }),
    ...(enabled_events === undefined
      ? {}
      : { enabled_events: enabled_events as NonNullable<NeonAuthWebhookConfig["enabled_events"]> }),
  };
}

/** Every plugin's settings in one answer. */
export function renderPlugins(auth: BranchAuthRecord): NeonAuthPluginConfigs {
  return {
    organization: { ...auth.organization },
    magic_link: { ...auth.magic_link },
    phone_number: { ...auth.phone_number },
    email_provider: renderEmailProvider(auth),
    email_and_password: renderEmailAndPassword(auth),
    oauth_providers: auth.oauth_providers.map(renderOauthProvider),
    allow_localhost: auth.allow_localhost,
  };
}
