import assert from "node:assert/strict";
import { neon, neonConfig } from "@neondatabase/serverless";
import { Client } from "pg";
import type { RunningEmulator } from "../../emulator";
import {
  type api,
  branchWithCompute,
  call,
  dataPlaneProject,
  dataPlaneRun,
  type Json,
  runSql,
  untilIdle,
  verifyFull,
} from "./helpers";

// History that is real: with the data plane, a point of a branch's history (a time of the
// emulator's clock, or an LSN the API gave) holds the data as it was then. The story is the one a
// team tests offline: rows written, a point noted, a bad migration run; then a branch from
// before it, a restore to before it, a snapshot of before it, and the diff the migration made.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`emulator history (points of time and LSNs backed by Postgres's WAL${dataPlaneRun()})`, function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  let project: string;
  let main: string;
  let mainUri: string;
  /** The emulator's time before the migration, as the control API reads it. */
  let beforeTime: string;
  /** The LSN before the migration, as the API gave it: the parent LSN of a branch made then. */
  let beforeLsn: string;

  const idle = () => untilIdle(http, project);
  /** One query on a URI the API returned, the endpoint verified against this emulator's CA. */
  const query = (uri: string, sql: string) => runSql(uri, emu.caPath, sql);
  const driverSettings = {
    fetchEndpoint: neonConfig.fetchEndpoint,
    wsProxy: neonConfig.wsProxy,
    useSecureWebSocket: neonConfig.useSecureWebSocket,
  };

  /** The emulator's clock as a client reads it over HTTP. */
  async function clockNow(): Promise<string> {
    const read = await call(emu.origin, "GET", "/__emulator/clock");
    assert.equal(read.status, 200, read.text);
    return read.body.iso as string;
  }

  /** Makes a branch of the main branch, at `point`, with a compute. */
  const branch = (point: Json) => branchWithCompute(http, project, { parent_id: main, ...point });

  /** The columns of `orders` and whether the migration's table exists, on a URI. */
  async function shape(uri: string): Promise<Json> {
    const [columns] = await query(
      uri,
      "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) AS columns, to_regclass('audit') IS NOT NULL AS audit " +
        "FROM information_schema.columns WHERE table_name = 'orders'",
    );
    const rows = await query(uri, "SELECT item FROM orders ORDER BY id");
    return { ...columns, items: rows.map((r) => r.item) };
  }

  const BEFORE = { columns: "id,item,price", audit: false, items: ["tea", "cake"] };
  const AFTER = { columns: "id,item", audit: true, items: ["tea", "cake", "late"] };

  before(async () => {
    ({ emu, http, project, main, mainUri } = await dataPlaneProject("history"));
    await query(mainUri, "CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, price int)");
    await query(mainUri, "INSERT INTO orders (item, price) VALUES ('tea', 3), ('cake', 5)");
    beforeTime = await clockNow();
    beforeLsn = (await branch({})).parentLsn;
    await pause(20);
    // The bad migration: a column dropped, a table added, and a row written after.
    await query(mainUri, "ALTER TABLE orders DROP COLUMN price");
    await query(mainUri, "CREATE TABLE audit (at timestamptz)");
    await query(mainUri, "INSERT INTO orders (item) VALUES ('late')");
    assert.deepEqual(await shape(mainUri), AFTER);
  });

  after(async () => {
    Object.assign(neonConfig, driverSettings);
    await emu?.stop();
  });

  it("gives real WAL positions as LSNs: a branch made now names the parent's current position", async () => {
    assert.match(beforeLsn, /^[0-9A-F]+\/[0-9A-F]+$/);
    const [{ lsn }] = await query(mainUri, "SELECT pg_current_wal_lsn()::text AS lsn");
    const value = (text: string) => {
      const [high, low] = text.split("/") as [string, string];
      return BigInt(`0x${high}`) * 2n ** 32n + BigInt(`0x${low}`);
    };
    assert.ok(value(beforeLsn) < value(lsn), `${beforeLsn} is before the migration's WAL (${lsn})`);
    assert.ok(value(beforeLsn) > 0x1000000n, "not a made-up position at the start of the WAL");
  });

  it("makes a branch from a timestamp before the migration with the rows and without the migration", async () => {
    const dev = await branch({ parent_timestamp: beforeTime });
    assert.deepEqual(await shape(dev.uri), BEFORE);
  });

  it("makes a branch from an LSN before the migration with the rows and without the migration", async () => {
    const dev = await branch({ parent_lsn: beforeLsn });
    assert.deepEqual(await shape(dev.uri), BEFORE);
    await idle();
    const late = await http.post(`/projects/${project}/branches`, {
      branch: { parent_id: main, parent_lsn: "FFFF/0" },
    });
    assert.equal(late.status, 400, late.text);
    assert.match(late.body.message, /branch\.parent_lsn FFFF\/0 is in the future/);
  });

  it("diffs the schema of now against the point before the migration, and shows the schema then", async () => {
    const diff = await http.get(
      `/projects/${project}/branches/${main}/compare_schema?db_name=neondb&base_branch_id=${main}&base_timestamp=${encodeURIComponent(beforeTime)}`,
    );
    assert.equal(diff.status, 200, diff.text);
    assert.match(diff.body.diff, /^-\s+price integer/m);
    assert.match(diff.body.diff, /^\+CREATE TABLE public\.audit/m);
    const then = await http.get(
      `/projects/${project}/branches/${main}/schema?db_name=neondb&lsn=${encodeURIComponent(beforeLsn)}`,
    );
    assert.equal(then.status, 200, then.text);
    assert.match(then.body.sql, /price integer/);
    assert.doesNotMatch(then.body.sql, /audit/);
  });

  it("takes a snapshot at the point before the migration, whose restore has the rows and not the migration", async () => {
    await idle();
    const taken = await http.post(
      `/projects/${project}/branches/${main}/snapshot?timestamp=${encodeURIComponent(beforeTime)}&name=before`,
    );
    assert.equal(taken.status, 200, taken.text);
    await idle();
    const restored = await http.post(`/projects/${project}/snapshots/${taken.body.snapshot.id}/restore`, {
      target_branch_id: main,
      name: "from-snapshot",
    });
    assert.equal(restored.status, 200, restored.text);
    const id = restored.body.branch.id as string;
    await idle();
    const endpoint = await http.post(`/projects/${project}/endpoints`, {
      endpoint: { branch_id: id, type: "read_write" },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const uri = await http.get(
      `/projects/${project}/connection_uri?branch_id=${id}&database_name=neondb&role_name=neondb_owner`,
    );
    assert.equal(uri.status, 200, uri.text);
    assert.deepEqual(await shape(uri.body.uri), BEFORE);
  });

  it("holds at a time every write a client was told of before it, the clock read at once after the commit", async () => {
    // The session stays open: the only readings of the WAL besides the periodic one would come
    // after the time the client notes, so without a reading between the commit and the client's
    // answer most points would lack their row; three tries make a miss all but certain then.
    const db = new Client({ connectionString: verifyFull(mainUri, emu.caPath) });
    await db.connect();
    const points: string[] = [];
    try {
      await db.query("CREATE TABLE tally (n int)");
      for (let n = 1; n <= 3; n++) {
        await db.query(`INSERT INTO tally VALUES (${n})`);
        points.push(new Date(emu.control.now()).toISOString());
      }
    } finally {
      await db.end();
    }
    for (const [i, point] of points.entries()) {
      const there = await branch({ parent_timestamp: point });
      const rows = await query(there.uri, "SELECT n FROM tally ORDER BY n");
      assert.deepEqual(
        rows.map((r) => r.n),
        [1, 2, 3].slice(0, i + 1),
        `the rows at ${point}`,
      );
    }
  });

  it("restores the branch to the point before the migration, keeping the migrated data under the preserved name, and a point between the two still holds the migration", async () => {
    // SQL over HTTP keeps a connection to the branch's database pooled across the restore.
    Object.assign(neonConfig, emu.serverless);
    const items = async () => (await neon(mainUri)`SELECT item FROM orders ORDER BY id`).map((r) => r.item);
    assert.deepEqual(await items(), AFTER.items);
    const migrated = await clockNow();
    await pause(20);
    await idle();
    const restored = await http.post(`/projects/${project}/branches/${main}/restore`, {
      source_branch_id: main,
      source_timestamp: beforeTime,
      preserve_under_name: "main-migrated",
    });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(await shape(mainUri), BEFORE);
    assert.deepEqual(await items(), BEFORE.items, "SQL over HTTP reads the restored data");
    const branches = (await http.get(`/projects/${project}/branches`)).body.branches as Json[];
    const kept = branches.find((b) => b.name === "main-migrated");
    const keptSchema = await http.get(`/projects/${project}/branches/${kept.id}/schema?db_name=neondb`);
    assert.match(keptSchema.body.sql, /CREATE TABLE public\.audit/, "the preserved branch has the migration");
    // The restore gave the branch new databases; its history before the restore is still its own.
    const between = await branch({ parent_timestamp: migrated });
    assert.deepEqual(await shape(between.uri), AFTER);
  });

  it("holds at a point after the restore the rows written since, the restored rows frozen in the same copy", async () => {
    // The restored database came from a scratch cluster whose transaction ids ran ahead of the
    // main cluster's; rows written afterwards must still be readable at a later point.
    for (const item of ["scone", "bun", "pie"]) {
      await query(mainUri, `INSERT INTO orders (item) VALUES ('${item}')`);
    }
    await query(mainUri, "UPDATE orders SET price = 4 WHERE item = 'tea'");
    const written = await clockNow();
    await pause(20);
    await query(mainUri, "DELETE FROM orders WHERE item = 'cake'");
    const later = await branch({ parent_timestamp: written });
    assert.deepEqual(await shape(later.uri), { ...BEFORE, items: ["tea", "cake", "scone", "bun", "pie"] });
    const [tea] = await query(later.uri, "SELECT price FROM orders WHERE item = 'tea'");
    assert.deepEqual(tea, { price: 4 });
  });
});
