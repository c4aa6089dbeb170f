import type pg from "pg";
import type { Clock } from "../clock";
import { PointRecovery } from "./backups";
import { listDatabases, locate, type Statements } from "./databases";
import { SAMPLE_MS, WalClock } from "./history";
import type { PostgresServer } from "./postgres";
import { dumpSchema } from "./schema";
import { type Frozen, freeze, settle, transplant } from "./transplant";

// The data plane's history: the clock's readings of the WAL (history.ts), the base backups and
// recoveries (backups.ts), and what is done with a recovered point: its databases moved into the
// main cluster (transplant.ts) or its schema read.

/** How long, in wall milliseconds, a commit's reading waits for the clock to tick. */
const TICK_WAIT_MS = 5;

/** A database to make from a source at a point (the source's name now and API name), or empty. */
export interface PointCopy {
  target: { physical: string; owner: string };
  source: { physical: string; name: string; schemaOnly: boolean } | undefined;
}

/** The history of one data plane's cluster. */
export class Timeline {
  readonly #server: PostgresServer;
  readonly #clock: Clock;
  readonly #observer: pg.Client;
  readonly #window: () => number;
  readonly #recovery: PointRecovery;
  readonly #readings: WalClock;
  #reading: Promise<void> = Promise.resolve();
  /** A read queued and not yet sent: whoever asks now is answered by it (a commit, by a commit's). */
  #waiting: { commit: boolean; done: Promise<void> } | undefined;
  #upkeep: Promise<void> | undefined;
  #sampler: NodeJS.Timeout | undefined;
  #stopped = false;

  /**
   * `observer` is a connection used for nothing else; `windowSeconds` tells how far back any
   * project's history reaches (what is older may go).
   */
  constructor(server: PostgresServer, clock: Clock, observer: pg.Client, windowSeconds: () => number) {
    this.#server = server;
    this.#clock = clock;
    this.#observer = observer;
    this.#window = windowSeconds;
    this.#recovery = new PointRecovery(server);
    this.#readings = new WalClock(server.folder.points);
  }

  /** Takes a new cluster's first base backup (history starts with it), a first reading, and starts reading every `SAMPLE_MS`. */
  async start(lsn: string): Promise<void> {
    await this.#recovery.backUpIfDue(lsn);
    await this.noteTime();
    this.#sampler = setInterval(() => void this.noteTime(), SAMPLE_MS);
    this.#sampler.unref();
  }

  /** Stops reading; waits for a base backup under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sampler);
    await this.#reading;
    await this.#upkeep;
    await this.#observer.end().catch(() => undefined);
  }

  /** The WAL position of the data at emulator clock time `ms` (docs/api-rules.md §9). */
  lsnAt(ms: number): string {
    return this.#readings.lsnAt(ms) ?? "0/0";
  }

  /** The emulator clock time by which the WAL reached `lsn`; Infinity when it has not yet. */
  timeAt(lsn: string): number {
    return this.#readings.timeAt(lsn);
  }

  /**
   * Reads the WAL position, then notes it with the clock's time once the answer is in; resolves
   * once a read sent after this call is noted. Callers while a read waits for its turn share it.
   * Never rejects. A reading for a commit (`commit`) is noted at the clock's next millisecond and
   * resolves once the clock has reached it (docs/api-rules.md §9 says why).
   */
  noteTime(commit = false): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    const waiting = this.#waiting;
    if (waiting !== undefined && (waiting.commit || !commit)) return waiting.done;
    // One read at a time on the connection; each waits well under a millisecond for the one before.
    const next = { commit, done: Promise.resolve() };
    next.done = this.#reading.then(() => {
      if (this.#waiting === next) this.#waiting = undefined;
      return this.#read(commit);
    });
    this.#waiting = next;
    this.#reading = next.done;
    return next.done;
  }

  async #read(commit: boolean): Promise<void> {
    if (this.#stopped) return;
    let lsn: string;
    try {
      const { rows } = await this.#observer.query<{ lsn: string }>(
        "SELECT pg_current_wal_insert_lsn() AS lsn",
      );
      lsn = rows[0]?.lsn as string;
    } catch {
      return;
    }
    const read = this.#clock.now();
    this.#readings.add(commit ? await this.#tick(read) : read, lsn);
    this.#upkeep ??= this.#keep(lsn).finally(() => {
      this.#upkeep = undefined;
    });
  }

  /**
   * The clock's first millisecond after `read`, once it has come (no client can have read a time
   * that late before the WAL was read); `read` itself when the clock does not move on its own.
   */
  async #tick(read: number): Promise<number> {
    const until = Date.now() + TICK_WAIT_MS;
    while (this.#clock.now() <= read) {
      if (Date.now() > until) return read;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return read + 1;
  }

  /** A base backup when one is due; then what no point of the history window needs goes. */
  async #keep(lsn: string): Promise<void> {
    try {
      if (!(await this.#recovery.backUpIfDue(lsn))) return;
      const from = this.#clock.now() - this.#window() * 1000;
      await this.#recovery.forgetBefore(this.lsnAt(from));
      this.#readings.forgetBefore(from);
    } catch (error) {
      if (!this.#stopped) {
        process.stderr.write(
          `clouddb-emulator: warning: keeping the data plane's history: ${(error as Error).message}\n`,
        );
      }
    }
  }

  /** The schema of the database that held `physical` (API name `name`) at `lsn`; "" when none did. */
  schemaAt(lsn: string, physical: string, name: string): Promise<string> {
    const server = this.#server;
    return this.#recovery.recover(lsn, async (port) => {
      const admin = await server.connectAdmin("postgres", port);
      const there = locate(await listDatabases(admin).finally(() => admin.end()), physical, name);
      if (there === undefined) return "";
      const client = await server.connectAdmin(there.physical, port);
      try {
        return await dumpSchema(client);
      } finally {
        await client.end();
      }
    });
  }

  /**
   * Makes databases in the main cluster (through `admin` and `sql`) from their sources as they
   * were at `lsn`: the point is recovered, each source found there, frozen and moved in; a
   * source that did not exist then (or none) gives an empty database.
   */
  copyAt(lsn: string, admin: pg.Client, sql: Statements, copies: PointCopy[]): Promise<void> {
    const server = this.#server;
    return this.#recovery.recover(lsn, async (port) => {
      const scratch = await server.connectAdmin("postgres", port);
      try {
        const there = await listDatabases(scratch);
        const found: (Frozen | undefined)[] = [];
        for (const { source } of copies) {
          const db = source === undefined ? undefined : locate(there, source.physical, source.name);
          found.push(
            db === undefined ? undefined : await freeze((d) => server.connectAdmin(d, port), db.physical),
          );
        }
        const end = await settle(scratch);
        // The scratch cluster is idle and every page is on disk: its files can be copied while it runs.
        for (const [i, { target, source }] of copies.entries()) {
          const frozen = found[i];
          if (frozen === undefined) await sql.createEmpty(target.physical, target.owner);
          else {
            await transplant(admin, server.folder, server.folder.scratch, end, frozen, target);
            if (source?.schemaOnly) await sql.truncateAll(target.physical);
          }
        }
      } finally {
        await scratch.end();
      }
    });
  }
}
