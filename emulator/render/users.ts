import type { CurrentUserInfoResponse, Invitation, MemberWithUser, Organization } from "@neon/sdk/raw";
import { joinedAt, memberId } from "../families/organizations";
import { isoSeconds } from "../ids";
import type { InvitationRecord, OrgRecord, UserRecord } from "../records";
import type { Store } from "../state";

// The caller and their organizations as the API shows them: `GET /users/me`, organizations, their
// members and their invitations.

/** `GET /users/me`. */
export function renderCurrentUser(u: UserRecord): CurrentUserInfoResponse {
  const [first, ...rest] = u.name.split(" ");
  return {
    active_seconds_limit: 360_000,
    id: u.id,
    email: u.email,
    login: u.email.split("@")[0] ?? u.name,
    name: first ?? u.name,
    last_name: rest.join(" "),
    image: u.image,
    projects_limit: 100,
    branches_limit: 5000,
    max_autoscaling_limit: 8,
    auth_accounts: [{ provider: "github", email: u.email, name: u.name, login: u.email, image: u.image }],
    plan: "launch",
  };
}

/** An organization. */
export function renderOrg(o: OrgRecord): Organization {
  return {
    id: o.id,
    name: o.name,
    handle: `${o.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${o.id.slice(-8)}`,
    plan: "scale",
    created_at: isoSeconds(o.created_at_ms),
    updated_at: isoSeconds(o.created_at_ms),
    managed_by: "console",
  };
}

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
