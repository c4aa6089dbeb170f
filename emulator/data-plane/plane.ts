import type pg from "pg";
import type { EmulatorContext } from "../context";
import { DEFAULT_HISTORY_RETENTION_SECONDS } from "../defaults";
import type { BranchRecord } from "../records";
import { admission } from "./admission";
import {
  type CopyOptions,
  type CopySource,
  type DatabaseNote,
  type DataHolder,
  GROUP,
  holderOf,
  listDatabases,
  type Plan,
  quote,
  Statements,
  type Target,
  type Want,
} from "./databases";
import { lsnValue } from "./history";
import { loadPackages, type PostgresServer, startPostgres } from "./postgres";
import { EndpointProxy, type ProxyTarget, type Refusal } from "./proxy";
import { ServerRoles } from "./roles";
import { dumpSchema } from "./schema";
import { Timeline } from "./timeline";

// The data plane: one Postgres server behind every compute endpoint. The emulator's state stays
// the truth; `sync()` brings Postgres to it after every API request (and before every login):
//   roles     one Postgres role per role name in any live branch (roles.ts)
//   databases one Postgres database per (branch, database): "<branch id>/<database id>", copied
//             from the source the last change named (a parent, a restore source: its data now,
//             or at a point of its history) or created empty; and per (snapshot, database),
//             "<snapshot id>/<database id>", copied when it is taken
//   endpoints one EndpointProxy each (direct and pooled loopback ports)
// Postgres cannot copy a database while anyone is connected to it, so a copy first ends the
// source's sessions; the proxies wait for the copy (they sync before opening a session).
// History is Postgres's own: its WAL, archived, with base backups (backups.ts); the emulator's
// clock is tied to WAL positions by readings (history.ts); a point is recovered into a scratch
// cluster and its databases are taken from there (transplant.ts) or read (a schema).

/** The Postgres name of a branch's database: stable across renames, unique per branch. */
export function physicalName(holder: DataHolder, databaseId: number): string {
  return `${holder.id}/${databaseId}`;
}

/** The later of two WAL positions. */
function later(a: string, b: string | undefined): string {
  return b !== undefined && lsnValue(b) > lsnValue(a) ? b : a;
}

/** The Postgres behind the emulator's endpoints. */
export class DataPlane implements ProxyTarget {
  readonly #ctx: EmulatorContext;
  readonly #server: PostgresServer;
  readonly #admin: pg.Client;
  readonly #sql: Statements;
  readonly #timeline: Timeline;
  /** Physical databases that exist, with their owner and API name. */
  readonly #databases = new Map<string, { owner: string; note: DatabaseNote }>();
  /** Per branch or snapshot, the WAL position from which it has data. */
  readonly #born = new Map<string, string>();
  readonly #roles: ServerRoles;
  readonly #copies = new Map<string, CopySource>();
  readonly #proxies = new Map<string, EndpointProxy>();
  /** How many of each endpoint's operations the last sync saw. */
  readonly #opsSeen = new Map<string, number>();
  #queue: Promise<void> = Promise.resolve();
  #stopped = false;

  private constructor(ctx: EmulatorContext, server: PostgresServer, admin: pg.Client, observer: pg.Client) {
    this.#ctx = ctx;
    this.#server = server;
    this.#admin = admin;
    this.#sql = new Statements(admin, (database) => server.connectAdmin(database));
    this.#roles = new ServerRoles(admin, server.rolePassword);
    this.#timeline = new Timeline(server, ctx.clock, observer, () => {
      let seconds = DEFAULT_HISTORY_RETENTION_SECONDS;
      for (const p of ctx.store.projects.values()) {
        if (p.deleted_at_ms === undefined) seconds = Math.max(seconds, p.history_retention_seconds ?? 0);
      }
      return seconds;
    });
  }

  /**
   * Starts Postgres and creates what the state already holds; throws what to install when the
   * package is missing. With `keptAt` (a state file's folder) an existing cluster is started
   * again and its databases kept; `fresh` (no state file yet) clears that folder first.
   */
  static async start(
    ctx: EmulatorContext,
    options: { keptAt?: string; fresh?: boolean } = {},
  ): Promise<DataPlane> {
    const packages = await loadPackages();
    const server = await startPostgres(packages, options);
    try {
      const admin = await server.connectAdmin("postgres");
      const observer = await server.connectAdmin("postgres");
      const plane = new DataPlane(ctx, server, admin, observer);
      await plane.#load();
      await plane.#timeline.start(await plane.#sql.lsn());
      await plane.sync();
      return plane;
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  /** Takes in what a kept cluster already holds: the API roles, the databases and their notes. */
  async #load(): Promise<void> {
    await this.#roles.load();
    for (const d of await listDatabases(this.#admin)) {
      // A database without a note (the emulator stopped between making and noting it) has data from now.
      const note = d.note ?? { name: "", born: await this.#sql.lsn() };
      this.#databases.set(d.physical, { owner: d.owner, note });
      const holder = holderOf(d.physical);
      const known = this.#born.get(holder);
      if (known === undefined || lsnValue(note.born) < lsnValue(known)) this.#born.set(holder, note.born);
    }
  }

  /** The Postgres server's process id (to check that it is gone after `stop()`). */
  get pid(): number {
    return this.#server.pid;
  }

  /** Where Postgres keeps its data (the cluster, WAL archive and base backups). */
  get folder(): string {
    return this.#server.folder.root;
  }

  /** The physical names of a branch's databases, by database name (a copy's sources). */
  databasesOf(holder: DataHolder): Map<string, string> {
    return new Map(holder.databases.map((d) => [d.name, physicalName(holder, d.id)]));
  }

  /**
   * Records that `target`'s databases start as copies of `sources` (by database name, from
   * `databasesOf`): their data now, or at `atLsn`. The copy happens at the next `sync()`.
   */
  copyData(target: DataHolder, sources: Map<string, string>, options: CopyOptions = {}): void {
    for (const d of target.databases) {
      const physical = sources.get(d.name);
      if (physical === undefined) continue;
      this.#copies.set(physicalName(target, d.id), {
        physical,
        name: d.name,
        schemaOnly: options.schemaOnly ?? false,
        atLsn: options.atLsn,
        onCopied: options.onCopied,
      });
    }
  }

  /** The WAL position of the data at emulator clock time `ms` (docs/api-rules.md §9). */
  lsnAt(ms: number): string {
    return this.#timeline.lsnAt(ms);
  }

  /** The emulator clock time by which the WAL reached `lsn`; Infinity when it has not yet. */
  timeAt(lsn: string): number {
    return this.#timeline.timeAt(lsn);
  }

  /** Reads the WAL position now and notes it with the clock's time; never rejects. */
  noteTime(): Promise<void> {
    return this.#timeline.noteTime();
  }

  /** Where a client reaches an endpoint: loopback and its direct or pooled port; undefined before the first sync that saw it. */
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined {
    const proxy = this.#proxies.get(endpointId);
    if (!proxy) return undefined;
    return { host: "127.0.0.1", port: pooled ? proxy.ports.pooled : proxy.ports.direct };
  }

  /** Brings Postgres and the proxies to the emulator's state; calls run one after another. */
  sync(): Promise<void> {
    const next = this.#queue.then(() => (this.#stopped ? undefined : this.#reconcile()));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  upstream(): { port: number; password: string } {
    return { port: this.#server.port, password: this.#server.rolePassword };
  }

  admit(
    endpointId: string,
    user: string,
    database: string,
    password: string,
    address: string,
  ): { database: string } | Refusal {
    const admitted = admission(this.#ctx, endpointId, user, database, password, address);
    if ("sqlstate" in admitted) return admitted;
    return { database: physicalName(admitted.branch, admitted.databaseId) };
  }

  /** A session's end is a moment its writes are done: the clock gets a reading. */
  inUse(_database: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.noteTime();
    };
  }

  /**
   * The schema of a branch's database (by id) as SQL, now or at WAL position `atLsn`; the
   * empty string at a point before the database was made.
   */
  async schemaAt(branch: BranchRecord, databaseId: number, atLsn?: string): Promise<string> {
    await this.sync();
    const physical = physicalName(branch, databaseId);
    if (atLsn === undefined) {
      const client = await this.#server.connectAdmin(physical);
      try {
        return await dumpSchema(client);
      } finally {
        await client.end();
      }
    }
    const name = branch.databases.find((d) => d.id === databaseId)?.name ?? "";
    return this.#timeline.schemaAt(later(atLsn, this.#born.get(branch.id)), physical, name);
  }

  /** Closes the proxies, then stops Postgres (a temporary data folder goes with it). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.#queue;
    await this.#timeline.stop();
    await Promise.all([...this.#proxies.values()].map((p) => p.close()));
    this.#proxies.clear();
    await this.#admin.end().catch(() => undefined);
    await this.#server.stop();
  }

  async #reconcile(): Promise<void> {
    const { store } = this.#ctx;
    const branches = store.liveBranches().filter((b) => store.liveProject(b.project_id) !== undefined);
    const roles = this.#roles.wanted(branches);
    // Oldest first, so a copy's source (a parent, a snapshot's branch, a restore's snapshot) exists.
    const holders: (DataHolder & { created_at_ms: number })[] = [...branches, ...store.snapshots.values()];
    holders.sort((a, b) => a.created_at_ms - b.created_at_ms);
    const wanted = new Map<string, Want>();
    const missing = new Map<DataHolder, string[]>();
    for (const holder of holders) {
      for (const d of holder.databases) {
        // A database of a role Postgres cannot have belongs to the group all API roles share.
        const owner = roles.has(d.owner_name) ? d.owner_name : GROUP;
        const physical = physicalName(holder, d.id);
        wanted.set(physical, { name: d.name, owner });
        if (!this.#databases.has(physical)) missing.set(holder, [...(missing.get(holder) ?? []), physical]);
      }
    }
    await this.#roles.create(roles);
    for (const [physical, want] of wanted) {
      const had = this.#databases.get(physical);
      if (had === undefined) continue;
      if (had.owner !== want.owner) {
        await this.#admin.query(`ALTER DATABASE ${quote(physical)} OWNER TO ${quote(want.owner)}`);
        had.owner = want.owner;
      }
      if (had.note.name !== want.name) {
        had.note = { ...had.note, name: want.name };
        await this.#sql.note(physical, had.note);
      }
    }
    const plans = [...missing].map(([holder, physicals]) => ({
      holder,
      targets: physicals.map((physical) => ({ physical, ...(wanted.get(physical) as Want) })),
    }));
    const done = new Set<DataHolder>();
    for (const { holder, targets } of plans) {
      if (done.has(holder)) continue;
      const plan = this.#plan(holder, targets);
      if (plan.atLsn === undefined) {
        await this.#copyNow(plan);
        continue;
      }
      // Every copy of the same point is taken from one recovery (a jump of the clock over a
      // backup schedule's hours asks for many); none depends on another database made here.
      const batch = [plan];
      for (const other of plans) {
        if (done.has(other.holder) || other.holder === holder) continue;
        const next = this.#plan(other.holder, other.targets);
        if (next.atLsn !== plan.atLsn) continue;
        batch.push(next);
        done.add(other.holder);
      }
      const copies = batch.flatMap((p) => p.targets.map((target, i) => ({ target, source: p.sources[i] })));
      await this.#timeline.copyAt(plan.atLsn, this.#admin, this.#sql, copies);
      for (const p of batch) await this.#finish(p, plan.atLsn);
    }
    this.#copies.clear();
    for (const physical of [...this.#databases.keys()]) {
      if (wanted.has(physical)) continue;
      await this.#admin.query(`DROP DATABASE IF EXISTS ${quote(physical)} WITH (FORCE)`);
      this.#databases.delete(physical);
    }
    await this.#roles.dropOthers(roles);
    await this.#syncProxies();
    await this.noteTime();
  }

  /** Where a holder's missing databases come from, and the point (clamped to the source's data) when it is one of history. */
  #plan(holder: DataHolder, targets: Target[]): Plan {
    const sources = targets.map((t) => this.#sourceOf(t.physical, holder, t.name));
    const asked = sources.find((s) => s?.atLsn !== undefined)?.atLsn;
    if (asked === undefined) return { holder, targets, sources, atLsn: undefined };
    // Not before the source's own data starts (a branch's history starts at its creation).
    const from = sources.find((s) => s !== undefined)?.physical;
    return { holder, targets, sources, atLsn: later(asked, from && this.#born.get(holderOf(from))) };
  }

  /** Makes a holder's missing databases as copies of their sources now, else empty. */
  async #copyNow(plan: Plan): Promise<void> {
    const { targets, sources } = plan;
    // Once their sessions end nothing writes to the sources until the sync ends (a login waits
    // for it), so the position read next is the one whose data the copies hold.
    for (const s of sources) if (s !== undefined) await this.#sql.endSessions(s.physical);
    const lsn = await this.#sql.lsn();
    for (const [i, t] of targets.entries()) {
      const source = sources[i];
      if (source === undefined) await this.#sql.createEmpty(t.physical, t.owner);
      else {
        await this.#sql.copy(t.physical, t.owner, source.physical);
        if (source.schemaOnly) await this.#sql.truncateAll(t.physical);
      }
    }
    await this.#finish(plan, lsn);
  }

  /** Notes a holder's new databases (their API names, where its data starts) and tells the copy's position. */
  async #finish(plan: Plan, lsn: string): Promise<void> {
    const born = this.#born.get(plan.holder.id) ?? (await this.#sql.lsn());
    this.#born.set(plan.holder.id, born);
    for (const t of plan.targets) {
      const note = { name: t.name, born };
      await this.#sql.note(t.physical, note);
      this.#databases.set(t.physical, { owner: t.owner, note });
    }
    for (const told of new Set(plan.sources.map((s) => s?.onCopied))) told?.(lsn);
  }

  /** The copy source a change named, else the parent's database of the same name (now), else none. */
  #sourceOf(physical: string, holder: DataHolder, name: string): CopySource | undefined {
    const named = this.#copies.get(physical);
    // A point of history is found in the recovered cluster; a copy of now needs the source here.
    if (named && (named.atLsn !== undefined || this.#databases.has(named.physical))) return named;
    const parent =
      holder.parent_id === undefined ? undefined : this.#ctx.store.branches.get(holder.parent_id);
    const same = parent?.databases.find((d) => d.name === name);
    if (!parent || !same) return undefined;
    const fromParent = physicalName(parent, same.id);
    return this.#databases.has(fromParent) ? { physical: fromParent, name, schemaOnly: false } : undefined;
  }

  async #syncProxies(): Promise<void> {
    const { store } = this.#ctx;
    for (const [id, proxy] of this.#proxies) {
      if (store.endpoints.has(id)) continue;
      this.#proxies.delete(id);
      this.#opsSeen.delete(id);
      await proxy.close();
    }
    for (const endpoint of store.endpoints.values()) {
      let proxy = this.#proxies.get(endpoint.id);
      if (!proxy) {
        proxy = await EndpointProxy.open(endpoint.id, this);
        this.#proxies.set(endpoint.id, proxy);
      }
      // A suspend asked since the last look ends the compute's sessions, as the service's does.
      const seen = this.#opsSeen.get(endpoint.id);
      const fresh = seen === undefined ? [] : endpoint.op_ids.slice(seen);
      if (fresh.some((id) => store.operations.get(id)?.action === "suspend_compute")) proxy.dropSessions();
      this.#opsSeen.set(endpoint.id, endpoint.op_ids.length);
    }
  }
}
