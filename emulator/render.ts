import type {
  AnnotationData,
  Branch,
  ConnectionDetails,
  CurrentUserInfoResponse,
  Database,
  Endpoint,
  MemberWithUser,
  OrgApiKeyCreateResponse,
  OrgApiKeyRevokeResponse,
  OrgApiKeysListResponseItem,
  Organization,
  Project,
  ProjectListItem,
  ProjectPermission,
  Role,
} from "@neon/sdk/raw";
import {
  DEFAULT_BRANCH_BYTES,
  DEFAULT_COMPUTE,
  DEFAULT_DATABASE_NAME,
  DEFAULT_HISTORY_RETENTION_SECONDS,
  DEFAULT_PROVISIONER,
  DEFAULT_REGION,
  DEFAULT_ROLE_NAME,
  FIRST_LSN,
} from "./defaults";
import { computeState } from "./families/endpoints";
import { isoSeconds, stableUuid } from "./ids";
import { TERMINAL_STATUSES, viewOperation } from "./operations";
import type {
  BranchRecord,
  DatabaseRecord,
  EndpointRecord,
  KeyRecord,
  OrgRecord,
  PermissionRecord,
  ProjectRecord,
  RoleRecord,
  Store,
  UserRecord,
} from "./state";

// Records rendered as the real API's response shapes: typed by the official SDK's response types
// (types only: nothing of the SDK loads at run time) and checked against the official OpenAPI
// document by tests/emulator/contract.test.ts.

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

const HOST_SUFFIX = "clouddb.local";

/** `aws-us-east-2` -> `us-east-2.aws.clouddb.local`. */
export function proxyHost(regionId: string): string {
  const dash = regionId.indexOf("-");
  const platform = dash > 0 ? regionId.slice(0, dash) : "aws";
  const region = dash > 0 ? regionId.slice(dash + 1) : regionId;
  return `${region}.${platform}.${HOST_SUFFIX}`;
}

function platformOf(regionId: string): string {
  const dash = regionId.indexOf("-");
  return dash > 0 ? regionId.slice(0, dash) : "aws";
}

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
  return out;
}

/** A project's grant to an email, with when it was revoked once it is. */
export function renderPermission(p: PermissionRecord): ProjectPermission {
  return {
    id: p.id,
    granted_to_email: p.email,
    granted_at: isoSeconds(p.granted_at_ms),
    ...(p.revoked_at_ms === undefined ? {} : { revoked_at: isoSeconds(p.revoked_at_ms) }),
  };
}

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

/** A compute endpoint; its state follows its start/suspend operations. */
export function renderEndpoint(e: EndpointRecord, store: Store, nowMs: number): Endpoint {
  const project = store.projects.get(e.project_id);
  const regionId = project?.region_id ?? DEFAULT_REGION;
  const { current, pending } = computeState(e, store, nowMs);
  const compute = e.compute ?? project?.default_endpoint_settings ?? DEFAULT_COMPUTE;
  const out: Endpoint = {
    host: endpointHost(e, store),
    id: e.id,
    project_id: e.project_id,
    branch_id: e.branch_id,
    autoscaling_limit_min_cu: compute.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: compute.autoscaling_limit_max_cu,
    region_id: regionId,
    type: e.type,
    current_state: current,
    settings: { ...(e.settings ?? {}) },
    pooler_enabled: e.pooler_enabled ?? false,
    pooler_mode: "transaction",
    disabled: e.disabled ?? false,
    passwordless_access: e.passwordless_access ?? true,
    creation_source: e.creation_source,
    created_at: isoSeconds(e.created_at_ms),
    updated_at: isoSeconds(e.updated_at_ms),
    proxy_host: proxyHost(regionId),
    suspend_timeout_seconds: compute.suspend_timeout_seconds,
    provisioner: e.provisioner ?? DEFAULT_PROVISIONER,
  };
  if (e.name !== undefined) out["name"] = e.name;
  if (pending !== undefined && pending !== current) out["pending_state"] = pending;
  return out;
}

/** The endpoint's host name; `pooled` puts `-pooler` at the end of the first label. */
export function endpointHost(e: EndpointRecord, store: Store, pooled = false): string {
  const regionId = store.projects.get(e.project_id)?.region_id ?? DEFAULT_REGION;
  return `${e.id}${pooled ? "-pooler" : ""}.${proxyHost(regionId)}`;
}

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

/** Where clients reach endpoints when a data plane serves them (a loopback host and port). */
export interface EndpointAddresses {
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined;
}

/**
 * A Postgres connection URI for a role and database on an endpoint (`pooled`: the pooler host).
 * With a data plane it points at the endpoint's loopback port, without TLS, so it connects.
 */
export function connectionUri(
  e: EndpointRecord,
  store: Store,
  role: RoleRecord,
  database: string,
  pooled = false,
  served?: EndpointAddresses,
): string {
  const user = encodeURIComponent(role.name);
  const password = encodeURIComponent(role.password ?? "");
  const at = served?.address(e.id, pooled);
  if (at !== undefined) {
    return `postgresql://${user}:${password}@${at.host}:${at.port}/${encodeURIComponent(database)}`;
  }
  return `postgresql://${user}:${password}@${endpointHost(e, store, pooled)}/${encodeURIComponent(database)}?sslmode=require`;
}

/** Connection details for a new read-write endpoint: the branch's first database and its owner. */
export function renderConnectionUri(
  e: EndpointRecord,
  b: BranchRecord,
  store: Store,
  served?: EndpointAddresses,
): ConnectionDetails {
  const db = b.databases[0];
  const role = b.roles.find((r) => r.name === db?.owner_name) ?? b.roles[0];
  const database = db?.name ?? DEFAULT_DATABASE_NAME;
  const roleName = role?.name ?? DEFAULT_ROLE_NAME;
  const password = role?.password ?? "";
  return {
    connection_uri: role === undefined ? "" : connectionUri(e, store, role, database, false, served),
    connection_parameters: {
      database,
      password,
      role: roleName,
      host: endpointHost(e, store),
      pooler_host: endpointHost(e, store, true),
    },
  };
}

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
      id: stableUuid(`${o.id}:${userId}`),
      user_id: userId,
      org_id: o.id,
      role: o.members[userId] ?? "member",
      joined_at: isoSeconds(o.created_at_ms),
    },
    user: { email: user?.email ?? "" },
  };
}

/** The creation response of a personal key (`POST /api_keys`); the only place the secret appears. */
export function renderKeyCreated(k: KeyRecord, token: string): OrgApiKeyCreateResponse {
  const out: OrgApiKeyCreateResponse = {
    id: k.id,
    key: token,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: k.user_id,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}

/** A key in `GET /api_keys` or `GET /organizations/{org}/api_keys`. */
export function renderKeyListItem(k: KeyRecord, store: Store): OrgApiKeysListResponseItem {
  const user = store.users.get(k.user_id);
  const out: OrgApiKeysListResponseItem = {
    id: k.id,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: { id: k.user_id, name: user?.name ?? "", image: user?.image ?? "" },
    last_used_at: k.last_used_at_ms === undefined ? null : isoSeconds(k.last_used_at_ms),
    last_used_from_addr: k.last_used_from_addr,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}

/** The revocation response. */
export function renderKeyRevoked(k: KeyRecord): OrgApiKeyRevokeResponse {
  const out: OrgApiKeyRevokeResponse = {
    id: k.id,
    name: k.name,
    created_at: isoSeconds(k.created_at_ms),
    created_by: k.user_id,
    last_used_at: k.last_used_at_ms === undefined ? null : isoSeconds(k.last_used_at_ms),
    last_used_from_addr: k.last_used_from_addr,
    revoked: true,
  };
  if (k.project_id !== undefined) out["project_id"] = k.project_id;
  return out;
}
