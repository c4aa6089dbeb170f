import { rmSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { quote } from "./databases";
import { copyCluster, type DataFolder } from "./folder";
import { lsnValue } from "./history";

// A database taken from a scratch cluster (a point of history, backups.ts) into the main one.
// `CREATE DATABASE` copies only within a cluster, and the embedded binaries have no pg_dump, so
// the copy is of files, made safe for the main cluster:
//   1. in the scratch cluster, `VACUUM (FREEZE)` of the whole database, catalogs included: every
//      row left is frozen, so no row depends on the scratch cluster's transaction status (the
//      two clusters' transaction ids part at the point); then a checkpoint writes every page;
//   2. in the main cluster, an empty database made with `STRATEGY FILE_COPY` (its files are
//      copied on disk, none read into memory), its files replaced by the scratch database's, and
//      its entries in the shared `pg_shdepend` (which role owns or was granted what, so a role
//      that owns objects there cannot be dropped) written from the scratch cluster's;
//   3. the database the API wants made from that one with `STRATEGY WAL_LOG`, which writes every
//      page into the main cluster's WAL (so a later point recovered from this WAL holds it too),
//      and the intermediate database dropped.
// Both clusters come from one, so role and tablespace ids agree. The pages keep the scratch
// cluster's WAL positions until step 3 rewrites them, so the main cluster's WAL is first moved
// past the scratch cluster's end (a page must never be ahead of the WAL it was read with).

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
    await client.query("VACUUM (FREEZE, DISABLE_PAGE_SKIPPING)");
    const { rows } = await client.query<{ oid: number; shdepend: unknown[] }>(
      "SELECT d.oid::int AS oid, coalesce((SELECT json_agg(s) FROM pg_shdepend s WHERE s.dbid = d.oid), '[]'::json) AS shdepend " +
        "FROM pg_database d WHERE d.datname = current_database()",
    );
    return rows[0] as Frozen;
  } finally {
    await client.end();
  }
}

/** Writes every page of the scratch cluster to disk; returns its WAL's end. */
export async function settle(client: pg.Client): Promise<string> {
  await client.query("CHECKPOINT");
  const { rows } = await client.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn");
  return rows[0]?.lsn as string;
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
 * scratch cluster (folder `scratchDir`, WAL end `scratchEnd`).
 */
export async function transplant(
  admin: pg.Client,
  folder: DataFolder,
  scratchDir: string,
  scratchEnd: string,
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
    await walPast(admin, scratchEnd);
    await admin.query(
      `CREATE DATABASE ${quote(target.physical)} OWNER ${quote(target.owner)} TEMPLATE ${STAGING} STRATEGY WAL_LOG`,
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${STAGING} WITH (FORCE)`);
  }
}
