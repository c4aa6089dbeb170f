import type { Project, ProjectListItem, ProjectTransferRequestResponse, RegionResponse } from "@neon/sdk/raw";
import {
  DEFAULT_COMPUTE,
  DEFAULT_HISTORY_RETENTION_SECONDS,
  DEFAULT_PROVISIONER,
  DEFAULT_REGION,
} from "../defaults";
import { platformOf, proxyHost } from "../hosts";
import { isoSeconds } from "../ids";
import { type ProjectRecord, RECOVERY_WINDOW_MS, type TransferRequestRecord } from "../records";
import type { Store } from "../state";

// Projects as the API shows them: on their own (`GET /projects/{id}`, creation) and as listing
// items; their transfer requests; and the regions projects are made in.

/** The fields a project has both in a listing and on its own. */
type ProjectFields = Omit<Project & ProjectListItem, keyof ProjectOnly | "active_time" | "org_name">;
/** The fields only `GET /projects/{id}` and creation return. */
type ProjectOnly = Pick<
  Project,
  | "data_storage_bytes_hour"
  | "data_transfer_bytes"
  | "written_data_bytes"
  | "compute_time_seconds"
  | "active_time_seconds"
  | "consumption_period_start"
  | "consumption_period_end"
>;

function consumptionPeriod(nowMs: number): { start: string; end: string } {
  const now = new Date(nowMs);
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return { start: isoSeconds(start), end: isoSeconds(end) };
}

function projectCommon(p: ProjectRecord): ProjectFields {
  const out: ProjectFields = {
    id: p.id,
    platform_id: platformOf(p.region_id),
    region_id: p.region_id,
    name: p.name,
    provisioner: DEFAULT_PROVISIONER,
    default_endpoint_settings: { ...(p.default_endpoint_settings ?? DEFAULT_COMPUTE) },
    settings: {
      allowed_ips: { ips: [], protected_branches_only: false },
      enable_logical_replication: false,
      ...(p.settings ?? {}),
    },
    pg_version: p.pg_version,
    proxy_host: proxyHost(p.region_id),
    branch_logical_size_limit: 512,
    branch_logical_size_limit_bytes: 536_870_912,
    store_passwords: true,
    cpu_used_sec: 0,
    creation_source: p.creation_source,
    history_retention_seconds: p.history_retention_seconds ?? DEFAULT_HISTORY_RETENTION_SECONDS,
    created_at: isoSeconds(p.created_at_ms),
    updated_at: isoSeconds(p.updated_at_ms),
    owner_id: p.org_id ?? p.owner_user_id ?? "",
  };
  if (p.org_id !== undefined) out["org_id"] = p.org_id;
  if (p.hipaa_enabled_at_ms !== undefined) out["hipaa_enabled_at"] = isoSeconds(p.hipaa_enabled_at_ms);
  return out;
}

/** A project as `GET /projects/{id}` and creation return it. */
export function renderProject(p: ProjectRecord, nowMs: number): Project {
  const period = consumptionPeriod(nowMs);
  return {
    ...projectCommon(p),
    data_storage_bytes_hour: 0,
    data_transfer_bytes: 0,
    written_data_bytes: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    consumption_period_start: period.start,
    consumption_period_end: period.end,
  };
}

/** A project as an item of `GET /projects`. */
export function renderProjectListItem(p: ProjectRecord, store: Store): ProjectListItem {
  const out: ProjectListItem = { ...projectCommon(p), active_time: 0 };
  if (p.org_id !== undefined) {
    const org = store.orgs.get(p.org_id);
    if (org) out["org_name"] = org.name;
  }
  // A deleted project is listed only with `recoverable=true`: when it went, and until when it can come back.
  if (p.deleted_at_ms !== undefined) {
    out["deleted_at"] = isoSeconds(p.deleted_at_ms);
    out["recoverable_until"] = isoSeconds(p.deleted_at_ms + RECOVERY_WINDOW_MS);
  }
  return out;
}

/** A transfer request of a project, as its create answers it. */
export function renderTransferRequest(
  projectId: string,
  request: TransferRequestRecord,
): ProjectTransferRequestResponse {
  return {
    id: request.id,
    project_id: projectId,
    created_at: isoSeconds(request.created_at_ms),
    expires_at: isoSeconds(request.expires_at_ms),
  };
}

/** A region of `GET /regions`; the default region is the one a project gets when it names none. */
export function renderRegion(r: Omit<RegionResponse, "default">): RegionResponse {
  return { ...r, default: r.region_id === DEFAULT_REGION };
}
