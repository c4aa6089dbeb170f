// The records of the families that live on a branch or a project besides its roles and databases:
// buckets and their objects, credentials, custom domains, the Data API, JWKS URLs, functions with
// their deployments and triggers, and Auth. Plain JSON-able records, as records.ts's; records.ts
// re-exports them, so a module imports every record from there.

import type {
  NeonAuthEmailAndPasswordConfig,
  NeonAuthMagicLinkConfig,
  NeonAuthOrganizationConfig,
} from "@neon/sdk/raw";
import type {
  DataAPISettings,
  NeonAuthEmailServerConfig,
  NeonAuthOauthProviderId,
  NeonAuthSupportedAuthProvider,
} from "./openapi/requests.gen";

/** An object-storage bucket on a branch (docs/api-rules.md §26). */
export interface BucketRecord {
  name: string;
  access_level: "private" | "public_read";
  created_at_ms: number;
  /** By key; an object's bytes are kept in the object store under `blob`. */
  objects: Record<string, BucketObjectRecord>;
}

/** An object's metadata; its bytes are the object store's blob of that SHA-256. */
export interface BucketObjectRecord {
  size: number;
  /** The quoted MD5 of the bytes, as S3 gives a single-part upload's entity tag. */
  etag: string;
  last_modified_ms: number;
  /** The SHA-256 (hex) of the bytes: their name in the object store. */
  blob: string;
  content_type?: string;
}

/** A scoped service credential of a branch. */
export interface CredentialRecord {
  /** `nak_live_<32 hex>`; doubles as the S3 access key id. */
  token_id: string;
  name?: string;
  scopes: CredentialScope[];
  /** The live secrets: the service keeps them so that they can be revealed again. */
  api_token: string;
  s3_secret_access_key: string;
  created_at_ms: number;
  last_used_at_ms?: number;
  revoked_at_ms?: number;
}

/** A capability a credential may exercise. */
export type CredentialScope = "storage:read" | "storage:write" | "ai_gateway:invoke" | "functions:invoke";

/** A domain name routed to an entity of the branch. */
export interface CustomDomainRecord {
  domain: string;
  entity_type: string;
  entity_id: string;
  created_at_ms: number;
}

/**
 * The Data API on one database of a branch. It names the database by id, so a database deleted
 * (or renamed, then made again under the old name) does not inherit it.
 */
export interface DataApiRecord {
  database_id: number;
  /** Where it answers, fixed when it is enabled (it names the branch's read-write compute then). */
  url: string;
  auth_provider: "neon_auth" | "external";
  jwks_url?: string;
  provider_name?: string;
  jwt_audience?: string;
  add_default_grants: boolean;
  skip_auth_schema: boolean;
  /** The settings as last set; the documented defaults fill the rest when shown. */
  settings: DataAPISettings;
  created_at_ms: number;
  /** When its schema cache was last refreshed (every PATCH refreshes it). */
  refreshed_at_ms: number;
}

/** A JWKS URL a project trusts for the JWTs its endpoints and Data API accept (docs/api-rules.md §24). */
export interface JwksRecord {
  id: string;
  jwks_url: string;
  provider_name: string;
  /** Set when the key set applies to one branch only; otherwise to every branch. */
  branch_id?: string;
  jwt_audience?: string;
  role_names: string[];
  created_at_ms: number;
  updated_at_ms: number;
}

/** One deployment of a function: the archive it runs, and what its status derives from. */
export interface DeploymentRecord {
  /** The function's version number, counting from 1. */
  id: number;
  created_at_ms: number;
  /** How long it is pending; it then builds for twice as long (`opDurationMs` of `deploy_function`). */
  pending_ms?: number;
  runtime: string;
  /**
   * The SHA-256 (hex) of the archive as uploaded: its name in the object store, so deployments of the
   * same archive share its bytes. The previous deployment's when none was sent.
   */
  archive: string;
  /** The variables' names, sorted: all the API shows of them. */
  environment: string[];
  /**
   * The variables' values, which the API never shows, kept to run the deployment (as the service
   * keeps them). Absent in a record kept from before they were: it runs without its variables.
   */
  environment_values?: Record<string, string>;
  /** Why the build fails, when it does (an archive that is not a ZIP file, or has no entry module). */
  error?: string;
}

/** A function on a branch. */
export interface FunctionRecord {
  id: string;
  slug: string;
  /** The display name; undefined falls back to the slug. */
  name?: string;
  created_at_ms: number;
  deployments: DeploymentRecord[];
}

/** A trigger on a branch: a schedule or a bucket's uploads that invoke a function. */
export interface TriggerRecord {
  trigger_id: string;
  type: "schedule" | "storage_object_created";
  function_slug: string;
  name: string;
  function_path: string;
  cron?: string;
  bucket_name?: string;
  prefix?: string;
  enabled: boolean;
  version: number;
}

/** An OAuth provider of a branch's Auth; `standard` carries the team's own client. */
export interface AuthOauthProviderRecord {
  id: NeonAuthOauthProviderId;
  type: "standard" | "shared";
  client_id?: string;
  client_secret?: string;
  microsoft_tenant_id?: string;
}

/** A branch's Auth (docs/api-rules.md §23): what enabling it made and its settings. */
export interface BranchAuthRecord {
  auth_provider: NeonAuthSupportedAuthProvider;
  auth_provider_project_id: string;
  db_name: string;
  created_at_ms: number;
  /** The application name used in auth emails. */
  name: string;
  pub_client_key: string;
  secret_server_key: string;
  /** The key pair tokens are signed with: its id, and the private key as a JWK (the public part derives from it). */
  signing_key: { kid: string; private_jwk: Record<string, unknown> };
  domains: string[];
  allow_localhost: boolean;
  oauth_providers: AuthOauthProviderRecord[];
  /** The service's shared email provider, or the team's own SMTP server. */
  email_provider: NeonAuthEmailServerConfig;
  email_and_password: NeonAuthEmailAndPasswordConfig;
  organization: NeonAuthOrganizationConfig;
  magic_link: NeonAuthMagicLinkConfig;
  phone_number: { enabled: boolean; otp_expires_in: number };
  webhooks: { enabled: boolean; webhook_url?: string; enabled_events?: string[]; timeout_seconds: number };
  /** The users of the branch's user directory, by id. */
  users: Record<string, { email: string; name?: string; roles: string[]; created_at_ms: number }>;
}
