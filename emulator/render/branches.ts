import type { AnnotationData, Branch } from "@neon/sdk/raw";
import { DEFAULT_BRANCH_BYTES, FIRST_LSN } from "../defaults";
import { isoSeconds } from "../ids";
import { TERMINAL_STATUSES, viewOperation } from "../operations";
import type { BranchRecord } from "../records";
import type { Store } from "../state";

// Branches as the API shows them, and the annotation each carries.

/** A branch; `init` until its creating operation ends. */
export function renderBranch(b: BranchRecord, store: Store, nowMs: number): Branch {
  let currentState = "ready";
  let stateChangedMs = b.created_at_ms;
  let pending: string | undefined;
  const createOp = b.create_op_id === undefined ? undefined : store.operations.get(b.create_op_id);
  if (createOp) {
    const view = viewOperation(createOp, nowMs);
    if (TERMINAL_STATUSES.has(view.status)) {
      stateChangedMs = Date.parse(view.updated_at);
    } else {
      currentState = "init";
      pending = "ready";
    }
  }
  const out: Branch = {
    id: b.id,
    project_id: b.project_id,
    name: b.name,
    current_state: currentState,
    state_changed_at: isoSeconds(stateChangedMs),
    logical_size: b.logical_size ?? DEFAULT_BRANCH_BYTES,
    creation_source: b.creation_source,
    primary: b.default,
    default: b.default,
    protected: b.protected,
    cpu_used_sec: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    created_at: isoSeconds(b.created_at_ms),
    updated_at: isoSeconds(b.updated_at_ms),
    init_source: b.init_source ?? "parent-data",
  };
  if (pending !== undefined) out["pending_state"] = pending;
  if (b.parent_id !== undefined) {
    out["parent_id"] = b.parent_id;
    out["parent_lsn"] = b.parent_lsn ?? FIRST_LSN;
    out["parent_timestamp"] = isoSeconds(b.parent_timestamp_ms ?? b.created_at_ms);
  }
  if (b.expires_at_ms !== undefined) {
    out["expires_at"] = isoSeconds(b.expires_at_ms);
    if (b.ttl_interval_seconds !== undefined) out["ttl_interval_seconds"] = b.ttl_interval_seconds;
  }
  if (b.last_reset_at_ms !== undefined) out["last_reset_at"] = isoSeconds(b.last_reset_at_ms);
  if (b.restore_status !== undefined) out["restore_status"] = b.restore_status;
  if (b.restored_from !== undefined) out["restored_from"] = b.restored_from;
  if (b.restored_as !== undefined) out["restored_as"] = b.restored_as;
  const creator = b.created_by_user_id === undefined ? undefined : store.users.get(b.created_by_user_id);
  if (creator) out["created_by"] = { name: creator.name, image: creator.image };
  return out;
}

/** The branch's annotation object (always present in the official shape). */
export function renderAnnotation(b: BranchRecord): AnnotationData {
  return {
    object: { type: "console/branch", id: b.id },
    value: { ...b.annotation },
    created_at: isoSeconds(b.created_at_ms),
    updated_at: isoSeconds(b.updated_at_ms),
  };
}
