import type { CurrentUserInfoResponse, Organization } from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { OrgRecord, UserRecord } from "../records";

// The caller and their organizations as the API shows them: `GET /users/me` and organizations
// (their members and invitations are in organizations.ts).

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
