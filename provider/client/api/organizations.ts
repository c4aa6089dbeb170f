/**
 * An organization's governance (docs/api-rules.md §17): its members' roles and removal, the
 * invitations that make members, and its monthly spending limit. None of these starts an operation.
 * The member list is in `account.ts`, beside the caller's own account.
 */
import { z } from "zod";
import type { ClientContext } from "../context";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import {
  type Invitation,
  InvitationsResponseSchema,
  type Member,
  MemberSchema,
  SpendingLimitSchema,
} from "../schemas";

const member = (orgId: string, memberId: string) => ({ org_id: orgId, member_id: memberId });
/** The removals' answer (`{}`): nothing the client reads. */
const NO_BODY = z.unknown();

/** A role as the document names them; the API refuses one the organization does not have. */
export type MemberRole = Requests["PATCH /organizations/{org_id}/members/{member_id}"]["Body"]["role"];

/** `GET /organizations/{org_id}/members/{member_id}`: one membership (its id is not the user's); 404 when there is none. */
export function getOrgMember(ctx: ClientContext, orgId: string, memberId: string): Promise<Member> {
  return send(ctx.request, "GET /organizations/{org_id}/members/{member_id}", {
    params: member(orgId, memberId),
    schema: MemberSchema,
  });
}

/** `PATCH /organizations/{org_id}/members/{member_id}`: sets the member's role (admins only; never the last admin's). */
export function setOrgMemberRole(
  ctx: ClientContext,
  orgId: string,
  memberId: string,
  role: MemberRole,
): Promise<Member> {
  return send(ctx.request, "PATCH /organizations/{org_id}/members/{member_id}", {
    params: member(orgId, memberId),
    body: { role },
    schema: MemberSchema,
  });
}

/** `DELETE /organizations/{org_id}/members/{member_id}`: removes the member (admins only; never the last admin). */
export async function removeOrgMember(ctx: ClientContext, orgId: string, memberId: string): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /organizations/{org_id}/members/{member_id}", {
    params: member(orgId, memberId),
    schema: NO_BODY,
  });
}

/** `GET /organizations/{org_id}/invitations`: the invitations sent, pending and accepted. */
export async function listOrgInvitations(ctx: ClientContext, orgId: string): Promise<Invitation[]> {
  const body = await send(ctx.request, "GET /organizations/{org_id}/invitations", {
    params: { org_id: orgId },
    schema: InvitationsResponseSchema,
  });
  return body.invitations;
}

/** `POST /organizations/{org_id}/invitations`: invites each email with its role (admins only); the invitations made. */
export async function inviteOrgMembers(
  ctx: ClientContext,
  orgId: string,
  invitations: Requests["POST /organizations/{org_id}/invitations"]["Body"]["invitations"],
): Promise<Invitation[]> {
  const body = await send(ctx.request, "POST /organizations/{org_id}/invitations", {
    params: { org_id: orgId },
    body: { invitations },
    schema: InvitationsResponseSchema,
  });
  return body.invitations;
}

/** `GET /organizations/{org_id}/billing/spending_limit`: the monthly limit in cents, null when none is set. */
export async function getOrgSpendingLimit(ctx: ClientContext, orgId: string): Promise<number | null> {
  const body = await send(ctx.request, "GET /organizations/{org_id}/billing/spending_limit", {
    params: { org_id: orgId },
    schema: SpendingLimitSchema,
  });
  return body.spending_limit_cents;
}

/** `PUT /organizations/{org_id}/billing/spending_limit`: sets the monthly limit, at least 1 cent (admins only). */
export async function setOrgSpendingLimit(
  ctx: ClientContext,
  orgId: string,
  cents: number,
): Promise<number | null> {
  const body = await send(ctx.request, "PUT /organizations/{org_id}/billing/spending_limit", {
    params: { org_id: orgId },
    body: { spending_limit_cents: cents },
    schema: SpendingLimitSchema,
  });
  return body.spending_limit_cents;
}

/** `DELETE /organizations/{org_id}/billing/spending_limit`: clears the limit; clearing none succeeds too (admins only). */
export async function clearOrgSpendingLimit(ctx: ClientContext, orgId: string): Promise<void> {
  await sendOrEmpty(ctx.request, "DELETE /organizations/{org_id}/billing/spending_limit", {
    params: { org_id: orgId },
    schema: NO_BODY,
  });
}
