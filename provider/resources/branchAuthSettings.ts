/**
 * The settings of a branch's Auth (docs/api-rules.md §23): read from the API as the inputs name
 * them, compared as the service keeps them, and applied through each setting's own route with a
 * body of only what differs. The definition is `branchAuth.ts`.
 */
import { isDeepStrictEqual } from "node:util";
import type { AuthEmailProvider as ApiEmailProvider, AuthPlugins, CloudDbClient } from "../client";
import type { AuthEmailProvider, AuthOauthProvider, BranchAuthInputs } from "./public/branchAuth";

/** The settings of a branch's Auth, named as the inputs name them, read from the API. */
export type Settings = {
  [K in
    | "appName"
    | "trustedDomains"
    | "allowLocalhost"
    | "oauthProviders"
    | "emailProvider"
    | "emailAndPassword"
    | "plugins"
    | "webhooks"]-?: NonNullable<BranchAuthInputs[K]>;
};

/** The inputs a create or update sets: every settings input, given or not. */
export type Desired = { [K in keyof Settings]?: Settings[K] | undefined };

/** `https://app.example.com/x` -> `https://app.example.com`: the service trusts origins. */
const origin = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/** Whether every field `news` gives equals the one in `olds`. */
export function givenFieldsMatch(news: object | undefined, olds: unknown): boolean {
  if (news === undefined) return true;
  if (typeof olds !== "object" || olds === null) return false;
  return Object.entries(news).every(
    ([k, v]) => v === undefined || isDeepStrictEqual(v, (olds as Record<string, unknown>)[k]),
  );
}

/** Whether the OAuth providers `news` lists are exactly those of `olds`, with the clients it gives. */
export function sameOauth(news: AuthOauthProvider[] | undefined, olds: unknown): boolean {
  if (news === undefined) return true;
  if (!Array.isArray(olds) || olds.length !== news.length) return false;
  return news.every((n) =>
    givenFieldsMatch(
      n,
      olds.find((o: AuthOauthProvider) => o.id === n.id),
    ),
  );
}

export const sameDomains = (news: string[] | undefined, olds: unknown) =>
  news === undefined ||
  (Array.isArray(olds) &&
    isDeepStrictEqual([...new Set(news.map(origin))].sort(), [...(olds as string[])].map(origin).sort()));

function emailProviderOf(e: ApiEmailProvider): AuthEmailProvider {
  const out: AuthEmailProvider = { type: e.type === "standard" ? "standard" : "shared" };
  if (e.host !== undefined) out.host = e.host;
  if (e.port !== undefined) out.port = e.port;
  if (e.username !== undefined) out.username = e.username;
  if (e.password !== undefined) out.password = e.password;
  if (e.sender_email !== undefined) out.senderEmail = e.sender_email;
  if (e.sender_name !== undefined) out.senderName = e.sender_name;
  return out;
}

function pluginsOf(p: AuthPlugins): Settings["plugins"] {
  return {
    ...(p.magic_link
      ? { magicLinkEnabled: p.magic_link.enabled, magicLinkExpiresIn: p.magic_link.expires_in }
      : {}),
    ...(p.organization
      ? {
          organizationEnabled: p.organization.enabled,
          organizationLimit: p.organization.organization_limit,
          organizationMembershipLimit: p.organization.membership_limit,
        }
      : {}),
    ...(p.phone_number
      ? {
          phoneNumberEnabled: p.phone_number.enabled,
          ...(p.phone_number.otp_expires_in === undefined
            ? {}
            : { phoneNumberOtpExpiresIn: p.phone_number.otp_expires_in }),
        }
      : {}),
  };
}

/** The branch's Auth settings as they are now. */
export async function settingsOf(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  name: string,
): Promise<Settings> {
  const [domains, plugins, email, hooks] = await Promise.all([
    client.listBranchAuthDomains(projectId, branchId),
    client.getBranchAuthPlugins(projectId, branchId),
    client.getBranchAuthEmailProvider(projectId, branchId),
    client.getBranchAuthWebhooks(projectId, branchId),
  ]);
  const ep = plugins.email_and_password;
  return {
    appName: name,
    trustedDomains: domains,
    allowLocalhost: plugins.allow_localhost ?? false,
    oauthProviders: (plugins.oauth_providers ?? []).map((p) => ({
      id: p.id as AuthOauthProvider["id"],
      ...(p.client_id === undefined ? {} : { clientId: p.client_id }),
      ...(p.client_secret === undefined ? {} : { clientSecret: p.client_secret }),
    })),
    emailProvider: emailProviderOf(email),
    emailAndPassword: ep
      ? {
          enabled: ep.enabled,
          emailVerificationMethod: ep.email_verification_method === "link" ? "link" : "otp",
          requireEmailVerification: ep.require_email_verification,
          autoSignInAfterVerification: ep.auto_sign_in_after_verification,
          sendVerificationEmailOnSignUp: ep.send_verification_email_on_sign_up,
          sendVerificationEmailOnSignIn: ep.send_verification_email_on_sign_in,
          disableSignUp: ep.disable_sign_up,
        }
      : {},
    plugins: pluginsOf(plugins),
    webhooks: {
      enabled: hooks.enabled,
      ...(hooks.webhook_url === undefined ? {} : { url: hooks.webhook_url }),
      ...(hooks.enabled_events === undefined ? {} : { events: hooks.enabled_events }),
      ...(hooks.timeout_seconds === undefined ? {} : { timeoutSeconds: hooks.timeout_seconds }),
    },
  };
}

/** The fields of `news` that differ from `olds`, as a PATCH body named by `names`. */
function changed(news: object | undefined, olds: object, names: Record<string, string>) {
  const body: Record<string, unknown> = {};
  if (news === undefined) return body;
  const had = olds as Record<string, unknown>;
  for (const [k, v] of Object.entries(news)) {
    const name = names[k];
    if (v !== undefined && name !== undefined && !isDeepStrictEqual(v, had[k])) body[name] = v;
  }
  return body;
}

/** The client methods that change part of a group of settings. */
type PatchRoute =
  | "updateBranchAuthEmailAndPassword"
  | "updateBranchAuthMagicLink"
  | "updateBranchAuthOrganization"
  | "updateBranchAuthPhoneNumber";

/** Each input field of a settings group, by the API's name for it. */
const EMAIL_AND_PASSWORD_FIELDS = {
  enabled: "enabled",
  emailVerificationMethod: "email_verification_method",
  requireEmailVerification: "require_email_verification",
  autoSignInAfterVerification: "auto_sign_in_after_verification",
  sendVerificationEmailOnSignUp: "send_verification_email_on_sign_up",
  sendVerificationEmailOnSignIn: "send_verification_email_on_sign_in",
  disableSignUp: "disable_sign_up",
};
const MAGIC_LINK_FIELDS = { magicLinkEnabled: "enabled", magicLinkExpiresIn: "expires_in" };
const ORGANIZATION_FIELDS = {
  organizationEnabled: "enabled",
  organizationLimit: "organization_limit",
  organizationMembershipLimit: "membership_limit",
};
const PHONE_NUMBER_FIELDS = { phoneNumberEnabled: "enabled", phoneNumberOtpExpiresIn: "otp_expires_in" };

/** Makes the branch's Auth settings what `want` gives, from `have`; a setting `want` leaves out is kept. */
export async function applySettings(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  provider: string,
  want: Desired,
  have: Settings,
): Promise<void> {
  const auth_provider = provider as NonNullable<BranchAuthInputs["authProvider"]>;
  if (want.appName !== undefined && want.appName !== have.appName)
    await client.setBranchAuthName(projectId, branchId, want.appName);
  if (want.allowLocalhost !== undefined && want.allowLocalhost !== have.allowLocalhost)
    await client.setBranchAuthAllowLocalhost(projectId, branchId, want.allowLocalhost);
  if (want.trustedDomains !== undefined) {
    const wanted = new Set(want.trustedDomains.map(origin));
    const had = new Set(have.trustedDomains.map(origin));
    for (const domain of wanted)
      if (!had.has(domain)) await client.addBranchAuthDomain(projectId, branchId, { domain, auth_provider });
    const gone = [...had].filter((d) => !wanted.has(d));
    if (gone.length > 0)
      await client.removeBranchAuthDomains(projectId, branchId, {
        auth_provider,
        domains: gone.map((domain) => ({ domain })),
      });
  }
  if (want.oauthProviders !== undefined)
    await applyOauth(client, projectId, branchId, want.oauthProviders, have);
  if (want.emailProvider !== undefined && !givenFieldsMatch(want.emailProvider, have.emailProvider)) {
    const e = want.emailProvider;
    await client.setBranchAuthEmailProvider(
      projectId,
      branchId,
      e.type === "shared"
        ? {
            type: "shared",
            ...(e.senderEmail === undefined ? {} : { sender_email: e.senderEmail }),
            ...(e.senderName === undefined ? {} : { sender_name: e.senderName }),
          }
        : {
            type: "standard",
            host: e.host ?? "",
            port: e.port ?? 0,
            username: e.username ?? "",
            password: e.password ?? "",
            sender_email: e.senderEmail ?? "",
            sender_name: e.senderName ?? "",
          },
    );
  }
  // Each of these routes changes only the fields its body gives: a body of what differs.
  const patches: [object | undefined, object, Record<string, string>, PatchRoute][] = [
    [
      want.emailAndPassword,
      have.emailAndPassword,
      EMAIL_AND_PASSWORD_FIELDS,
      "updateBranchAuthEmailAndPassword",
    ],
    [want.plugins, have.plugins, MAGIC_LINK_FIELDS, "updateBranchAuthMagicLink"],
    [want.plugins, have.plugins, ORGANIZATION_FIELDS, "updateBranchAuthOrganization"],
    [want.plugins, have.plugins, PHONE_NUMBER_FIELDS, "updateBranchAuthPhoneNumber"],
  ];
  for (const [news, olds, names, method] of patches) {
    const body = changed(news, olds, names);
    const send = client[method] as (p: string, b: string, body: Record<string, unknown>) => Promise<void>;
    if (Object.keys(body).length > 0) await send(projectId, branchId, body);
  }
  const w = want.webhooks;
  if (w !== undefined && !givenFieldsMatch(w, have.webhooks)) {
    await client.setBranchAuthWebhooks(projectId, branchId, {
      enabled: w.enabled,
      ...(w.url === undefined ? {} : { webhook_url: w.url }),
      ...(w.events === undefined
        ? {}
        : {
            enabled_events: w.events as NonNullable<
              Parameters<CloudDbClient["setBranchAuthWebhooks"]>[2]["enabled_events"]
            >,
          }),
      ...(w.timeoutSeconds === undefined ? {} : { timeout_seconds: w.timeoutSeconds }),
    });
  }
}

/** Adds, changes and removes OAuth providers so the branch has exactly `want`. */
async function applyOauth(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  want: AuthOauthProvider[],
  have: Settings,
): Promise<void> {
  for (const p of have.oauthProviders) {
    const wanted = want.find((w) => w.id === p.id);
    // A provider going from the team's client back to the shared one is removed and added again.
    if (wanted === undefined || (wanted.clientId === undefined && p.clientId !== undefined))
      await client.removeBranchAuthOauthProvider(projectId, branchId, p.id);
  }
  for (const w of want) {
    const had = have.oauthProviders.find((p) => p.id === w.id);
    const body = {
      ...(w.clientId === undefined ? {} : { client_id: w.clientId }),
      ...(w.clientSecret === undefined ? {} : { client_secret: w.clientSecret }),
      ...(w.microsoftTenantId === undefined ? {} : { microsoft_tenant_id: w.microsoftTenantId }),
    };
    if (had === undefined || (w.clientId === undefined && had.clientId !== undefined))
      await client.addBranchAuthOauthProvider(projectId, branchId, { id: w.id, ...body });
    else if (!givenFieldsMatch(w, had))
      await client.updateBranchAuthOauthProvider(projectId, branchId, w.id, body);
  }
}
