// Time travel through the real Pulumi engine, on the emulator's real Postgres: rows written, a point
// noted (a time and an LSN), a bad migration run; then branches from that point have the rows and
// not the migration, the schema diff between now and then shows it, and a restore of the branch to
// that time brings its data back as it was (docs/api-rules.md §9 and §12).
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

describe(`e2e: points of history through the engine, on the emulator's real Postgres${dataPlaneRun()}`, function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let point: string;

  /** Runs `sql` on a fresh connection to `uri`, verified against the emulator's CA. */
  const query = <T>(uri: string, sql: string) => runSql<T>(uri, emulator.caPath, sql);

  /** The columns of `orders`, whether the migration's table exists, and the items. */
  async function shape(uri: string) {
    const [columns] = await query<{ columns: string; audit: boolean }>(
      uri,
      "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) AS columns, " +
        "to_regclass('audit') IS NOT NULL AS audit FROM information_schema.columns WHERE table_name = 'orders'",
    );
    const rows = await query<{ item: string }>(uri, "SELECT item FROM orders ORDER BY id");
    return { ...columns, items: rows.map((r) => r.item) };
  }
  const BEFORE = { columns: "id,item,price", audit: false, items: ["tea", "cake"] };
  const AFTER = { columns: "id,item", audit: true, items: ["tea", "cake", "late"] };

  const outputs = async () =>
    Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, String(v.value)]));

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
    const parent = emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
    e2e = await programStack({
      workDir: fixture("history"),
      emulator,
      stackName: `e2e-history-${process.pid}`,
      config: { projectId: DEMO.projectId, parentId: DEMO.branchId, databaseName: parent.databases[0]!.name },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("up makes the app's branch; the app writes rows, a point is noted, then a bad migration runs", async () => {
    await e2e.stack.up(collect(e2e.output));
    const { appUri } = await outputs();
    await query(appUri!, "CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, price int)");
    await query(appUri!, "INSERT INTO orders (item, price) VALUES ('tea', 3), ('cake', 5)");
    // What a team notes before a migration: the time, and the branch's WAL position.
    point = new Date(emulator.control.now()).toISOString();
    const [noted] = await query<{ lsn: string }>(appUri!, "SELECT pg_current_wal_lsn()::text AS lsn");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await query(appUri!, "ALTER TABLE orders DROP COLUMN price");
    await query(appUri!, "CREATE TABLE audit (at timestamptz)");
    await query(appUri!, "INSERT INTO orders (item) VALUES ('late')");
    assert.deepEqual(await shape(appUri!), AFTER);
    await e2e.stack.setConfig("point", { value: point });
    await e2e.stack.setConfig("lsn", { value: noted!.lsn });
  });

  it("a Branch with parentTimestamp, and one with parentLsn, at that point have the rows and not the migration", async () => {
    await e2e.stack.up(collect(e2e.output));
    const out = await outputs();
    assert.deepEqual(await shape(out.atTimeUri!), BEFORE);
    assert.deepEqual(await shape(out.atLsnUri!), BEFORE);
    assert.deepEqual(await shape(out.appUri!), AFTER, "the app's branch keeps the migration");
  });

  it("getSchemaDiff between now and that point shows the migration", async () => {
    const { migration } = await outputs();
    assert.match(migration!, /^-\s+price integer/m);
    assert.match(migration!, /^\+CREATE TABLE public\.audit/m);
  });

  it("a Branch restore to that time brings the app's data back as it was, on the same branch", async () => {
    const { appId } = await outputs();
    await e2e.stack.setConfig("restoreTo", { value: point });
    await e2e.stack.up(collect(e2e.output));
    const out = await outputs();
    assert.equal(out.appId, appId, "restored in place: the same branch");
    assert.deepEqual(await shape(out.appUri!), BEFORE);
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(
      Object.keys(preview.changeSummary),
      ["same"],
      "a preview after the restore plans no change",
    );
  });
});
