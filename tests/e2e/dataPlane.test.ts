// Branches made by the real Pulumi engine against the emulator with its real Postgres: the
// connection strings the provider outputs connect, carry the parent's rows (or only its schema), a
// reset brings the parent's data back and the same up makes again the role, the migrations and the
// grants it undid, a password reset locks the old password out, and destroy leaves no database behind.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

describe(`e2e: branches the engine makes, served by the emulator's real Postgres${dataPlaneRun()}`, function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let parentUri: string;

  /** Runs `sql` on a fresh connection to `uri`, verified against the emulator's CA, and returns the rows. */
  const query = <T>(uri: string, sql: string) => runSql<T>(uri, emulator.caPath, sql);

  const count = async (uri: string) =>
    (await query<{ n: number }>(uri, "SELECT count(*)::int AS n FROM items"))[0]?.n;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
    const parent = emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
    const [owner, database] = [parent.roles[0]!.name, parent.databases[0]!.name];
    parentUri = await createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(
      DEMO.projectId,
      { branchId: DEMO.branchId, roleName: owner, databaseName: database },
    );
    await query(parentUri, "CREATE TABLE items (id int PRIMARY KEY, note text)");
    await query(parentUri, "INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    e2e = await programStack({
      workDir: fixture("data-plane"),
      emulator,
      stackName: `e2e-data-${process.pid}`,
      config: {
        projectId: DEMO.projectId,
        parentId: DEMO.branchId,
        databaseName: database,
        ownerName: owner,
      },
      // The kinds over SQL verify the computes' certificates against the emulator's CA.
      env: { PGSSLROOTCERT: emulator.caPath ?? "" },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  const outputs = async () =>
    Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, String(v.value)]));

  it("up: the child's connection string sees the parent's rows, the schema-only branch the table without rows", async () => {
    await e2e.stack.up(collect(e2e.output));
    const out = await outputs();
    assert.equal(out.applied, "0001_notes.sql");
    assert.equal(out.envApplied, "0001_notes.sql");
    assert.equal(await count(out.envRuntimeUri!), 3, "the environment's copy has the parent's rows");
    assert.equal(await count(out.childUri!), 3);
    assert.equal(await count(out.schemaOnlyUri!), 0);
    await query(out.childUri!, "INSERT INTO items VALUES (4, 'only on the child'), (5, 'and this')");
    assert.equal(await count(out.childUri!), 5);
    assert.equal(await count(parentUri), 3, "the parent keeps its own data");
  });

  it("a new passwordResetTrigger locks the old password out and the new one in", async () => {
    const before = (await outputs()).appUri!;
    assert.deepEqual(await query(before, "SELECT current_user AS who"), [{ who: "app" }]);
    await e2e.stack.setConfig("passwordResetTrigger", { value: "rotate-1" });
    await e2e.stack.up(collect(e2e.output));
    const after = (await outputs()).appUri!;
    assert.notEqual(after, before);
    await assert.rejects(query(before, "SELECT 1"), (err: { code?: string }) => err.code === "28P01");
    assert.deepEqual(await query(after, "SELECT current_user AS who"), [{ who: "app" }]);
  });

  it("a new resetTrigger replaces the child's data with the parent's, and the same up makes again the role, the migrations and the grants the reset undid, of the kinds alone and of a PreviewEnvironment", async () => {
    await e2e.stack.setConfig("resetTrigger", { value: "2026-11-23" });
    const up = await e2e.stack.up(collect(e2e.output));
    // Both branches reset; the role, the migrations and the grants on them read themselves again and
    // converge: nothing is created, nothing deleted.
    assert.deepEqual(
      [up.summary.resourceChanges?.create ?? 0, up.summary.resourceChanges?.delete ?? 0],
      [0, 0],
      e2e.output.join("\n"),
    );
    const out = await outputs();
    assert.equal(await count(out.childUri!), 3, "the child's writes are gone");
    assert.equal(out.applied, "0001_notes.sql");
    assert.deepEqual(
      await query(out.runtimeUri!, "INSERT INTO notes VALUES (1, 'after the reset') RETURNING id"),
      [{ id: 1 }],
      "the migration ran again and the runtime role writes to its table",
    );
    assert.deepEqual(await query(out.appUri!, "SELECT current_user AS who"), [{ who: "app" }]);
    // The environment's too: its migration ran again on the parent's rows, its runtime role writes.
    assert.equal(out.envApplied, "0001_notes.sql");
    assert.deepEqual(
      await query(out.envRuntimeUri!, "INSERT INTO notes VALUES (1, 'after the reset') RETURNING id"),
      [{ id: 1 }],
    );
    const again = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(again.changeSummary), ["same"], e2e.output.join("\n"));
  });

  it("destroy removes the branches' databases from Postgres", async () => {
    const { childId, schemaOnlyId } = await outputs();
    const branchDatabases = () =>
      query<{ datname: string }>(
        parentUri,
        `SELECT datname FROM pg_database WHERE datname LIKE '${childId}/%' OR datname LIKE '${schemaOnlyId}/%'`,
      );
    assert.ok((await branchDatabases()).length >= 2, "each branch has its databases while it lives");
    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(await branchDatabases(), []);
  });
});
