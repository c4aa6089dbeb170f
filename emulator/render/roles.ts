import type { Role } from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { BranchRecord, RoleRecord } from "../records";

// A branch's roles as the API shows them.

/** One role; the password only where the document returns it (creation and reset). */
export function renderRole(b: BranchRecord, r: RoleRecord, withPassword = false): Role {
  const out: Role = {
    branch_id: b.id,
    name: r.name,
    protected: r.protected,
    created_at: isoSeconds(r.created_at_ms),
    updated_at: isoSeconds(r.updated_at_ms ?? r.created_at_ms),
  };
  if (withPassword && r.password !== undefined) out["password"] = r.password;
  return out;
}

/** The branch's roles. */
export function renderRoles(b: BranchRecord, withPassword = false): Role[] {
  return b.roles.map((r) => renderRole(b, r, withPassword));
}
