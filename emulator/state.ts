import { hashToken, type IdSeed, IdSource } from "./ids";
import type {
  BranchRecord,
  EndpointRecord,
  KeyRecord,
  OperationRecord,
  OrgRecord,
  OrgRole,
  ProjectRecord,
  SnapshotRecord,
  UserRecord,
} from "./records";

// The store: the account model's records (records.ts) indexed in Maps, with the lookups the
// families and routes share (one test of a live branch), and its persisted document (`toJSON()`
// and `Store.fromJSON()`, what `--state-file` keeps). The indexes and the document that rebuilds
// them change together, so they stay in one class.

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
  /** The id seed and its draws so far; absent when ids are random. */
  ids?: IdSeed;
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
  /** Where new ids come from: random, or a seed's sequence (`--seed-ids`). */
  ids: IdSource = IdSource.random();

  /** Rebuilds a store from its persisted document; throws on an unknown version. */
  static fromJSON(data: StateData): Store {
    if (data.version !== 1) throw new Error(`unsupported emulator state version ${String(data.version)}`);
    const store = new Store();
    store.lastUs = data.last_us;
    store.nextKeyId = data.next_key_id;
    store.nextDatabaseId = data.next_database_id;
    store.platformTickMs = data.platform_tick_ms;
    store.platformTicks = data.platform_ticks ?? 0;
    if (data.ids !== undefined) store.ids = IdSource.seeded(data.ids.seed, data.ids.drawn);
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
    const ids = this.ids.state;
    if (ids !== undefined) data.ids = ids;
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
    this.ids = other.ids;
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
