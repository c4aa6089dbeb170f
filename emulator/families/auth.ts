import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { badRequest, HttpError, notFound } from "../errors";
import type { AuthOauthProviderRecord, BranchAuthRecord, BranchRecord, ProjectRecord } from "../records";
import { holdOnBranch } from "./branch-data";

// A branch's Auth (docs/api-rules.md §23): enabling it makes a provider project with its keys and
// a signing key pair, and the settings the routes change. A child branch starts with a copy of
// its parent's settings and a provider project, keys and key pair of its own.

declare module "../records" {
  interface BranchData {
    /** The branch's Auth, when it is enabled: its provider project, keys and settings. */
    auth?: BranchAuthRecord;
    /** The users of the `neon_auth` schema Auth left when it was disabled without `delete_data`; enabling it again finds them. */
    auth_users?: BranchAuthRecord["users"];
  }
}

// A child's Auth is its parent's with an identity of its own; a branch preserved by a restore is a
// copy of the data, so it keeps the users the schema holds but not the Auth, a setting of the branch.
holdOnBranch({ field: "auth", toChild: (auth, { now }) => inheritAuth(auth, now), preserved: false });
holdOnBranch({ field: "auth_users", toChild: false, preserved: true });

/** The OAuth providers a new Auth starts with: the service's shared Google and GitHub clients. */
const DEFAULT_OAUTH: AuthOauthProviderRecord[] = [
  { id: "google", type: "shared" },
  { id: "github", type: "shared" },
];

const conflict = (message: string) => new HttpError(409, message);

const key = (prefix: string) => `${prefix}_${randomBytes(24).toString("base64url")}`;

/** A new EC P-256 key pair, its private half as a JWK. */
function signingKey(): BranchAuthRecord["signing_key"] {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    kid: randomBytes(8).toString("hex"),
    private_jwk: privateKey.export({ format: "jwk" }) as Record<string, unknown>,
  };
}

/** What a provider project of its own is made of: its id, keys and signing key pair. */
function identity(): Pick<
  BranchAuthRecord,
  "auth_provider_project_id" | "pub_client_key" | "secret_server_key" | "signing_key"
> {
  return {
    auth_provider_project_id: crypto.randomUUID(),
    pub_client_key: key("pck"),
    secret_server_key: key("ssk"),
    signing_key: signingKey(),
  };
}

/** The branch's Auth; 404 naming the branch when it has none. */
export function authOf(branch: BranchRecord): BranchAuthRecord {
  if (branch.auth === undefined)
    throw notFound(
      `Auth is not enabled on branch ${branch.id}: enable it with POST /projects/${branch.project_id}/branches/${branch.id}/auth`,
    );
  return branch.auth;
}

/** Enables Auth on the branch; 409 when it is on, 404 naming a database the branch lacks. */
export function enableAuth(
  project: ProjectRecord,
  branch: BranchRecord,
  provider: BranchAuthRecord["auth_provider"],
  databaseName: string | undefined,
  nowMs: number,
): BranchAuthRecord {
  if (branch.auth !== undefined)
    throw conflict(
      `Auth is already enabled on branch ${branch.id} with provider ${branch.auth.auth_provider}; disable it first to change the provider or database`,
    );
  const dbName = databaseName ?? branch.databases[0]?.name;
  if (dbName === undefined)
    throw badRequest(`branch ${branch.id} has no database to hold the neon_auth schema`);
  if (!branch.databases.some((d) => d.name === dbName))
    throw notFound(`database ${dbName} not found on branch ${branch.id}`);
  branch.auth = {
    auth_provider: provider,
    ...identity(),
    db_name: dbName,
    created_at_ms: nowMs,
    name: project.name,
    domains: [],
    allow_localhost: true,
    oauth_providers: DEFAULT_OAUTH.map((p) => ({ ...p })),
    email_provider: { type: "shared" },
    email_and_password: {
      enabled: true,
      email_verification_method: "otp",
      require_email_verification: false,
      auto_sign_in_after_verification: true,
      send_verification_email_on_sign_up: false,
      send_verification_email_on_sign_in: false,
      disable_sign_up: false,
    },
    organization: {
      enabled: false,
      organization_limit: 10,
      membership_limit: 100,
      creator_role: "owner",
      send_invitation_email: false,
    },
    magic_link: { enabled: false, expires_in: 5, disable_sign_up: false },
    phone_number: { enabled: false, otp_expires_in: 300 },
    webhooks: { enabled: false, timeout_seconds: 5 },
    users: branch.auth_users ?? {},
  };
  delete branch.auth_users;
  return branch.auth;
}

/** Disables the branch's Auth; its users stay in the `neon_auth` schema unless `deleteData`. */
export function disableAuth(branch: BranchRecord, deleteData: boolean): void {
  const auth = authOf(branch);
  if (deleteData) delete branch.auth_users;
  else branch.auth_users = auth.users;
  delete branch.auth;
}

/**
 * A child's Auth: the parent's settings and users (its data is copied), with a provider project,
 * keys and signing key pair of its own, so a token of one branch never verifies on another.
 */
export function inheritAuth(parent: BranchAuthRecord, nowMs: number): BranchAuthRecord {
  return { ...structuredClone(parent), ...identity(), created_at_ms: nowMs };
}

/** The public half of the branch's signing key, as a JWKS entry. */
export function publicJwk(auth: BranchAuthRecord): Record<string, unknown> {
  const { private_jwk, kid } = auth.signing_key;
  const jwk = createPublicKey({ key: private_jwk as never, format: "jwk" }).export({ format: "jwk" });
  return { ...jwk, kid, alg: "ES256", use: "sig" };
}

/** The branch's Auth whose provider project has this id, on a live branch. */
export function findAuthByProviderProject(
  branches: Iterable<BranchRecord>,
  providerProjectId: string,
): BranchAuthRecord | undefined {
  for (const b of branches) {
    if (b.deleted_at_ms === undefined && b.auth?.auth_provider_project_id === providerProjectId)
      return b.auth;
  }
  return undefined;
}

/** Adds a trusted domain (its origin); adding one already there changes nothing. */
export function addDomain(auth: BranchAuthRecord, domain: string): void {
  let origin: string;
  try {
    origin = new URL(domain).origin;
  } catch {
    throw badRequest(`domain ${JSON.stringify(domain)} is not a URL: give one like https://app.example.com`);
  }
  if (!auth.domains.includes(origin)) auth.domains.push(origin);
}

/** Removes the trusted domains; one that is not there is ignored. */
export function removeDomains(auth: BranchAuthRecord, domains: string[]): void {
  const gone = new Set(domains.map((d) => (URL.canParse(d) ? new URL(d).origin : d)));
  auth.domains = auth.domains.filter((d) => !gone.has(d));
}

/** The OAuth provider; 404 naming the ones the branch has. */
export function oauthProviderOf(auth: BranchAuthRecord, id: string): AuthOauthProviderRecord {
  const provider = auth.oauth_providers.find((p) => p.id === id);
  if (!provider)
    throw notFound(
      `OAuth provider ${id} is not configured (configured: ${auth.oauth_providers.map((p) => p.id).join(", ") || "none"})`,
    );
  return provider;
}

/** Adds an OAuth provider: with a client id and secret it is the team's own (`standard`), else the shared one. */
export function addOauthProvider(
  auth: BranchAuthRecord,
  body: {
    id: AuthOauthProviderRecord["id"];
    client_id?: string;
    client_secret?: string;
    microsoft_tenant_id?: string;
  },
): AuthOauthProviderRecord {
  if (auth.oauth_providers.some((p) => p.id === body.id))
    throw conflict(`OAuth provider ${body.id} is already configured; change it with PATCH instead`);
  if ((body.client_id === undefined) !== (body.client_secret === undefined))
    throw badRequest(
      `OAuth provider ${body.id} needs both client_id and client_secret, or neither for the shared client`,
    );
  const provider: AuthOauthProviderRecord = {
    id: body.id,
    type: body.client_id === undefined ? "shared" : "standard",
    ...(body.client_id === undefined ? {} : { client_id: body.client_id }),
    ...(body.client_secret === undefined ? {} : { client_secret: body.client_secret }),
    ...(body.microsoft_tenant_id === undefined ? {} : { microsoft_tenant_id: body.microsoft_tenant_id }),
  };
  auth.oauth_providers.push(provider);
  return provider;
}

/** Changes an OAuth provider's client; giving a client makes it the team's own. */
export function updateOauthProvider(
  auth: BranchAuthRecord,
  id: string,
  body: { client_id?: string; client_secret?: string; microsoft_tenant_id?: string },
): AuthOauthProviderRecord {
  const provider = oauthProviderOf(auth, id);
  Object.assign(provider, body);
  if (provider.client_id !== undefined && provider.client_secret !== undefined) provider.type = "standard";
  return provider;
}

/** Removes an OAuth provider. */
export function removeOauthProvider(auth: BranchAuthRecord, id: string): void {
  oauthProviderOf(auth, id);
  auth.oauth_providers = auth.oauth_providers.filter((p) => p.id !== id);
}

/** Adds a user to the branch's directory; 409 when the email is taken. */
export function addUser(
  auth: BranchAuthRecord,
  email: string,
  name: string | undefined,
  nowMs: number,
): string {
  const lower = email.toLowerCase();
  if (Object.values(auth.users).some((u) => u.email.toLowerCase() === lower))
    throw conflict(`a user with email ${email} already exists`);
  const id = crypto.randomUUID();
  auth.users[id] = { email, ...(name === undefined ? {} : { name }), roles: ["user"], created_at_ms: nowMs };
  return id;
}

/** The user of the branch's directory; 404 otherwise. */
export function userOf(auth: BranchAuthRecord, id: string): BranchAuthRecord["users"][string] {
  const user = auth.users[id];
  if (!user) throw notFound(`user ${id} not found in the branch's Auth`);
  return user;
}
