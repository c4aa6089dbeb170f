import { createHash } from "node:crypto";
import type pg from "pg";

// The Postgres connections that SQL over HTTP runs its queries on. As the service does, a
// connection outlives its request: it goes back to a pool of its endpoint, role, database and
// password when the request leaves it idle (outside a transaction), and the next request of the
// same four takes it, so a query costs no Postgres login. The pool checks no password: every
// request is admitted first (against the emulator's state, or by Postgres for a role made over
// SQL), so a reset password is refused at once although connections opened with it stay pooled.
// The password is part of the key (a digest of it) because a role made over SQL logs in with its
// own: a request never takes a connection that a login with another password opened. A suspended
// compute and a database that is copied or dropped end their connections, as Postgres ends theirs.

/** Idle connections kept per endpoint, role, database and password; more are closed when they go idle. */
const MAX_IDLE = 8;
/** An idle connection is closed after this long unused. */
const IDLE_MS = 60_000;

/** A connection lent to one request. */
export interface Lease {
  client: pg.Client;
  /** Gives the connection back: to the pool when it is idle, else it is closed. */
  release(): void;
}

/** Who a connection logs in as: the role, and the password Postgres is given for it. */
export interface PoolLogin {
  role: string;
  password: string;
}

interface Entry {
  client: pg.Client;
  endpointId: string;
  role: string;
  database: string;
  key: string;
  timer?: NodeJS.Timeout;
}

/** Pooled Postgres connections of SQL over HTTP, by endpoint, role, physical database and password. */
export class HttpConnectionPool {
  readonly #connect: (login: PoolLogin, database: string) => Promise<pg.Client>;
  readonly #idle = new Map<string, Entry[]>();
  /** Every open connection, idle or lent. */
  readonly #open = new Set<Entry>();
  #closed = false;

  constructor(connect: (login: PoolLogin, database: string) => Promise<pg.Client>) {
    this.#connect = connect;
  }

  /** A connection as `login` to the physical `database` for `endpointId`: a pooled one, or a new one (throws the login's error). */
  async acquire(endpointId: string, login: PoolLogin, database: string): Promise<Lease> {
    const secret = createHash("sha256").update(login.password).digest("hex");
    const key = JSON.stringify([endpointId, login.role, database, secret]);
    let entry = this.#idle.get(key)?.pop();
    if (entry !== undefined) clearTimeout(entry.timer);
    else {
      const client = await this.#connect(login, database);
      entry = { client, endpointId, role: login.role, database, key };
      const opened = entry;
      this.#open.add(opened);
      // A connection Postgres ended (a terminated backend, a stopped server) leaves the pool.
      client.once("end", () => this.#forget(opened));
      if (this.#closed) this.#end(opened);
    }
    const lent = entry;
    let released = false;
    return {
      client: lent.client,
      release: () => {
        if (released) return;
        released = true;
        this.#giveBack(lent);
      },
    };
  }

  /**
   * Ends the connections of an endpoint (its compute was suspended, or it is gone), to a physical
   * database (it is about to be copied or dropped), or of a role (it is about to be dropped).
   */
  drop(which: { endpointId: string } | { database: string } | { role: string }): void {
    for (const entry of [...this.#open]) {
      const match =
        "endpointId" in which
          ? entry.endpointId === which.endpointId
          : "database" in which
            ? entry.database === which.database
            : entry.role === which.role;
      if (match) this.#end(entry);
    }
  }

  /** Ends every connection; later ones are ended as soon as they open. */
  close(): void {
    this.#closed = true;
    for (const entry of [...this.#open]) this.#end(entry);
  }

  #giveBack(entry: Entry): void {
    if (!this.#open.has(entry)) return;
    const idle = this.#idle.get(entry.key) ?? [];
    // Only a connection outside any transaction may serve another request (a `pg` too old to tell: none).
    const status =
      typeof entry.client.getTransactionStatus === "function"
        ? entry.client.getTransactionStatus()
        : undefined;
    if (this.#closed || status !== "I" || idle.length >= MAX_IDLE) {
      this.#end(entry);
      return;
    }
    entry.timer = setTimeout(() => this.#end(entry), IDLE_MS);
    entry.timer.unref();
    idle.push(entry);
    this.#idle.set(entry.key, idle);
  }

  #end(entry: Entry): void {
    this.#forget(entry);
    entry.client.end().catch(() => undefined);
  }

  #forget(entry: Entry): void {
    clearTimeout(entry.timer);
    this.#open.delete(entry);
    const idle = this.#idle.get(entry.key);
    if (idle === undefined) return;
    const rest = idle.filter((e) => e !== entry);
    if (rest.length > 0) this.#idle.set(entry.key, rest);
    else this.#idle.delete(entry.key);
  }
}
