import type { EmulatorContext } from "../context";
import { badRequest, HttpError, notFound } from "../errors";
import { newUuid, stableUuid } from "../ids";
import type { InvitationRecord, OrgRecord, OrgRole, UserRecord } from "../records";
import type { Store } from "../state";

// Users and organizations, who is a member of which (admin or member), the invitations that make
// members, and the organization's spending limit (docs/api-rules.md §17). An organization always
// keeps one admin: the last one can be neither demoted nor removed.

/** Puts a user into the store. */
export function putUser(store: Store, user: UserRecord): void {
  store.users.set(user.id, user);
}

/** Puts an organization, with its members, into the store. */
export function putOrganization(store: Store, org: OrgRecord): void {
  store.orgs.set(org.id, org);
}

/** Adds a user to an organization, or changes their membership. */
export function addMember(ctx: EmulatorContext, orgId: string, userId: string, membership: OrgRole): void {
  const org = ctx.store.orgs.get(orgId);
  if (!org) throw notFound(`organization ${orgId} not found`);
  if (!ctx.store.users.has(userId)) throw notFound(`user ${userId} not found`);
  if (membership !== "admin" && membership !== "member")
    throw new HttpError(400, "role must be admin or member");
  join(ctx, org, userId, membership);
}

/** Removes a user from an organization; their personal keys stay valid but lose its projects. */
export function removeMember(ctx: EmulatorContext, orgId: string, userId: string): void {
  const org = ctx.store.orgs.get(orgId);
  if (!org) throw new HttpError(404, `organization ${orgId} not found`);
  if (org.members[userId] === undefined)
    throw new HttpError(404, `user ${userId} is not a member of ${orgId}`);
  leave(ctx, org, userId);
}

/** The id the API gives a user's membership of an organization: the same for as long as it lasts. */
export function memberId(org: OrgRecord, userId: string): string {
  return stableUuid(`${org.id}:${userId}`);
}

/** When the user joined the organization (its creation for the members it was made with). */
export function joinedAt(org: OrgRecord, userId: string): number {
  return org.joined_at_ms?.[userId] ?? org.created_at_ms;
}

/** The user whose membership `id` is; 404 when the organization has no such member. */
export function memberUser(org: OrgRecord, id: string): string {
  const userId = Object.keys(org.members).find((u) => memberId(org, u) === id);
  if (userId === undefined) throw notFound(`member ${id} not found in organization ${org.id}`);
  return userId;
}

/** The role as the emulator's organizations have it; 400 for a role of the document they lack. */
export function orgRole(org: OrgRecord, role: string): OrgRole {
  if (role === "admin" || role === "member") return role;
  throw badRequest(`role ${role} is not available for organization ${org.id}: use admin or member`);
}

/** Refuses (409) to leave the organization without an admin by demoting or removing `userId`. */
function keepAnAdmin(org: OrgRecord, userId: string, change: string): void {
  const admins = Object.keys(org.members).filter((u) => org.members[u] === "admin");
  if (admins.length === 1 && admins[0] === userId)
    throw new HttpError(
      409,
      `cannot ${change} the last admin of organization ${org.id}: make another member admin first`,
    );
}

/** Sets a member's role; demoting the last admin is refused (409). */
export function changeMemberRole(ctx: EmulatorContext, org: OrgRecord, userId: string, role: OrgRole): void {
  if (role !== "admin") keepAnAdmin(org, userId, "demote");
  org.members[userId] = role;
  ctx.changed();
}

/** Removes a member; removing the last admin is refused (409). */
export function dismissMember(ctx: EmulatorContext, org: OrgRecord, userId: string): void {
  keepAnAdmin(org, userId, "remove");
  leave(ctx, org, userId);
}

function join(ctx: EmulatorContext, org: OrgRecord, userId: string, role: OrgRole): void {
  if (org.members[userId] === undefined)
    org.joined_at_ms = { ...org.joined_at_ms, [userId]: ctx.clock.now() };
  org.members[userId] = role;
  ctx.changed();
}

/** Removes a member, with their explicit roles on the organization's projects: a return starts afresh. */
function leave(ctx: EmulatorContext, org: OrgRecord, userId: string): void {
  delete org.members[userId];
  if (org.joined_at_ms) delete org.joined_at_ms[userId];
  for (const project of ctx.store.projects.values())
    if (project.org_id === org.id) delete project.member_roles?.[userId];
  ctx.changed();
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Invites each email with its role. All are checked before any is sent: a role the organization
 * lacks (400), an email twice in the request (400), an email of a member (409). A user who has an
 * account joins at once with the role; a new invitation for an email takes the place of the one
 * before it.
 */
export function invite(
  ctx: EmulatorContext,
  org: OrgRecord,
  invitedBy: string,
  requests: ReadonlyArray<{ email: string; role: string }>,
): InvitationRecord[] {
  const checked = requests.map(({ email, role }, i) => {
    if (requests.findIndex((r) => sameEmail(r.email, email)) !== i)
      throw badRequest(`${email} is invited twice in one request`);
    const user = [...ctx.store.users.values()].find((u) => sameEmail(u.email, email));
    if (user && org.members[user.id] !== undefined)
      throw new HttpError(409, `${email} is already a member of organization ${org.id}`);
    return { email, role: orgRole(org, role), user };
  });
  const made = checked.map(({ email, role, user }) => {
    const invitation: InvitationRecord = {
      id: newUuid(ctx.store.ids),
      email,
      role,
      invited_by: invitedBy,
      invited_at_ms: ctx.clock.now(),
    };
    org.invitations = [...(org.invitations ?? []).filter((v) => !sameEmail(v.email, email)), invitation];
    if (user) join(ctx, org, user.id, role);
    return invitation;
  });
  ctx.changed();
  return made;
}

/** Sets the monthly spending limit (the document's minimum, 1 cent, is the route's check). */
export function setSpendingLimit(ctx: EmulatorContext, org: OrgRecord, cents: number): void {
  org.spending_limit_cents = cents;
  ctx.changed();
}

/** Clears the spending limit; clearing one not set changes nothing and succeeds. */
export function clearSpendingLimit(ctx: EmulatorContext, org: OrgRecord): void {
  delete org.spending_limit_cents;
  ctx.changed();
}
