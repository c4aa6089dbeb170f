import { z } from "zod";
import type { AuthKeys, CloudDbClient } from "../client";
import { isNotFound, NotFoundError } from "../client/errors";
import {
  applySettings,
  type Desired,
  givenFieldsMatch,
  type Settings,
  sameDomains,
  sameOauth,
  settingsOf,
} from "./branchAuthSettings";
import { type PartialFailure, ResourceError, unfinished } from "./errors";
import { hostLine } from "./host/progress";
import { requiredId } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  AUTH_PROVIDER,
  BRANCH_AUTH,
  type BranchAuthInputs,
  type BranchAuthOutputs,
} from "./public/branchAuth";

export type { BranchAuthInputs, BranchAuthOutputs } from "./public/branchAuth";

// ---------------------------------------------------------------- inputs

const OAUTH_IDS = ["google", "github", "microsoft", "vercel"] as const;

const OauthProviderSchema = z
  .object({
    id: z.enum(OAUTH_IDS, { error: `an OAuth provider's id is one of ${OAUTH_IDS.join(", ")}` }),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    microsoftTenantId: z.string().min(1).optional(),
  })
  .refine((p) => (p.clientId === undefined) === (p.clientSecret === undefined), {
    message:
      "give an OAuth provider both clientId and clientSecret (the team's own client), or neither (the shared one)",
  });

/** What a standard (SMTP) email provider must give, as its messages say it. */
const STANDARD_EMAIL_FIELDS = {
  host: "the SMTP server's host name",
  port: "the SMTP server's port, such as 587",
  username: "the SMTP user name",
  password: "the SMTP password (as a secret)",
  senderEmail: "the address mail is sent from, such as auth@example.com",
  senderName: 'the name mail is sent under, such as "Acme"',
} as const;

const EmailProviderSchema = z
  .object({
    type: z.enum(["shared", "standard"]),
    host: z.string().min(1).optional(),
    port: z.int().min(1).max(65535).optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    senderEmail: z.string().optional(),
    senderName: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    if (e.type !== "standard") return;
    // The service's standard (SMTP) sender requires all six fields; its refusal names none of them.
    for (const [field, what] of Object.entries(STANDARD_EMAIL_FIELDS)) {
      const value = e[field as keyof typeof STANDARD_EMAIL_FIELDS];
      if (value === undefined || (typeof value === "string" && value.trim() === "" && field !== "password"))
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `emailProvider.${field} is required for a standard email provider: give ${what} (or use type "shared", the service's own sender)`,
        });
    }
  });

/** Inputs as the provider sees them. */
export const BranchAuthInputsSchema = z.object({
  projectId: requiredId("projectId", "the project of the branch"),
  branchId: requiredId("branchId", "the branch Auth is enabled on"),
  authProvider: z.enum(AUTH_PROVIDER.enum).optional(),
  databaseName: z.string().min(1).optional(),
  appName: z.string().min(1).max(256).optional(),
  trustedDomains: z
    .array(z.url({ error: "a trusted domain is a URL such as https://app.example.com" }))
    .optional(),
  allowLocalhost: z.boolean().optional(),
  oauthProviders: z
    .array(OauthProviderSchema)
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, {
      message: "each OAuth provider is listed once",
    })
    .optional(),
  emailProvider: EmailProviderSchema.optional(),
  emailAndPassword: z
    .object({
      enabled: z.boolean().optional(),
      emailVerificationMethod: z.enum(["link", "otp"]).optional(),
      requireEmailVerification: z.boolean().optional(),
      autoSignInAfterVerification: z.boolean().optional(),
      sendVerificationEmailOnSignUp: z.boolean().optional(),
      sendVerificationEmailOnSignIn: z.boolean().optional(),
      disableSignUp: z.boolean().optional(),
    })
    .optional(),
  plugins: z
    .object({
      magicLinkEnabled: z.boolean().optional(),
      magicLinkExpiresIn: z.int().min(5).max(1440).optional(),
      organizationEnabled: z.boolean().optional(),
      organizationLimit: z.int().min(1).optional(),
      organizationMembershipLimit: z.int().min(1).optional(),
      phoneNumberEnabled: z.boolean().optional(),
      phoneNumberOtpExpiresIn: z.int().min(60).max(600).optional(),
    })
    .optional(),
  webhooks: z
    .object({
      enabled: z.boolean(),
      url: z.url().optional(),
      events: z.array(z.string()).optional(),
      timeoutSeconds: z.int().min(1).max(10).optional(),
    })
    .refine((w) => !w.enabled || w.url !== undefined, { message: "enabled webhooks need a url" })
    .optional(),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof BranchAuthInputsSchema>, BranchAuthInputs>;

// ---------------------------------------------------------------- outputs

/** Keys the API shows only when Auth is enabled: kept from the state afterwards. */
type Keys = Pick<BranchAuthOutputs, "pubClientKey" | "secretServerKey">;

const NO_KEYS: Keys = { pubClientKey: "", secretServerKey: "" };

/** The state of the branch's Auth as it is now. */
async function stateOf(
  client: CloudDbClient,
  inputs: BranchAuthInputs,
  keys: Keys,
): Promise<BranchAuthOutputs | undefined> {
  let integration: Awaited<ReturnType<CloudDbClient["getBranchAuth"]>>;
  try {
    integration = await client.getBranchAuth(inputs.projectId, inputs.branchId);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const settings = await settingsOf(client, inputs.projectId, inputs.branchId, integration.name ?? "");
  return {
    ...declaredInputs<BranchAuthInputs>(BranchAuthInputsSchema, inputs),
    ...settings,
    projectId: inputs.projectId,
    branchId: inputs.branchId,
    authProvider: integration.auth_provider as NonNullable<BranchAuthInputs["authProvider"]>,
    databaseName: integration.db_name,
    baseUrl: integration.base_url ?? "",
    jwksUrl: integration.jwks_url,
    ...keys,
    authProviderProjectId: integration.auth_provider_project_id,
    schemaName: "neon_auth",
    tableName: "users_sync",
  };
}

const keysOf = (k: AuthKeys): Keys => ({
  pubClientKey: k.pub_client_key,
  secretServerKey: k.secret_server_key,
});

/** The settings inputs of `inputs`. */
const desiredOf = (i: BranchAuthInputs): Desired => {
  const { projectId: _p, branchId: _b, authProvider: _a, databaseName: _d, ...settings } = i;
  return settings;
};

// ---------------------------------------------------------------- API calls

/**
 * Auth on a branch (docs/api-rules.md §23). A create enables it and sets the declared settings; a
 * branch that has Auth already (made from a parent with Auth, or by a create whose answer was lost)
 * is taken over: its settings are read, Auth is enabled again to receive keys (the API shows keys
 * only then; the users stay in the `neon_auth` schema), and the settings it had come back with the
 * declared ones over them. Each setting changes in place through its own route. A delete disables
 * Auth and keeps the schema. None starts an operation.
 */
export const branchAuthDefinition = defineResource<BranchAuthInputs, BranchAuthOutputs>(BRANCH_AUTH, {
  inputs: BranchAuthInputsSchema,
  same: {
    trustedDomains: sameDomains,
    oauthProviders: sameOauth,
    emailProvider: givenFieldsMatch,
    emailAndPassword: givenFieldsMatch,
    plugins: givenFieldsMatch,
    webhooks: givenFieldsMatch,
  },
  id: (outs) => `${outs.projectId}/${outs.branchId}`,
  onBranch: (props) => ({ projectId: props.projectId, branchId: props.branchId }),
  // A create that did not finish: the next `up` applies the settings and reads Auth again.
  stale: unfinishedCreate,

  async create({ client }, inputs) {
    const { projectId, branchId } = inputs;
    const existing = await client.getBranchAuth(projectId, branchId).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    let keys: AuthKeys;
    let kept: Settings | undefined;
    if (existing === undefined) {
      keys = await client.enableBranchAuth(projectId, branchId, {
        auth_provider: inputs.authProvider ?? "better_auth",
        ...(inputs.databaseName === undefined ? {} : { database_name: inputs.databaseName }),
      });
    } else {
      if (inputs.authProvider !== undefined && inputs.authProvider !== existing.auth_provider)
        throw new ResourceError(
          "UnexpectedObject",
          `branch ${branchId} has Auth with provider ${existing.auth_provider} already, not ${inputs.authProvider}: ` +
            "declare that provider, or disable its Auth (the console, or `neon neon-auth disable`) and run `pulumi up` again",
        );
      hostLine(
        `branch ${branchId} has Auth already (made with its parent, or by an interrupted run): ` +
          "it is enabled again to receive its keys, keeping its settings and users",
      );
      ({ keys, kept } = await enabledAgain(client, projectId, branchId, existing));
    }
    // Auth is enabled: a failure of any later step records it rather than leaving it outside the state.
    let state: BranchAuthOutputs | undefined;
    try {
      const have = await settingsAfterEnabling(client, projectId, branchId, keys.auth_provider, kept);
      await applySettings(client, projectId, branchId, keys.auth_provider, desiredOf(inputs), have);
      state = await stateOf(client, inputs, keysOf(keys));
    } catch (err) {
      throw unfinishedAuth(inputs, keys.auth_provider, err);
    }
    if (state === undefined)
      throw new ResourceError(
        "Missing",
        `Auth on branch ${branchId} was gone right after it was enabled: run \`pulumi up\` again`,
      );
    return state;
  },

  /** An existing Auth as the state records it; its keys are shown only when Auth is enabled, so they are empty. */
  async readExisting({ client }, inputs) {
    const state = await stateOf(client, inputs, NO_KEYS);
    if (state === undefined)
      throw new NotFoundError(
        `branch ${inputs.branchId} of project ${inputs.projectId} has no Auth: enable it, or declare a BranchAuth without importing`,
      );
    return state;
  },

  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    return stateOf(client, props, {
      pubClientKey: props.pubClientKey,
      secretServerKey: props.secretServerKey,
    });
  },

  async update({ client }, _id, outs, olds, news) {
    let keys: Keys = { pubClientKey: outs.pubClientKey, secretServerKey: outs.secretServerKey };
    let have: Settings;
    if (!unfinishedCreate(olds)) {
      // The declared settings go over the live ones (a change made outside since the last read
      // included), so the update leaves exactly what is declared and the state read back is true.
      have = await settingsOf(client, outs.projectId, outs.branchId, olds.appName ?? "");
    } else {
      // A create that did not finish recorded neither keys nor settings: Auth is enabled again to
      // receive its keys (its settings and users kept), and the declared settings go over them.
      const existing = await client.getBranchAuth(outs.projectId, outs.branchId).catch((err: unknown) => {
        throw isNotFound(err) ? goneAuth(outs.branchId) : err;
      });
      hostLine(
        `Auth on branch ${outs.branchId} did not finish its create: it is enabled again to receive its keys, ` +
          "keeping its settings and users",
      );
      const again = await enabledAgain(client, outs.projectId, outs.branchId, existing);
      keys = keysOf(again.keys);
      have = await settingsAfterEnabling(
        client,
        outs.projectId,
        outs.branchId,
        again.keys.auth_provider,
        again.kept,
      );
    }
    await applySettings(
      client,
      outs.projectId,
      outs.branchId,
      olds.authProvider ?? "better_auth",
      desiredOf(news),
      have,
    );
    const state = await stateOf(
      client,
      { ...news, projectId: outs.projectId, branchId: outs.branchId },
      keys,
    );
    if (state === undefined) throw goneAuth(outs.branchId);
    return state;
  },

  async remove({ client }, _id, props) {
    await client.disableBranchAuth(props.projectId, props.branchId, false);
  },
});

/** Whether the state is that of a create that stopped after enabling Auth (no JWKS address read yet). */
function unfinishedCreate(olds: BranchAuthOutputs): boolean {
  return olds.jwksUrl === "";
}

/**
 * The partial failure of a create that enabled Auth and failed after: recorded with neither keys
 * nor settings (a partial failure's properties are stored before secrets apply); the next `up`
 * enables Auth again to receive keys and applies the settings.
 */
function unfinishedAuth(inputs: BranchAuthInputs, authProvider: string, err: unknown): PartialFailure {
  const { projectId, branchId } = inputs;
  const ids = {
    projectId,
    branchId,
    ...(inputs.authProvider === undefined ? {} : { authProvider: inputs.authProvider }),
    ...(inputs.databaseName === undefined ? {} : { databaseName: inputs.databaseName }),
  };
  const outs = {
    ...ids,
    authProvider: authProvider as NonNullable<BranchAuthInputs["authProvider"]>,
    baseUrl: "",
    jwksUrl: "",
    ...NO_KEYS,
    authProviderProjectId: "",
    schemaName: "neon_auth",
    tableName: "users_sync",
  };
  return unfinished("Auth", `${projectId}/${branchId}`, ids, outs, err, ` on branch ${branchId}`);
}

const goneAuth = (branchId: string) =>
  new ResourceError(
    "Missing",
    `Auth on branch ${branchId} is gone: run \`pulumi refresh\`, then \`pulumi up\``,
  );

type ExistingAuth = Awaited<ReturnType<CloudDbClient["getBranchAuth"]>>;

/**
 * Auth that exists, disabled and enabled again to receive keys (the API shows them only then; the
 * users stay in the `neon_auth` schema): its keys, and the settings it had, which enabling resets.
 */
async function enabledAgain(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  existing: ExistingAuth,
): Promise<{ keys: AuthKeys; kept: Settings }> {
  const kept = await settingsOf(client, projectId, branchId, existing.name ?? "");
  await client.disableBranchAuth(projectId, branchId, false);
  const keys = await client.enableBranchAuth(projectId, branchId, {
    auth_provider: existing.auth_provider as NonNullable<BranchAuthInputs["authProvider"]>,
    database_name: existing.db_name,
  });
  return { keys, kept };
}

/** The settings Auth has right after enabling, with those it had before (`kept`) set again. */
async function settingsAfterEnabling(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  authProvider: string,
  kept: Settings | undefined,
): Promise<Settings> {
  const have = await settingsOf(client, projectId, branchId, "");
  if (kept === undefined) return have;
  await applySettings(client, projectId, branchId, authProvider, kept, have);
  return settingsOf(client, projectId, branchId, kept.appName);
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(branchAuthDefinition);
