/**
 * A branch's Auth (docs/api-rules.md §23): enabling and disabling it, and each group of its
 * settings, on the branch-level routes. None starts an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
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
type B = "/projects/{project_id}/branches/{branch_id}/auth";
type R<K extends keyof Requests> = Requests[K];

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });

/** `POST .../auth`: enables Auth on the branch; 409 when it is on already. The answer's keys are secrets. */
export function enableBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${B}`>["Body"],
): Promise<AuthKeys> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/auth", {
    params: branch(projectId, branchId),
    body,
    schema: AuthKeysSchema,
  });
}

/** `GET .../auth`: the branch's Auth integration; 404 when Auth is off. */
export function getBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthIntegration> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/auth", {
    params: branch(projectId, branchId),
    schema: AuthIntegrationSchema,
  });
}

/** `DELETE .../auth`: disables Auth; `deleteData` also drops the `neon_auth` schema. */
export async function disableBranchAuth(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  deleteData = false,
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/branches/{branch_id}/auth", {
    params: branch(projectId, branchId),
    body: { delete_data: deleteData },
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
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/config", {
    params: branch(projectId, branchId),
    body: { name },
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
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost", {
    params: branch(projectId, branchId),
    body: { allow_localhost: allow },
    schema: z.looseObject({ allow_localhost: z.boolean() }),
  });
}

/** `GET .../auth/domains`: the trusted domains. */
export async function listBranchAuthDomains(ctx: ClientContext, projectId: string, branchId: string) {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/auth/domains", {
    params: branch(projectId, branchId),
    schema: AuthDomainsSchema,
  });
  return body.domains.map((d) => d.domain);
}

/** `POST .../auth/domains`: trusts a domain. */
export async function addBranchAuthDomain(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${B}/domains`>["Body"],
): Promise<void> {
  await sendOrEmpty(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/auth/domains", {
    params: branch(projectId, branchId),
    body,
    schema: NO_BODY,
  });
}

/** `DELETE .../auth/domains`: stops trusting the domains. */
export async function removeBranchAuthDomains(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`DELETE ${B}/domains`>["Body"],
): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains", {
    params: branch(projectId, branchId),
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
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/auth/plugins", {
    params: branch(projectId, branchId),
    schema: AuthPluginsSchema,
  });
}

/** `POST .../auth/oauth_providers`: adds an OAuth provider (with a client, the team's own). */
export function addBranchAuthOauthProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`POST ${B}/oauth_providers`>["Body"],
): Promise<AuthOauthProvider> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers", {
    params: branch(projectId, branchId),
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
  body: R<`PATCH ${B}/oauth_providers/{oauth_provider_id}`>["Body"],
): Promise<AuthOauthProvider> {
  return send(
    ctx.request,
    "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
    {
      params: { ...branch(projectId, branchId), oauth_provider_id: id },
      body,
      schema: AuthOauthProviderSchema,
    },
  );
}

/** `DELETE .../auth/oauth_providers/{id}`: removes an OAuth provider. */
export async function removeBranchAuthOauthProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  id: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
    {
      params: { ...branch(projectId, branchId), oauth_provider_id: id },
      schema: NO_BODY,
    },
  );
}

/** `GET .../auth/email_provider`. */
export function getBranchAuthEmailProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<AuthEmailProvider> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/auth/email_provider", {
    params: branch(projectId, branchId),
    schema: AuthEmailProviderSchema,
  });
}

/** `PATCH .../auth/email_provider`: the shared provider or the team's SMTP server. */
export function setBranchAuthEmailProvider(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${B}/email_provider`>["Body"],
): Promise<AuthEmailProvider> {
  return send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider", {
    params: branch(projectId, branchId),
    body,
    schema: AuthEmailProviderSchema,
  });
}

/** `PATCH .../auth/email_and_password`: only the fields given change. */
export async function updateBranchAuthEmailAndPassword(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${B}/email_and_password`>["Body"],
): Promise<void> {
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password", {
    params: branch(projectId, branchId),
    body,
    schema: AuthEmailAndPasswordSchema,
  });
}

/** `PATCH .../auth/plugins/magic-link`: only the fields given change. */
export async function updateBranchAuthMagicLink(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${B}/plugins/magic-link`>["Body"],
): Promise<void> {
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link", {
    params: branch(projectId, branchId),
    body,
    schema: AuthMagicLinkSchema,
  });
}

/** `PATCH .../auth/plugins/organization`: only the fields given change. */
export async function updateBranchAuthOrganization(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${B}/plugins/organization`>["Body"],
): Promise<void> {
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization", {
    params: branch(projectId, branchId),
    body,
    schema: AuthOrganizationSchema,
  });
}

/** `PATCH .../auth/plugins/phone-number`: only the fields given change. */
export async function updateBranchAuthPhoneNumber(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PATCH ${B}/plugins/phone-number`>["Body"],
): Promise<void> {
  await send(ctx.request, "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number", {
    params: branch(projectId, branchId),
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
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/auth/webhooks", {
    params: branch(projectId, branchId),
    schema: AuthWebhooksSchema,
  });
}

/** `PUT .../auth/webhooks`: the whole webhook setting; what the body leaves out is cleared. */
export function setBranchAuthWebhooks(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: R<`PUT ${B}/webhooks`>["Body"],
): Promise<AuthWebhooks> {
  return send(ctx.request, "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks", {
    params: branch(projectId, branchId),
    body,
    schema: AuthWebhooksSchema,
  });
}
