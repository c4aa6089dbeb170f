import { rmSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { quote } from "./databases";
import { copyCluster, type DataFolder } from "./folder";
import { lsnValue } from "./history";

// A database taken from a scratch cluster (a point of history, backups.ts) into the main one.
// `CREATE DATABASE` copies only within a cluster, and the embedded binaries have no pg_dump, so
// the copy is of files, made safe for the main cluster:
//   1. in the scratch cluster, `VACUUM (FREEZE)` of every table of the database, catalogs
//      included: every row left is frozen, so no row depends on the scratch cluster's transaction
//      status (the two clusters' transaction ids part at the point); then a checkpoint writes
//      every page. The shared catalogs (roles, `pg_shdepend`...) are left out: the copy uses the
//      main cluster's, whose rows are not frozen, and a vacuum of them here would record in the
//      copied `pg_class` a frozen horizon ahead of those rows (a later vacuum then refuses them);
//   2. in the main cluster, an empty database made with `STRATEGY FILE_COPY` (its files are
//      copied on disk, none read into memory), its files replaced by the scratch database's, and
//      its entries in the shared `pg_shdepend` (which role owns or was granted what, so a role
//      that owns objects there cannot be dropped) written from the scratch cluster's;
//   3. the database the API wants made from that one with `STRATEGY WAL_LOG`, which writes every
//      page into the main cluster's WAL (so a later point recovered from this WAL holds it too),
//      and the intermediate database dropped.
// Both clusters come from one, so role and tablespace ids agree. The pages keep the scratch
// cluster's WAL positions until step 3 rewrites them, so the main cluster's WAL is first moved
// past the scratch cluster's end (a page must never be ahead of the WAL it was read with). In the
// same way the copied catalog holds each table's frozen horizon (`relfrozenxid`) from the scratch
// cluster, whose transaction ids may have run ahead of the main one's after the point (a vacuum
// that shortens a table there takes one for its lock): the main cluster's ids are first moved to
// the scratch cluster's next id, else a row written here later would be older than its table's
// horizon and the vacuum of a later point's copy refuses it. (Multixact ids are not taken by the scratch
// cluster after the point, so the main cluster's are already ahead.)

/** The intermediate database's name (none of the API's physical names looks like it). */
const STAGING = "clouddb_transplant";

/** What a scratch database brings along: its files' folder and its entries in `pg_shdepend`. */
export interface Frozen {
  oid: number;
  shdepend: unknown[];
}

/** Freezes a database of the scratch cluster and notes what its move needs. */
export async function freeze(
  connect: (database: string) => Promise<pg.Client>,
  physical: string,
): Promise<Frozen> {
  const client = await connect(physical);
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT oid::regclass::text AS name FROM pg_class WHERE relkind IN ('r', 'm') AND NOT relisshared",
    );
    await client.query(`VACUUM (FREEZE, DISABLE_PAGE_SKIPPING) ${tables.map((t) => t.name).join(", ")}`);
    const { rows } = await client.query<{ oid: number; shdepend: unknown[] }>(
      "SELECT d.oid::int AS oid, coalesce((SELECT json_agg(s) FROM pg_shdepend s WHERE s.dbid = d.oid), '[]'::json) AS shdepend " +
        "FROM pg_database d WHERE d.datname = current_database()",
    );
    return rows[0] as Frozen;
  } finally {
    await client.end();
  }
}

/** Where a settled scratch cluster ends: its WAL's end and its next transaction id. */
export interface ScratchEnd {
  lsn: string;
  nextXid: bigint;
}

/** Writes every page of the scratch cluster to disk; returns where it ends. */
export async function settle(client: pg.Client): Promise<ScratchEnd> {
  await client.query("CHECKPOINT");
  const { rows } = await client.query<{ lsn: string; next: string }>(
    "SELECT pg_current_wal_insert_lsn() AS lsn, pg_snapshot_xmax(pg_current_snapshot())::text AS next",
  );
  return { lsn: rows[0]?.lsn as string, nextXid: BigInt(rows[0]?.next as string) };
}

/** Moves the main cluster's next transaction id to `next` or past it (each statement takes one). */
async function xidPast(admin: pg.Client, next: bigint): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ next: string }>(
      "SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next",
    );
    const gap = next - BigInt(rows[0]?.next as string);
    if (gap <= 0n) return;
    for (let taken = 0n; taken < gap; taken++) await admin.query("SELECT pg_current_xact_id()");
  }
}

/** Moves the main cluster's WAL past `lsn` (a segment switch jumps to the next segment). */
async function walPast(admin: pg.Client, lsn: string): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
    if (lsnValue(rows[0]?.lsn as string) > lsnValue(lsn)) return;
    await admin.query("SELECT pg_logical_emit_message(false, 'clouddb-emulator', 'transplant')");
    await admin.query("SELECT pg_switch_wal()");
  }
}

/**
 * Makes `physical`, owned by `owner`, in the main cluster from a frozen database of the settled
 * scratch cluster (folder `scratchDir`, ending at `scratchEnd`).
 */
export async function transplant(
  admin: pg.Client,
  folder: DataFolder,
  scratchDir: string,
  scratchEnd: ScratchEnd,
  frozen: Frozen,
  target: { physical: string; owner: string },
): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${STAGING} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${STAGING} STRATEGY FILE_COPY TEMPLATE template0`);
  try {
    const { rows } = await admin.query<{ oid: number }>(
      "SELECT oid::int AS oid FROM pg_database WHERE datname = $1",
      [STAGING],
    );
    const dir = join(folder.cluster, "base", String(rows[0]?.oid));
    rmSync(dir, { recursive: true, force: true });
    // The relation cache file is left out: Postgres writes it again.
    copyCluster(folder, join(scratchDir, "base", String(frozen.oid)), dir, false);
    // Entries for a role dropped since the point are left out: nothing can own by it now.
    await admin.query(
      `INSERT INTO pg_shdepend (dbid, classid, objid, objsubid, refclassid, refobjid, deptype)
       SELECT $1::oid, (s->>'classid')::oid, (s->>'objid')::oid, (s->>'objsubid')::int,
              (s->>'refclassid')::oid, (s->>'refobjid')::oid, (s->>'deptype')::"char"
         FROM json_array_elements($2::json) s
        WHERE (s->>'refobjid')::oid IN (SELECT oid FROM pg_authid)`,
      [rows[0]?.oid, JSON.stringify(frozen.shdepend)],
    );
    await walPast(admin, scratchEnd.lsn);
    await xidPast(admin, scratchEnd.nextXid);
    await admin.query(
      `CREATE DATABASE ${quote(target.physical)} OWNER ${quote(target.owner)} TEMPLATE ${STAGING} STRATEGY WAL_LOG`,
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${STAGING} WITH (FORCE)`);
  }
}
