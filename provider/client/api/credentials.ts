/**
 * A branch's scoped service credentials, custom domains and AI gateway endpoint (docs/api-rules.md
 * §25). Issue, list and revoke credentials and read the AI gateway are the document's routes; reveal,
 * rotate and the custom domains are described only by @neon/sdk's types. None starts an operation.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { DEFAULT_MAX_PAGES, paginate, sendPage } from "../paginate";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type AiGateway,
  AiGatewaySchema,
  type CredentialIssued,
  CredentialIssuedSchema,
  CredentialListSchema,
  type CredentialMeta,
  type CredentialSecret,
  CredentialSecretSchema,
  CursorPageSchema,
  type CustomDomain,
  CustomDomainSchema,
  CustomDomainsSchema,
} from "../schemas";
import type { Requests as SdkRequests } from "../sdk-routes.gen";

const NO_BODY = z.unknown();

// A page of custom domains is the list and its cursor, two shapes of @neon/sdk's types together.
const CustomDomainPageSchema = CustomDomainsSchema.extend(CursorPageSchema.shape);

/** What a new credential is: its label and scopes. */
export type NewCredential = Requests["POST /projects/{project_id}/branches/{branch_id}/credentials"]["Body"];
/** A capability a credential may exercise. */
export type CredentialScope = NewCredential["scopes"][number];
/** What a custom domain is: the domain and the entity of the branch it routes to. */
export type NewCustomDomain =
  SdkRequests["POST /projects/{project_id}/branches/{branch_id}/custom-domains"]["Body"];

const ids = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });
const credential = (projectId: string, branchId: string, tokenId: string) => ({
  ...ids(projectId, branchId),
  token_id: tokenId,
});

/** `POST .../credentials`: issues a credential; its secrets are in this answer only (or a later reveal). */
export function createCredential(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: NewCredential,
): Promise<CredentialIssued> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/credentials", {
    params: ids(projectId, branchId),
    body,
    schema: CredentialIssuedSchema,
  });
}

/** `GET .../credentials`: the branch's credentials without their secrets, revoked ones included. */
export async function listCredentials(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<CredentialMeta[]> {
  const listed = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/credentials", {
    params: ids(projectId, branchId),
    schema: CredentialListSchema,
  });
  return listed.credentials;
}

/** `DELETE .../credentials/{token_id}`: revokes the credential; revoking it again changes nothing. */
export async function revokeCredential(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  tokenId: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}",
    {
      params: credential(projectId, branchId, tokenId),
      schema: NO_BODY,
    },
  );
}

/** `POST .../credentials/{token_id}/reveal`: a live credential's secrets; 404 once it is revoked. */
export function revealCredential(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  tokenId: string,
): Promise<CredentialSecret> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal", {
    params: credential(projectId, branchId, tokenId),
    schema: CredentialSecretSchema,
  });
}

/** `GET .../custom-domains`: every custom domain of the branch, page by page. */
export async function listCustomDomains(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<CustomDomain[]> {
  const domains: CustomDomain[] = [];
  const listing = paginate({
    what: `custom domains of branch ${branchId}`,
    limit: 100,
    maxPages: DEFAULT_MAX_PAGES,
    fetchPage: (page) =>
      sendPage(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/custom-domains", page, {
        params: ids(projectId, branchId),
        schema: CustomDomainPageSchema,
      }),
    items: (page) => page.custom_domains,
    nextCursor: (page) => page.pagination?.next,
  });
  for await (const domain of listing) domains.push(domain);
  return domains;
}

/** `POST .../custom-domains`: routes the domain to the entity; 409 when another entity holds it. */
export function registerCustomDomain(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: NewCustomDomain,
): Promise<CustomDomain> {
  return send(ctx.request, "POST /projects/{project_id}/branches/{branch_id}/custom-domains", {
    params: ids(projectId, branchId),
    body,
    schema: CustomDomainSchema,
  });
}

/** `DELETE .../custom-domains/{domain}`: removes the domain from the branch; 404 when it has none such. */
export async function deleteCustomDomain(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  domain: string,
): Promise<void> {
  await sendOrEmpty(
    ctx.request,
    "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain}",
    {
      params: { ...ids(projectId, branchId), domain },
      schema: NO_BODY,
    },
  );
}

/** `GET .../ai_gateway`: the branch's AI gateway endpoint; 404 (with a reason) where it has none. */
export function getAiGateway(ctx: ClientContext, projectId: string, branchId: string): Promise<AiGateway> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/ai_gateway", {
    params: ids(projectId, branchId),
    schema: AiGatewaySchema,
  });
}
