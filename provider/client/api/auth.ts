/**
 * A branch's Auth (docs/api-rules.md §23): enabling and disabling it, and each group of its
 * settings, on the branch-level routes. None starts an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { apiRoute } from "../path";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  AuthDomainsSchema,
  AuthEmailAndPasswordSchema,
  type AuthEmailProvider,
  AuthEmailProviderSchema,
  type AuthIntegration,
  AuthIntegrationSchema,
  type AuthKeys,
  AuthKeysSchema,
  AuthMagicLinkSchema,
  type AuthOauthProvider,
  AuthOauthProviderSchema,
  AuthOrganizationSchema,
  AuthPhoneNumberSchema,
  type AuthPlugins,
  AuthPluginsSchema,
  type AuthWebhooks,
  AuthWebhooksSchema,
} from "../schemas";

const NO_BODY = z.unknown();
const B = "/projects/{project_id}/branches/{branch_id}/auth";
type R<K extends keyof Requests> = Requests[K];

/** A route of the branch's Auth: `B` and `sub`. */
const at = (projectId: string, branchId: string, sub = "", extra: Record<string, string> = {}) =>
  apiRoute(`${B}${sub}`, { project_id: projectId, branch_id: branchId, ...extra });

/** `POST .../auth`: enables Auth on the branch; 409 when it is on already. The answer's keys are secrets. */
export function enableBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${typeof B}`>["Body"],
): Promise<AuthKeys> {
  return send(ctx.request, { method: "POST", route: at(projectId, branchId), body, schema: AuthKeysSchema });
}

/** `GET .../auth`: the branch's Auth integration; 404 when Auth is off. */
export function getBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthIntegration> {
  return send(ctx.request, { method: "GET", route: at(projectId, branchId), schema: AuthIntegrationSchema });
}

/** `DELETE .../auth`: disables Auth; `deleteData` also drops the `neon_auth` schema. */
export async function disableBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  deleteData = false,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: at(projectId, branchId),
    body: { delete_data: deleteData } satisfies R<`DELETE ${typeof B}`>["Body"],
    schema: NO_BODY,
  });
}

/** `PATCH .../auth/config`: the application name used in auth emails. */
export async function setBranchAuthName(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  name: string,
) {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/config"),
    body: { name } satisfies R<`PATCH ${typeof B}/config`>["Body"],
    schema: z.looseObject({ name: z.string() }),
  });
}

/** `PATCH .../auth/allow_localhost`. */
export async function setBranchAuthAllowLocalhost(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  allow: boolean,
): Promise<void> {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/allow_localhost"),
    body: { allow_localhost: allow } satisfies R<`PATCH ${typeof B}/allow_localhost`>["Body"],
    schema: z.looseObject({ allow_localhost: z.boolean() }),
  });
}

/** `GET .../auth/domains`: the trusted domains. */
export async function listBranchAuthDomains(ctx: ClientContext, projectId: string, branchId: string) {
  const body = await send(ctx.request, {
    method: "GET",
    route: at(projectId, branchId, "/domains"),
    schema: AuthDomainsSchema,
  });
  return body.domains.map((d) => d.domain);
}

/** `POST .../auth/domains`: trusts a domain. */
export async function addBranchAuthDomain(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${typeof B}/domains`>["Body"],
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "POST",
    route: at(projectId, branchId, "/domains"),
    body,
    schema: NO_BODY,
  });
}

/** `DELETE .../auth/domains`: stops trusting the domains. */
export async function removeBranchAuthDomains(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`DELETE ${typeof B}/domains`>["Body"],
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: at(projectId, branchId, "/domains"),
    body,
    schema: NO_BODY,
  });
}

/** `GET .../auth/plugins`: the plugins, email-and-password, OAuth providers and localhost, in one answer. */
export function getBranchAuthPlugins(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthPlugins> {
  return send(ctx.request, {
    method: "GET",
    route: at(projectId, branchId, "/plugins"),
    schema: AuthPluginsSchema,
  });
}

/** `POST .../auth/oauth_providers`: adds an OAuth provider (with a client, the team's own). */
export function addBranchAuthOauthProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${typeof B}/oauth_providers`>["Body"],
): Promise<AuthOauthProvider> {
  return send(ctx.request, {
    method: "POST",
    route: at(projectId, branchId, "/oauth_providers"),
    body,
    schema: AuthOauthProviderSchema,
  });
}

/** `PATCH .../auth/oauth_providers/{id}`: changes an OAuth provider's client. */
export function updateBranchAuthOauthProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  id: string,
  body: R<`PATCH ${typeof B}/oauth_providers/{oauth_provider_id}`>["Body"],
): Promise<AuthOauthProvider> {
  return send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/oauth_providers/{oauth_provider_id}", { oauth_provider_id: id }),
    body,
    schema: AuthOauthProviderSchema,
  });
}

/** `DELETE .../auth/oauth_providers/{id}`: removes an OAuth provider. */
export async function removeBranchAuthOauthProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  id: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, {
    method: "DELETE",
    route: at(projectId, branchId, "/oauth_providers/{oauth_provider_id}", { oauth_provider_id: id }),
    schema: NO_BODY,
  });
}

/** `GET .../auth/email_provider`. */
export function getBranchAuthEmailProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthEmailProvider> {
  return send(ctx.request, {
    method: "GET",
    route: at(projectId, branchId, "/email_provider"),
    schema: AuthEmailProviderSchema,
  });
}

/** `PATCH .../auth/email_provider`: the shared provider or the team's SMTP server. */
export function setBranchAuthEmailProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${typeof B}/email_provider`>["Body"],
): Promise<AuthEmailProvider> {
  return send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/email_provider"),
    body,
    schema: AuthEmailProviderSchema,
  });
}

/** `PATCH .../auth/email_and_password`: only the fields given change. */
export async function updateBranchAuthEmailAndPassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${typeof B}/email_and_password`>["Body"],
): Promise<void> {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/email_and_password"),
    body,
    schema: AuthEmailAndPasswordSchema,
  });
}

/** `PATCH .../auth/plugins/magic-link`: only the fields given change. */
export async function updateBranchAuthMagicLink(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${typeof B}/plugins/magic-link`>["Body"],
): Promise<void> {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/plugins/magic-link"),
    body,
    schema: AuthMagicLinkSchema,
  });
}

/** `PATCH .../auth/plugins/organization`: only the fields given change. */
export async function updateBranchAuthOrganization(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${typeof B}/plugins/organization`>["Body"],
): Promise<void> {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/plugins/organization"),
    body,
    schema: AuthOrganizationSchema,
  });
}

/** `PATCH .../auth/plugins/phone-number`: only the fields given change. */
export async function updateBranchAuthPhoneNumber(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${typeof B}/plugins/phone-number`>["Body"],
): Promise<void> {
  await send(ctx.request, {
    method: "PATCH",
    route: at(projectId, branchId, "/plugins/phone-number"),
    body,
    schema: AuthPhoneNumberSchema,
  });
}

/** `GET .../auth/webhooks`. */
export function getBranchAuthWebhooks(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthWebhooks> {
  return send(ctx.request, {
    method: "GET",
    route: at(projectId, branchId, "/webhooks"),
    schema: AuthWebhooksSchema,
  });
}

/** `PUT .../auth/webhooks`: the whole webhook setting; what the body leaves out is cleared. */
export function setBranchAuthWebhooks(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PUT ${typeof B}/webhooks`>["Body"],
): Promise<AuthWebhooks> {
  return send(ctx.request, {
    method: "PUT",
    route: at(projectId, branchId, "/webhooks"),
    body,
    schema: AuthWebhooksSchema,
  });
}
