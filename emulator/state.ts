import { hashToken } from "./ids";

// The account model: users, organizations (admin/member, their VPC endpoints), projects (personal or
// organization-owned; their permissions and VPC restrictions), branches (their roles, databases and
// backup schedules), endpoints, snapshots, API keys and operations. Plain JSON-able records, indexed
// in Maps; `toJSON()` and `Store.fromJSON()` are the persistence format.

/** A user of the service; owns personal projects and personal API keys. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  image: string;
}

/** What a user is in an organization: an admin or a plain member. */
export type OrgRole = "admin" | "member";

/** An organization and its members. */
export interface OrgRecord {
  id: string;
  name: string;
  created_at_ms: number;
  members: Record<string, OrgRole>;
  /** The VPC endpoints assigned to the organization, in every region. */
  vpc_endpoints?: VpcEndpointRecord[];
  /** Endpoints once assigned and removed: the service never takes them back (docs/api-rules.md §10). */
  removed_vpc_endpoints?: string[];
}

/** A VPC endpoint assigned to an organization in a region. */
export interface VpcEndpointRecord {
  vpc_endpoint_id: string;
  region_id: string;
  label: string;
  assigned_at_ms: number;
}

/** A project's restriction to one of its organization's VPC endpoints. */
export interface VpcRestrictionRecord {
  vpc_endpoint_id: string;
  label: string;
}

/** A project, owned either by a user (`owner_user_id`) or by an organization (`org_id`). */
export interface ProjectRecord {
  id: string;
  name: string;
  region_id: string;
  pg_version: number;
  owner_user_id?: string;
  org_id?: string;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  default_branch_id: string;
  /** When the project's operation queue drains; null when an operation never ends (stuck). */
  queue_end_ms: number | null;
  /** Set when deleted; the project stays recoverable for `RECOVERY_WINDOW_MS`. */
  deleted_at_ms?: number;
  history_retention_seconds?: number;
  /** Compute settings new endpoints of the project start with. */
  default_endpoint_settings?: ComputeSettings;
  /** The project's `settings` object as last set (free-form in the document). */
  settings?: Record<string, unknown>;
  /** The VPC endpoints the project is restricted to; none means every endpoint of its organization. */
  vpc_restrictions?: VpcRestrictionRecord[];
  /** Who the project is shared with, revoked grants included (with when they were revoked). */
  permissions?: PermissionRecord[];
}

/** A project shared with an email: the account of that email may act on the project. */
export interface PermissionRecord {
  id: string;
  email: string;
  granted_at_ms: number;
  revoked_at_ms?: number;
}

/** How long a deleted project or branch can be recovered (the document: 7 days). */
export const RECOVERY_WINDOW_MS = 7 * 86_400_000;

/** True unless the project or branch was deleted longer than `RECOVERY_WINDOW_MS` before `nowMs`. */
export function recoverable(record: { deleted_at_ms?: number }, nowMs: number): boolean {
  return nowMs - (record.deleted_at_ms ?? nowMs) <= RECOVERY_WINDOW_MS;
}

/** Compute size and suspension of an endpoint. */
export interface ComputeSettings {
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
}

/** A database role on a branch. */
export interface RoleRecord {
  name: string;
  protected: boolean;
  created_at_ms: number;
  /** The role's password; revealed on request, like the service with `store_passwords`. Absent for `no_login` roles. */
  password?: string;
  no_login?: boolean;
  updated_at_ms?: number;
}

/** A database on a branch. */
export interface DatabaseRecord {
  id: number;
  name: string;
  owner_name: string;
  created_at_ms: number;
  updated_at_ms?: number;
}

/** A branch; deleted branches stay as tombstones so a repeated DELETE can answer 204. */
export interface BranchRecord {
  id: string;
  project_id: string;
  parent_id?: string;
  name: string;
  default: boolean;
  protected: boolean;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  deleted_at_ms?: number;
  /** The operation that creates the branch's data; the branch is `init` until it ends. */
  create_op_id?: string;
  created_by_user_id?: string;
  roles: RoleRecord[];
  databases: DatabaseRecord[];
  annotation: Record<string, string>;
  /** `parent-data` (default) or `schema-only` (the parent's schema, no data, no parent link). */
  init_source?: string;
  /** When the emulator deletes the branch by itself. */
  expires_at_ms?: number;
  ttl_interval_seconds?: number;
  parent_lsn?: string;
  parent_timestamp_ms?: number;
  /** Size of the branch's data in bytes. */
  logical_size?: number;
  last_reset_at_ms?: number;
  /** Why the branch was deleted when no user asked (`ttl`). */
  deleted_by?: string;
  /** The endpoints a deleted branch had, restored (idle) when it is recovered. */
  deleted_endpoints?: EndpointRecord[];
  /** The snapshot a branch made by a snapshot restore came from. */
  restored_from?: string;
  /** `restored` until the restore is finalized, then `finalized`. */
  restore_status?: "restored" | "finalized";
  /** The branch a finalize makes this one replace (its name and computes). */
  restore_target_id?: string;
  /** The branch this one replaced when its restore was finalized. */
  restored_as?: string;
  /** The automatic snapshots the service takes of the branch. */
  backup_schedule?: BackupScheduleEntry[];
  /** Up to when the scheduled snapshots have been taken. */
  backup_checked_ms?: number;
}

/** One entry of a branch's backup schedule, as the API says it. */
export interface BackupScheduleEntry {
  frequency: "hourly" | "daily" | "weekly" | "monthly" | "yearly";
  hour?: number;
  day?: number;
  month?: number;
  retention_seconds?: number;
}

/** A snapshot of a branch: the roles, databases (and, with Postgres, data) it had at a point. */
export interface SnapshotRecord {
  id: string;
  project_id: string;
  name: string;
  source_branch_id: string;
  lsn: string;
  timestamp_ms: number;
  created_at_ms: number;
  expires_at_ms?: number;
  /** False for the ones a backup schedule took. */
  manual: boolean;
  logical_size: number;
  roles: RoleRecord[];
  databases: DatabaseRecord[];
}

/** Compute endpoint type. */
export type EndpointType = "read_write" | "read_only";

/** A compute endpoint on a branch. */
export interface EndpointRecord {
  id: string;
  project_id: string;
  branch_id: string;
  type: EndpointType;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  /** Operations that start or suspend this compute, oldest first; its state derives from them. */
  op_ids: string[];
  /** Compute settings; absent in older state files (then the project defaults apply). */
  compute?: ComputeSettings;
  provisioner?: string;
  name?: string;
  disabled?: boolean;
  passwordless_access?: boolean;
  pooler_enabled?: boolean;
  settings?: Record<string, unknown>;
}

/** API key kind. */
export type KeyKind = "personal" | "organization" | "project";

/** An API key; only the SHA-256 of the secret is kept. */
export interface KeyRecord {
  id: number;
  kind: KeyKind;
  name: string;
  token_hash: string;
  /** Owner of a personal key; creator of an organization or project-scoped key. */
  user_id: string;
  org_id?: string;
  project_id?: string;
  created_at_ms: number;
  revoked: boolean;
  revoked_at_ms?: number;
  /** Why a project-scoped key stopped working without being revoked (its project left the organization). */
  disabled_reason?: string;
  last_used_at_ms?: number;
  last_used_from_addr: string;
}

/** How an operation ends; decided when it is created (scripts), computed lazily from the clock. */
export type Outcome =
  | { kind: "finish" }
  | { kind: "fail"; times: number }
  | { kind: "cancelled" }
  | { kind: "error"; message: string }
  | { kind: "skipped" }
  | { kind: "stuck" };

/** An operation; its status at any time is a pure function of these fields and the clock. */
export interface OperationRecord {
  id: string;
  project_id: string;
  branch_id?: string;
  endpoint_id?: string;
  action: string;
  /** Creation time in epoch microseconds; unique within a project, so it works as a cursor. */
  created_us: number;
  /** When it leaves the project's queue; null when queued behind an operation that never ends. */
  start_ms: number | null;
  duration_ms: number;
  outcome: Outcome;
  initiator: "user" | "platform" | "console";
}

/** What a new record of type `R` is made of: the `Given` fields, and any others to set. */
export type Fields<R, Given extends keyof R> = Pick<R, Given> & Partial<R>;

/** The persisted document. */
export interface StateData {
  version: 1;
  clock_ms: number;
  last_us: number;
  next_key_id: number;
  next_database_id: number;
  platform_tick_ms?: number;
  platform_ticks?: number;
  users: UserRecord[];
  organizations: OrgRecord[];
  projects: ProjectRecord[];
  branches: BranchRecord[];
  endpoints: EndpointRecord[];
  api_keys: KeyRecord[];
  operations: OperationRecord[];
  /** Absent in documents written before snapshots existed. */
  snapshots?: SnapshotRecord[];
}

/** In-memory state with the indexes the routes need. */
export class Store {
  readonly users = new Map<string, UserRecord>();
  readonly orgs = new Map<string, OrgRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly branches = new Map<string, BranchRecord>();
  readonly endpoints = new Map<string, EndpointRecord>();
  readonly keys = new Map<number, KeyRecord>();
  readonly keysByHash = new Map<string, KeyRecord>();
  readonly operations = new Map<string, OperationRecord>();
  readonly snapshots = new Map<string, SnapshotRecord>();
  /** Each project's operations, sorted by `created_us` ascending. */
  readonly projectOps = new Map<string, OperationRecord[]>();
  lastUs = 0;
  nextKeyId = 165_432;
  nextDatabaseId = 9_000_001;
  platformTickMs: number | undefined;
  /** Platform schedule ticks so far; picks the action of the next tick. */
  platformTicks = 0;

  /** Rebuilds a store from its persisted document; throws on an unknown version. */
  static fromJSON(data: StateData): Store {
    if (data.version !== 1) throw new Error(`unsupported emulator state version ${String(data.version)}`);
    const store = new Store();
    store.lastUs = data.last_us;
    store.nextKeyId = data.next_key_id;
    store.nextDatabaseId = data.next_database_id;
    store.platformTickMs = data.platform_tick_ms;
    store.platformTicks = data.platform_ticks ?? 0;
    for (const u of data.users) store.users.set(u.id, u);
    for (const o of data.organizations) store.orgs.set(o.id, o);
    for (const p of data.projects) store.projects.set(p.id, p);
    for (const b of data.branches) store.branches.set(b.id, b);
    for (const e of data.endpoints) store.endpoints.set(e.id, e);
    for (const k of data.api_keys) store.addKey(k);
    for (const op of data.operations) store.insertOperation(op);
    for (const s of data.snapshots ?? []) store.snapshots.set(s.id, s);
    for (const list of store.projectOps.values()) list.sort((a, b) => a.created_us - b.created_us);
    return store;
  }

  /** The persisted document at clock time `clockMs`. */
  toJSON(clockMs: number): StateData {
    const data: StateData = {
      version: 1,
      clock_ms: clockMs,
      last_us: this.lastUs,
      next_key_id: this.nextKeyId,
      next_database_id: this.nextDatabaseId,
      users: [...this.users.values()],
      organizations: [...this.orgs.values()],
      projects: [...this.projects.values()],
      branches: [...this.branches.values()],
      endpoints: [...this.endpoints.values()],
      api_keys: [...this.keys.values()],
      operations: [...this.projectOps.values()].flat(),
      snapshots: [...this.snapshots.values()],
    };
    if (this.platformTickMs !== undefined) data.platform_tick_ms = this.platformTickMs;
    if (this.platformTicks > 0) data.platform_ticks = this.platformTicks;
    return data;
  }

  /** Replaces this store's whole content with another's (control `seed`), keeping this object. */
  replaceWith(other: Store): void {
    for (const name of [
      "users",
      "orgs",
      "projects",
      "branches",
      "endpoints",
      "keys",
      "keysByHash",
      "operations",
      "projectOps",
      "snapshots",
    ] as const) {
      const mine = this[name] as Map<unknown, unknown>;
      mine.clear();
      for (const [k, v] of other[name] as Map<unknown, unknown>) mine.set(k, v);
    }
    this.lastUs = Math.max(this.lastUs, other.lastUs);
    this.nextKeyId = other.nextKeyId;
    this.nextDatabaseId = other.nextDatabaseId;
    this.platformTickMs = other.platformTickMs;
    this.platformTicks = other.platformTicks;
  }

  /** Registers a key record (already hashed). */
  addKey(key: KeyRecord): void {
    this.keys.set(key.id, key);
    this.keysByHash.set(key.token_hash, key);
    if (key.id >= this.nextKeyId) this.nextKeyId = key.id + 1;
  }

  /** Creates a key record for a plain token (under the next free id unless `id` is given), returning the record. */
  createKey(
    fields: Omit<KeyRecord, "id" | "token_hash" | "revoked" | "last_used_from_addr">,
    token: string,
    id: number = this.nextKeyId,
  ): KeyRecord {
    const key: KeyRecord = {
      ...fields,
      id,
      token_hash: hashToken(token),
      revoked: false,
      last_used_from_addr: "",
    };
    this.addKey(key);
    return key;
  }

  /** The key a token belongs to, revoked or not. */
  keyForToken(token: string): KeyRecord | undefined {
    return this.keysByHash.get(hashToken(token));
  }

  /** Adds an operation to the indexes; callers keep `created_us` increasing or re-sort. */
  insertOperation(op: OperationRecord): void {
    this.operations.set(op.id, op);
    let list = this.projectOps.get(op.project_id);
    if (!list) {
      list = [];
      this.projectOps.set(op.project_id, list);
    }
    list.push(op);
  }

  /** A fresh creation timestamp in microseconds: never earlier than `nowMs`, always after the last one. */
  nextMicros(nowMs: number): number {
    this.lastUs = Math.max(nowMs * 1000, this.lastUs + 1);
    return this.lastUs;
  }

  /** The project if it is live: it exists and is not deleted. */
  liveProject(projectId: string): ProjectRecord | undefined {
    const project = this.projects.get(projectId);
    return project?.deleted_at_ms === undefined ? project : undefined;
  }

  /** The project's branch `branchId` if it is live: it exists, in that project, and is not deleted. */
  liveBranch(projectId: string, branchId: string | undefined): BranchRecord | undefined {
    const branch = branchId === undefined ? undefined : this.branches.get(branchId);
    return branch !== undefined && isLive(branch, projectId) ? branch : undefined;
  }

  /** The project's live branches (every project's without `projectId`), in the order they were added. */
  liveBranches(projectId?: string): BranchRecord[] {
    const out: BranchRecord[] = [];
    for (const b of this.branches.values()) if (isLive(b, projectId ?? b.project_id)) out.push(b);
    return out;
  }

  /** The branch's endpoints. */
  branchEndpoints(branchId: string): EndpointRecord[] {
    const out: EndpointRecord[] = [];
    for (const e of this.endpoints.values()) if (e.branch_id === branchId) out.push(e);
    return out;
  }

  /** The project's endpoints. */
  projectEndpoints(projectId: string): EndpointRecord[] {
    const out: EndpointRecord[] = [];
    for (const e of this.endpoints.values()) if (e.project_id === projectId) out.push(e);
    return out;
  }

  /** The project's snapshots, oldest first. */
  projectSnapshots(projectId: string): SnapshotRecord[] {
    const out: SnapshotRecord[] = [];
    for (const s of this.snapshots.values()) if (s.project_id === projectId) out.push(s);
    return out.sort((a, b) => a.created_at_ms - b.created_at_ms);
  }

  /** The user's membership of the organization (admin or member), if any. */
  membershipOf(orgId: string, userId: string): OrgRole | undefined {
    return this.orgs.get(orgId)?.members[userId];
  }

  /** A new database id. */
  nextDbId(): number {
    return this.nextDatabaseId++;
  }
}

/** The one test of a live branch: it belongs to the project and is not deleted. */
function isLive(branch: BranchRecord, projectId: string): boolean {
  return branch.project_id === projectId && branch.deleted_at_ms === undefined;
}
