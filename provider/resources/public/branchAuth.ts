/**
 * The public part of {@link BranchAuth}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, API calls) is `../branchAuth.ts`, loaded only in the provider
 * process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { secret } from "@pulumi/pulumi/output";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { arrayOf, BOOLEAN, declareResource, enumOf, INTEGER, objectType, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf } from "./shapes";

/** Who runs a branch's Auth: `better_auth` (the default), or the older `stack`; `mock` for tests. */
export const AUTH_PROVIDER = enumOf("AuthProvider", ["better_auth", "stack", "mock"]);

/** An OAuth provider a branch's Auth offers sign-in with. */
export const AUTH_OAUTH_PROVIDER_TYPE = objectType("AuthOauthProvider", {
  /** `google`, `github`, `microsoft` or `vercel`. */
  id: { type: enumOf("AuthOauthProviderId", ["google", "github", "microsoft", "vercel"]) },
  /** The team's own OAuth client id; left out with `clientSecret`, the service's shared client is used. */
  clientId: { type: STRING, optional: true },
  /** The team's own OAuth client secret: pass it as a Pulumi secret. */
  clientSecret: { type: STRING, optional: true },
  /** The Microsoft tenant, for `microsoft`. */
  microsoftTenantId: { type: STRING, optional: true },
});

/** An OAuth provider of a branch's Auth. */
export interface AuthOauthProvider extends ObjectOf<typeof AUTH_OAUTH_PROVIDER_TYPE.properties> {}

/** Where a branch's Auth sends its mail from: the service's shared sender, or the team's SMTP server. */
export const AUTH_EMAIL_PROVIDER_TYPE = objectType("AuthEmailProvider", {
  /** `shared` (the service's sender) or `standard` (the SMTP server below). */
  type: { type: enumOf("AuthEmailProviderType", ["shared", "standard"]) },
  /** The SMTP host, for `standard`. */
  host: { type: STRING, optional: true },
  /** The SMTP port, for `standard`. */
  port: { type: INTEGER, optional: true },
  /** The SMTP user name, for `standard`. */
  username: { type: STRING, optional: true },
  /** The SMTP password, for `standard`: pass it as a Pulumi secret. */
  password: { type: STRING, optional: true },
  /** The sender's address: required for `standard`, optional for `shared`. */
  senderEmail: { type: STRING, optional: true },
  /** The sender's name: required for `standard`, optional for `shared`. */
  senderName: { type: STRING, optional: true },
});

/** The email provider of a branch's Auth. */
export interface AuthEmailProvider extends ObjectOf<typeof AUTH_EMAIL_PROVIDER_TYPE.properties> {}

/** Sign-in with an email and a password; a setting left out keeps what the branch has. */
export const AUTH_EMAIL_AND_PASSWORD_TYPE = objectType("AuthEmailAndPassword", {
  /** Whether users sign in with an email and a password. */
  enabled: { type: BOOLEAN, optional: true },
  /** `link` or `otp`: how an email is verified. */
  emailVerificationMethod: { type: enumOf("AuthEmailVerificationMethod", ["link", "otp"]), optional: true },
  /** Whether an email must be verified before its user signs in. */
  requireEmailVerification: { type: BOOLEAN, optional: true },
  /** Whether verifying an email signs its user in. */
  autoSignInAfterVerification: { type: BOOLEAN, optional: true },
  /** Whether signing up sends a verification email. */
  sendVerificationEmailOnSignUp: { type: BOOLEAN, optional: true },
  /** Whether signing in sends a verification email. */
  sendVerificationEmailOnSignIn: { type: BOOLEAN, optional: true },
  /** Whether new users are refused. */
  disableSignUp: { type: BOOLEAN, optional: true },
});

/** The plugins of a branch's Auth; a plugin or setting left out keeps what the branch has. */
export const AUTH_PLUGINS_TYPE = objectType("AuthPlugins", {
  /** Whether passwordless sign-in by an emailed link is on. */
  magicLinkEnabled: { type: BOOLEAN, optional: true },
  /** Minutes a magic link lasts, 5 to 1440. */
  magicLinkExpiresIn: { type: INTEGER, optional: true },
  /** Whether the organization plugin (teams of users) is on. */
  organizationEnabled: { type: BOOLEAN, optional: true },
  /** How many organizations a user may create. */
  organizationLimit: { type: INTEGER, optional: true },
  /** How many members an organization may have. */
  organizationMembershipLimit: { type: INTEGER, optional: true },
  /** Whether sign-in with a one-time code sent to a phone is on. */
  phoneNumberEnabled: { type: BOOLEAN, optional: true },
  /** Seconds a phone code lasts, 60 to 600. */
  phoneNumberOtpExpiresIn: { type: INTEGER, optional: true },
});

/** Where a branch's Auth sends its events. */
export const AUTH_WEBHOOKS_TYPE = objectType("AuthWebhooks", {
  /** Whether events are sent. */
  enabled: { type: BOOLEAN },
  /** The URL the events are posted to; required when enabled. */
  url: { type: STRING, optional: true },
  /** The events sent (`user.created`, `send.otp`, ...); left out, the service's default. */
  events: { type: arrayOf(STRING), optional: true },
  /** Seconds the endpoint has to answer, 1 to 10 (5 when left out). */
  timeoutSeconds: { type: INTEGER, optional: true },
});

/** Auth on a branch, declared. */
export const BRANCH_AUTH = declareResource({
  type: "BranchAuth",
  noun: "branch Auth",
  family: "auth",
  importId: ["projectId", "branchId"],
  inputs: {
    /** The project. Changing it replaces the resource. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch Auth is enabled on. Changing it replaces the resource. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** Who runs the Auth, `better_auth` when left out. Changing it replaces the resource (new keys, no users). */
    authProvider: { type: AUTH_PROVIDER, change: "replace", computed: true },
    /** The database holding the `neon_auth` schema; the branch's first database when left out. Changing it replaces the resource. */
    databaseName: { type: STRING, change: "replace", computed: true },
    /** The application name used in auth emails; the project's name when left out. */
    appName: { type: STRING, change: "update", computed: true },
    /** The origins users may be sent back to after signing in (`https://app.example.com`). */
    trustedDomains: { type: arrayOf(STRING), change: "update", computed: true },
    /** Whether sign-in flows work from `localhost` without trusting it. */
    allowLocalhost: { type: BOOLEAN, change: "update", computed: true },
    /** The OAuth providers, each once; given, the list is the whole set (a provider left out is removed). */
    oauthProviders: { type: arrayOf(AUTH_OAUTH_PROVIDER_TYPE), change: "update", computed: true },
    /** Where auth emails are sent from. */
    emailProvider: { type: AUTH_EMAIL_PROVIDER_TYPE, change: "update", computed: true },
    /** Sign-in with an email and a password. */
    emailAndPassword: { type: AUTH_EMAIL_AND_PASSWORD_TYPE, change: "update", computed: true },
    /** The magic-link, organization and phone-number plugins. */
    plugins: { type: AUTH_PLUGINS_TYPE, change: "update", computed: true },
    /** Where auth events are posted. */
    webhooks: { type: AUTH_WEBHOOKS_TYPE, change: "update", computed: true },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The Auth's base URL, the one an app's auth client is given. */
    baseUrl: { type: STRING },
    /** The URL of the key set that verifies the Auth's tokens. */
    jwksUrl: { type: STRING },
    /** The publishable key an app's browser code uses: a Pulumi secret. */
    pubClientKey: { type: STRING, secret: true },
    /** The server key an app's backend uses: a Pulumi secret. */
    secretServerKey: { type: STRING, secret: true },
    /** The Auth's project at its provider. */
    authProviderProjectId: { type: STRING },
    /** The schema holding the users (`neon_auth`). */
    schemaName: { type: STRING },
    /** The table of users in it (`users_sync`). */
    tableName: { type: STRING },
    /** The OAuth providers as the API last reported them, client secrets included: a Pulumi secret. */
    oauthProviders: { type: arrayOf(AUTH_OAUTH_PROVIDER_TYPE), secret: true },
    /** The email provider as the API last reported it, its password included: a Pulumi secret. */
    emailProvider: { type: AUTH_EMAIL_PROVIDER_TYPE, secret: true },
  },
});

/** Inputs of a {@link BranchAuth}. */
export interface BranchAuthArgs extends ArgsOf<typeof BRANCH_AUTH> {}

/** The plain inputs as the provider sees them. */
export interface BranchAuthInputs extends InputsOf<typeof BRANCH_AUTH> {}

/** Everything the state records of a branch's Auth. The keys, client secrets and SMTP password are Pulumi secrets. */
export interface BranchAuthOutputs extends StateOf<typeof BRANCH_AUTH> {}

/** The dynamic provider of {@link BranchAuth}: it loads `../branchAuth` when called (see `lazyProvider`). */
export const branchAuthProvider: pulumi.dynamic.ResourceProvider<BranchAuthInputs, BranchAuthOutputs> =
  lazyProvider(BRANCH_AUTH.type);

// The class's fields: one Output per declared output.
export interface BranchAuth extends OutputFields<typeof BRANCH_AUTH> {}

/**
 * Auth on a branch: enabled with a provider, its trusted domains, OAuth providers, email provider,
 * email-and-password settings, plugins, webhooks and localhost access, each changed in place; the
 * outputs are what an app needs (base URL, JWKS URL, publishable and server keys, both secrets). A
 * branch made from a parent with Auth starts with the parent's settings: a BranchAuth on it takes
 * that Auth over, keeps the settings it does not declare, and receives keys of its own. Destroying
 * it disables Auth and keeps the `neon_auth` schema. `pulumi import` takes `<projectId>/<branchId>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class BranchAuth extends DynamicResource {
  constructor(name: string, args: BranchAuthArgs, opts?: pulumi.CustomResourceOptions) {
    // The OAuth client secrets and the SMTP password are inputs too: kept encrypted in the state
    // even when the program gives them as plain strings.
    const { oauthProviders, emailProvider } = args;
    super(
      BRANCH_AUTH,
      name,
      {
        ...args,
        ...(oauthProviders === undefined ? {} : { oauthProviders: secret(oauthProviders) }),
        ...(emailProvider === undefined ? {} : { emailProvider: secret(emailProvider) }),
      },
      opts,
    );
  }
}
