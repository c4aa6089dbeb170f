import type pg from "pg";
import type { BranchRecord } from "../records";
import {
  type CopyOptions,
  type CopySource,
  type DatabaseNote,
  type DataHolder,
  GROUP,
  holderOf,
  listDatabases,
  type Plan,
  physicalName,
  quote,
  type Statements,
  type Target,
  type Want,
} from "./databases";
import { lsnValue } from "./history";
import type { HttpConnectionPool } from "./http-pool";
import type { Timeline } from "./timeline";

// The main cluster's physical databases, kept in step with the state: one per (branch, database)
// and per (snapshot, database). A missing one is made as a copy of the source the last change
// named (a parent, a restore source: its data now, or at a point of its history, recovered and
// moved in by the timeline) or empty; one the state no longer holds is dropped. A copy or a drop
// first ends the sessions on the database, SQL over HTTP's pooled connections among them.

/** The later of two WAL positions. */
function later(a: string, b: string | undefined): string {
  return b !== undefined && lsnValue(b) > lsnValue(a) ? b : a;
}

/** What the cluster's databases are made with. */
export interface ClusterParts {
  admin: pg.Client;
  sql: Statements;
  timeline: Timeline;
  pool: HttpConnectionPool;
  /** A branch of the state by id (a holder's parent). */
  branchOf(id: string): BranchRecord | undefined;
}

/** The physical databases of the main cluster and the copies asked for them. */
export class ClusterDatabases {
  readonly #parts: ClusterParts;
  /** Physical databases that exist, with their owner and API name. */
  readonly #databases = new Map<string, { owner: string; note: DatabaseNote }>();
  /** Per branch or snapshot, the WAL position from which it has data. */
  readonly #born = new Map<string, string>();
  readonly #copies = new Map<string, CopySource>();

  constructor(parts: ClusterParts) {
    this.#parts = parts;
  }

  /** Takes in the databases a kept cluster already holds, with their notes. */
  async load(): Promise<void> {
    for (const d of await listDatabases(this.#parts.admin)) {
      // A database without a note (the emulator stopped between making and noting it) has data from now.
      const note = d.note ?? { name: "", born: await this.#parts.sql.lsn() };
      this.#databases.set(d.physical, { owner: d.owner, note });
      const holder = holderOf(d.physical);
      const known = this.#born.get(holder);
      if (known === undefined || lsnValue(note.born) < lsnValue(known)) this.#born.set(holder, note.born);
    }
  }

  /** See `DataPlane.copyData`. */
  copyData(target: DataHolder, sources: Map<string, string>, options: CopyOptions): void {
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

  /** `lsn`, or the position a holder's data starts from when that is later (its history starts there). */
  fromBirth(holderId: string, lsn: string): string {
    return later(lsn, this.#born.get(holderId));
  }

  /**
   * Brings the databases to `holders`' (oldest first, so a copy's source exists): owners and notes
   * set, missing ones made, others dropped. `roles` are the roles Postgres has.
   */
  async reconcile(holders: DataHolder[], roles: Set<string>): Promise<void> {
    const { admin, sql, timeline, pool } = this.#parts;
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
    for (const [physical, want] of wanted) {
      const had = this.#databases.get(physical);
      if (had === undefined) continue;
      if (had.owner !== want.owner) {
        await admin.query(`ALTER DATABASE ${quote(physical)} OWNER TO ${quote(want.owner)}`);
        had.owner = want.owner;
      }
      if (had.note.name !== want.name) {
        had.note = { ...had.note, name: want.name };
        await sql.note(physical, had.note);
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
      await timeline.copyAt(plan.atLsn, admin, sql, copies);
      for (const p of batch) await this.#finish(p, plan.atLsn);
    }
    this.#copies.clear();
    for (const physical of [...this.#databases.keys()]) {
      if (wanted.has(physical)) continue;
      pool.drop({ database: physical });
      await admin.query(`DROP DATABASE IF EXISTS ${quote(physical)} WITH (FORCE)`);
      this.#databases.delete(physical);
    }
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
    const { sql, pool } = this.#parts;
    const { targets, sources } = plan;
    // Once their sessions end nothing writes to the sources until the sync ends (a login waits
    // for it), so the position read next is the one whose data the copies hold.
    for (const s of sources) {
      if (s === undefined) continue;
      pool.drop({ database: s.physical });
      await sql.endSessions(s.physical);
    }
    const lsn = await sql.lsn();
    for (const [i, t] of targets.entries()) {
      const source = sources[i];
      if (source === undefined) await sql.createEmpty(t.physical, t.owner);
      else {
        await sql.copy(t.physical, t.owner, source.physical);
        if (source.schemaOnly) await sql.truncateAll(t.physical);
      }
    }
    await this.#finish(plan, lsn);
  }

  /** Notes a holder's new databases (their API names, where its data starts) and tells the copy's position. */
  async #finish(plan: Plan, lsn: string): Promise<void> {
    const { sql } = this.#parts;
    const born = this.#born.get(plan.holder.id) ?? (await sql.lsn());
    this.#born.set(plan.holder.id, born);
    for (const t of plan.targets) {
      const note = { name: t.name, born };
      await sql.note(t.physical, note);
      this.#databases.set(t.physical, { owner: t.owner, note });
    }
    for (const told of new Set(plan.sources.map((s) => s?.onCopied))) told?.(lsn);
  }

  /** The copy source a change named, else the parent's database of the same name (now), else none. */
  #sourceOf(physical: string, holder: DataHolder, name: string): CopySource | undefined {
    const named = this.#copies.get(physical);
    // A point of history is found in the recovered cluster; a copy of now needs the source here.
    if (named && (named.atLsn !== undefined || this.#databases.has(named.physical))) return named;
    const parent = holder.parent_id === undefined ? undefined : this.#parts.branchOf(holder.parent_id);
    const same = parent?.databases.find((d) => d.name === name);
    if (!parent || !same) return undefined;
    const fromParent = physicalName(parent, same.id);
    return this.#databases.has(fromParent) ? { physical: fromParent, name, schemaOnly: false } : undefined;
  }
}
