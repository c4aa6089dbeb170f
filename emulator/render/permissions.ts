import type { ProjectPermission } from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { PermissionRecord } from "../records";

// Who a project is shared with, as the API shows it.

/** A project's grant to an email, with when it was revoked once it is. */
export function renderPermission(p: PermissionRecord): ProjectPermission {
  return {
    id: p.id,
    granted_to_email: p.email,
    granted_at: isoSeconds(p.granted_at_ms),
    ...(p.revoked_at_ms === undefined ? {} : { revoked_at: isoSeconds(p.revoked_at_ms) }),
  };
}
