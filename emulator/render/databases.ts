import type { Database } from "@neon/sdk/raw";
import { isoSeconds } from "../ids";
import type { BranchRecord, DatabaseRecord } from "../records";

// A branch's databases as the API shows them.

/** One database of the branch. */
export function renderDatabase(b: BranchRecord, d: DatabaseRecord): Database {
  return {
    id: d.id,
    branch_id: b.id,
    name: d.name,
    owner_name: d.owner_name,
    created_at: isoSeconds(d.created_at_ms),
    updated_at: isoSeconds(d.updated_at_ms ?? d.created_at_ms),
  };
}

/** The branch's databases. */
export function renderDatabases(b: BranchRecord): Database[] {
  return b.databases.map((d) => renderDatabase(b, d));
}
