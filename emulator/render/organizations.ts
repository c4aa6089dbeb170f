import type { Invitation, MemberWithUser, SpendingLimitResponse } from "@neon/sdk/raw";
import { joinedAt, memberId } from "../families/organizations";
import { isoSeconds } from "../ids";
import type { InvitationRecord, OrgRecord } from "../records";
import type { Store } from "../state";

// An organization's members, invitations and spending limit as the API shows them.

/** A member of an organization with the user's details. */
export function renderMember(o: OrgRecord, userId: string, store: Store): MemberWithUser {
  const user = store.users.get(userId);
  return {
    member: {
      id: memberId(o, userId),
      user_id: userId,
      org_id: o.id,
      role: o.members[userId] ?? "member",
      joined_at: isoSeconds(joinedAt(o, userId)),
    },
    user: { email: user?.email ?? "" },
  };
}

/** An invitation to the organization. */
export function renderInvitation(o: OrgRecord, i: InvitationRecord): Invitation {
  return {
    id: i.id,
    email: i.email,
    org_id: o.id,
    invited_by: i.invited_by,
    role: i.role,
    invited_at: isoSeconds(i.invited_at_ms),
  };
}

/** The organization's spending limit; null when none is set. */
export function renderSpendingLimit(o: OrgRecord): SpendingLimitResponse {
  return { spending_limit_cents: o.spending_limit_cents ?? null };
}
