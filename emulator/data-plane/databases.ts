import type pg from "pg";
import type { BranchRecord } from "../records";
import { SERVICE_ROLES } from "../rules";

// The physical databases of the main cluster, as statements: made empty, copied from another
// (`CREATE DATABASE ... TEMPLATE`), emptied of rows, and noted. Each one carries a note (its
// `COMMENT`, a shared catalog entry the WAL records) with the API name of the database it holds
// and the WAL position from which its branch or snapshot has data: a cluster recovered to a
// point then tells which physical database held a branch's `neondb` at that point (a restore
// gives a branch new physical databases), and a restarted emulator finds its databases again.

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** The group every API role joins: reads and writes every table, as the service's roles can. */
export const GROUP = SERVICE_ROLES.group;

/** What holds databases: a branch, or a snapshot (which has no parent). */
export type DataHolder = Pick<BranchRecord, "id" | "databases"> & { parent_id?: string | undefined };

/** Where a copied database comes from. */
export interface CopySource {
  /** The source's physical name when the copy was asked for. */
  physical: string;
  /** The API name of the source database (to find it at a point, before a restore renamed it). */
  name: string;
  schemaOnly: boolean;
  /** A point of the source's history; its data now when left out. */
  atLsn?: string | undefined;
  /** Told the WAL position the copy holds the data of. */
  onCopied?: ((lsn: string) => void) | undefined;
}

/** A database the state wants: its API name and owner. */
export type Want = { name: string; owner: string };
/** A physical database to make. */
export type Target = Want & { physical: string };
/** How a holder's missing databases are made. */
export interface Plan {
  holder: DataHolder;
  targets: Target[];
  sources: (CopySource | undefined)[];
  atLsn: string | undefined;
}

/** How a copy is asked for. */
export interface CopyOptions {
  /** The tables are copied without their rows. */
  schemaOnly?: boolean;
  /** The sources' data at this WAL position (a point of their history), not now. */
  atLsn?: string;
  /** Told, once the copy is made, the WAL position whose data it holds. */
  onCopied?: (lsn: string) => void;
}

/** What a physical database's note says. */
export interface DatabaseNote {
  /** The API name of the database it holds. */
  name: string;
  /** The WAL position from which its branch (or snapshot) has data: its history starts there. */
  born: string;
}

/** A physical database of a cluster, with its owner and note. */
export interface PhysicalDatabase {
  physical: string;
  oid: number;
  owner: string;
  note: DatabaseNote | undefined;
}

/** The Postgres name of a branch's database: stable across renames, unique per branch. */
export function physicalName(holder: DataHolder, databaseId: number): string {
  return `${holder.id}/${databaseId}`;
}

/** The branch or snapshot a physical name (`<holder id>/<database id>`) belongs to. */
export function holderOf(physical: string): string {
  return physical.slice(0, physical.lastIndexOf("/"));
}

/** The physical databases (every `<holder>/<id>` name) of the cluster `client` is connected to. */
export async function listDatabases(client: pg.Client): Promise<PhysicalDatabase[]> {
  const { rows } = await client.query<{ physical: string; oid: number; owner: string; note: string | null }>(
    "SELECT datname AS physical, oid::int AS oid, pg_get_userbyid(datdba) AS owner, " +
      "shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname LIKE '%/%'",
  );
  return rows.map((r) => {
    let note: DatabaseNote | undefined;
    try {
      note = r.note === null ? undefined : (JSON.parse(r.note) as DatabaseNote);
    } catch {
      note = undefined;
    }
    return { physical: r.physical, oid: r.oid, owner: r.owner, note };
  });
}

/**
 * The physical database that held `holder`'s database `name` in a cluster's list: the one named
 * `physical` (its name now), else the holder's one noted with that name (before a restore).
 */
export function locate(
  databases: PhysicalDatabase[],
  physical: string,
  name: string,
): PhysicalDatabase | undefined {
  const holder = holderOf(physical);
  return (
    databases.find((d) => d.physical === physical) ??
    databases.find((d) => holderOf(d.physical) === holder && d.note?.name === name)
  );
}

/** The statements on the main cluster's physical databases. */
export class Statements {
  readonly #admin: pg.Client;
  readonly #connect: (database: string) => Promise<pg.Client>;

  constructor(admin: pg.Client, connect: (database: string) => Promise<pg.Client>) {
    this.#admin = admin;
    this.#connect = connect;
  }

  /** The WAL's insert position now. */
  async lsn(): Promise<string> {
    const { rows } = await this.#admin.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
    return rows[0]?.lsn as string;
  }

  /** Makes an empty database whose `public` schema every API role may use. */
  async createEmpty(physical: string, owner: string): Promise<void> {
    await this.#admin.query(`CREATE DATABASE ${quote(physical)} OWNER ${quote(owner)}`);
    await this.#grantPublicSchema(physical);
  }

  /** Ends the sessions connected to a database (a copy needs none). */
  async endSessions(physical: string): Promise<void> {
    await this.#admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [physical],
    );
  }

  /** Copies a database; its sessions end first, and again if one slipped in meanwhile. */
  async copy(physical: string, owner: string, template: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.endSessions(template);
      try {
        await this.#admin.query(
          `CREATE DATABASE ${quote(physical)} OWNER ${quote(owner)} TEMPLATE ${quote(template)}`,
        );
        return;
      } catch (error) {
        const inUse = (error as { code?: string }).code === "55006";
        if (!inUse || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }

  /** Writes a database's note. */
  async note(physical: string, note: DatabaseNote): Promise<void> {
    await this.#admin.query(`COMMENT ON DATABASE ${quote(physical)} IS ${literal(JSON.stringify(note))}`);
  }

  /**
   * Lets every role the API creates make objects in the database's `public` schema, as the service
   * does for its roles' group (since Postgres 15 only the database owner may by default). Copies
   * keep the grant: a database copied from this one carries it.
   */
  async #grantPublicSchema(physical: string): Promise<void> {
    const client = await this.#connect(physical);
    try {
      await client.query(`GRANT ALL ON SCHEMA public TO ${GROUP} WITH GRANT OPTION`);
    } finally {
      await client.end();
    }
  }

  /** Empties every table of a copied database: the schema stays, the rows go. */
  async truncateAll(physical: string): Promise<void> {
    const client = await this.#connect(physical);
    try {
      const { rows } = await client.query<{ name: string }>(
        "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables " +
          "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      if (rows.length > 0) {
        await client.query(`TRUNCATE ${rows.map((r) => r.name).join(", ")} RESTART IDENTITY CASCADE`);
      }
    } finally {
      await client.end();
    }
  }
}
