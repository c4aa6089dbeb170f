import type { EmulatorContext } from "../context";
import { HttpError, notFound } from "../errors";
import type { OrgRecord, OrgRole, UserRecord } from "../records";
import type { Store } from "../state";

// Users and organizations, and who is a member of which (admin or member).

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
  org.members[userId] = membership;
  ctx.changed();
}

/** Removes a user from an organization; their personal keys stay valid but lose its projects. */
export function removeMember(ctx: EmulatorContext, orgId: string, userId: string): void {
  const org = ctx.store.orgs.get(orgId);
  if (!org) throw new HttpError(404, `organization ${orgId} not found`);
  if (org.members[userId] === undefined)
    throw new HttpError(404, `user ${userId} is not a member of ${orgId}`);
  delete org.members[userId];
  ctx.changed();
}
