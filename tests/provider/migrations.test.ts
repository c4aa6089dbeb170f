import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import {
  type MigrationsInputs,
  type MigrationsOutputs,
  migrationsProvider,
} from "../../provider/resources/public/migrations";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { demoBranch, onlyFailure, PROVIDER_TEXT, projectIdle, rejection, useSqlEmulator } from "./support";

// Migrations on the emulator's real Postgres: a folder's files run in order, each once and in a
// transaction of its own, recorded with their sha256; a new file runs alone; an applied file edited
// since fails the preview; a failing file rolls back alone; rows lost outside run again.

const P = DEMO.projectId;

describe(`Migrations over SQL on the emulator's Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  const harness = useSqlEmulator();
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  let B: string;
  let ownerUri: string;
  let folders: string[] = [];
  let database = 0;
  const sql = <T>(db: string, ...statements: string[]) => {
    const url = new URL(ownerUri);
    url.pathname = `/${db}`;
    return runSql<T>(url.href, harness.emulator.caPath, ...statements);
  };

  before(async () => {
    B = await demoBranch(harness.emulator, "migrations");
    await api().createRole(P, B, { role: { name: "shop_owner" } });
    const first = await freshDatabase();
    ownerUri = await api().getConnectionUri(P, { branchId: B, databaseName: first, roleName: "shop_owner" });
  });
  afterEach(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    folders = [];
  });

  /** A new folder holding `files` (name to SQL). */
  function folderOf(files: Record<string, string>): string {
    const folder = mkdtempSync(join(tmpdir(), "clouddb-migrations-"));
    folders.push(folder);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    return folder;
  }
  /** A database of its own for one test, owned by the role that runs the migrations. */
  async function freshDatabase(): Promise<string> {
    database += 1;
    const name = `shop${database}`;
    await api().createDatabase(P, B, { database: { name, owner_name: "shop_owner" } });
    await projectIdle(harness.emulator, P);
    return name;
  }
  const inputs = (databaseName: string, folder: string, values: Partial<MigrationsInputs> = {}) =>
    ({
      projectId: P,
      branchId: B,
      databaseName,
      ownerName: "shop_owner",
      folder,
      ...values,
      __provider: PROVIDER_TEXT,
    }) as MigrationsInputs;
  /** The inputs `check` answers (with the folder's `files`), failing the test on a check failure. */
  const checked = async (news: MigrationsInputs, olds: Partial<MigrationsInputs> = {}) => {
    const result = await migrationsProvider.check!(olds as MigrationsInputs, news);
    assert.deepEqual(result.failures ?? [], []);
    return result.inputs as MigrationsInputs;
  };
  const recorded = (db: string) =>
    sql<{ name: string; sha256: string }>(
      db,
      "SELECT name, sha256 FROM public.clouddb_migrations ORDER BY name",
    );

  it("runs the files in the order of their names, each recorded with its sha256; a file added later runs alone", async () => {
    const db = await freshDatabase();
    const folder = folderOf({
      "0002_seed.sql": "INSERT INTO items (label) VALUES ('tea'); INSERT INTO items (label) VALUES ('jam');",
      "0001_init.sql": "CREATE TABLE items (id serial PRIMARY KEY, label text NOT NULL);",
      "README.md": "not a migration",
    });
    const news = await checked(inputs(db, folder));
    const { id, outs } = (await migrationsProvider.create(news)) as { id: string; outs: MigrationsOutputs };
    assert.deepEqual(
      outs.applied.map((a) => a.name),
      ["0001_init.sql", "0002_seed.sql"],
    );
    assert.deepEqual(outs.pending, []);
    assert.equal(outs.table, "clouddb_migrations");
    assert.deepEqual(
      await recorded(db),
      outs.files.map(({ name, sha256 }) => ({ name, sha256 })),
    );
    assert.match(outs.files[0]?.sha256 ?? "", /^[0-9a-f]{64}$/);

    writeFileSync(join(folder, "0003_more.sql"), "INSERT INTO items (label) VALUES ('cake');");
    const later = await checked(inputs(db, folder), news);
    const diff = await migrationsProvider.diff!(id, outs, later);
    assert.deepEqual(
      { changes: diff.changes, replaces: diff.replaces ?? [] },
      { changes: true, replaces: [] },
    );
    const updated = (await migrationsProvider.update!(id, outs, later)).outs as MigrationsOutputs;
    assert.deepEqual(
      await sql(db, "SELECT label FROM items ORDER BY id"),
      [{ label: "tea" }, { label: "jam" }, { label: "cake" }],
      "0001 and 0002 did not run again",
    );
    assert.deepEqual(updated.applied.slice(0, 2), outs.applied, "the earlier rows kept their applied_at");
    assert.equal(updated.applied[2]?.name, "0003_more.sql");
    assert.equal(
      (await migrationsProvider.diff!(id, updated, await checked(inputs(db, folder), later))).changes,
      false,
    );
  });

  it("refuses at preview an applied file edited since, naming it and its sha256", async () => {
    const db = await freshDatabase();
    const folder = folderOf({ "0001_init.sql": "CREATE TABLE notes (id int);" });
    const news = await checked(inputs(db, folder));
    const { outs } = (await migrationsProvider.create(news)) as { outs: MigrationsOutputs };
    writeFileSync(join(folder, "0001_init.sql"), "CREATE TABLE notes (id bigint);");
    const result = await migrationsProvider.check!(news, inputs(db, folder));
    const failure = onlyFailure(result);
    assert.equal(failure.property, "folder");
    assert.equal(
      failure.reason,
      `migration 0001_init.sql was applied with sha256 ${outs.files[0]?.sha256} and has changed since: ` +
        "migrations that ran are never edited; add a new file instead",
    );
    // A step given the edited folder without a preview (the table's record) refuses it too, running nothing.
    const step = await rejection(migrationsProvider.create(inputs(db, folder)));
    assert.match(
      step.message,
      /migration 0001_init\.sql was applied with sha256 [0-9a-f]{64} and has changed since/,
    );
  });

  it("rolls back a failing file alone: the files before it stay applied, the error names it and its SQLSTATE", async () => {
    const db = await freshDatabase();
    const folder = folderOf({
      "0001_init.sql": "CREATE TABLE orders (id int);",
      "0002_broken.sql": "CREATE TABLE half (id int); SELEC 1;",
      "0003_after.sql": "CREATE TABLE never (id int);",
    });
    const failed = await rejection(migrationsProvider.create(await checked(inputs(db, folder))));
    assert.match(
      failed.message,
      /migration 0002_broken\.sql in database "shop\d+" of branch br-[^ ]+ failed: syntax error at or near "SELEC" \(SQLSTATE 42601\)/,
    );
    assert.match(failed.message, /fix 0002_broken\.sql and run `pulumi up` again/);
    assert.deepEqual(
      (await recorded(db)).map((r) => r.name),
      ["0001_init.sql"],
    );
    const tables = await sql<{ name: string }>(
      db,
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    assert.deepEqual(
      tables.map((t) => t.name),
      ["clouddb_migrations", "orders"],
      "0002's first statement was rolled back and 0003 never ran",
    );
    // Fixed, the next create (nothing was recorded in the state) runs 0002 and 0003 only.
    writeFileSync(join(folder, "0002_broken.sql"), "CREATE TABLE half (id int);");
    const { outs } = (await migrationsProvider.create(await checked(inputs(db, folder)))) as {
      outs: MigrationsOutputs;
    };
    assert.deepEqual(
      outs.applied.map((a) => a.name),
      ["0001_init.sql", "0002_broken.sql", "0003_after.sql"],
    );
  });

  it("reads rows deleted outside the stack as pending, shows a change, and the update runs those files again", async () => {
    const db = await freshDatabase();
    const folder = folderOf({
      "0001_init.sql": "CREATE TABLE IF NOT EXISTS events (id int);",
      "0002_log.sql": "CREATE TABLE IF NOT EXISTS runs (at timestamptz); INSERT INTO runs VALUES (now());",
    });
    const news = await checked(inputs(db, folder));
    const { id, outs } = (await migrationsProvider.create(news)) as { id: string; outs: MigrationsOutputs };
    assert.equal((await migrationsProvider.diff!(id, outs, news)).changes, false);
    await sql(db, "DELETE FROM public.clouddb_migrations WHERE name = '0002_log.sql'");
    const refreshed = await migrationsProvider.read!(id, outs);
    const read = refreshed.props as MigrationsOutputs;
    assert.deepEqual(read.pending, ["0002_log.sql"]);
    assert.deepEqual(
      read.applied.map((a) => a.name),
      ["0001_init.sql"],
    );
    // Refresh's inputs record what the table holds, so the next check compares with it.
    const refreshedInputs = refreshed.inputs as unknown as { files: unknown };
    assert.deepEqual(refreshedInputs.files, [{ name: "0001_init.sql", sha256: outs.files[0]?.sha256 }]);
    const again = await checked(inputs(db, folder), refreshed.inputs as unknown as MigrationsInputs);
    const diff = await migrationsProvider.diff!(id, read, again);
    assert.deepEqual(
      { changes: diff.changes, replaces: diff.replaces ?? [] },
      { changes: true, replaces: [] },
    );
    const updated = (await migrationsProvider.update!(id, read, again)).outs as MigrationsOutputs;
    assert.deepEqual(updated.pending, []);
    assert.deepEqual(
      await sql(db, "SELECT count(*)::int AS runs FROM runs"),
      [{ runs: 2 }],
      "0002 ran again",
    );
    const events = await sql<{ n: number }>(
      db,
      "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'events'",
    );
    assert.deepEqual(events, [{ n: 1 }]);
  });

  it("records in the table the inputs name, and deleting the resource leaves the database as it is", async () => {
    const db = await freshDatabase();
    const folder = folderOf({ "001.sql": "CREATE TABLE kept (id int);" });
    const { id, outs } = (await migrationsProvider.create(
      await checked(inputs(db, folder, { table: "schema_history" })),
    )) as { id: string; outs: MigrationsOutputs };
    assert.equal(outs.table, "schema_history");
    await migrationsProvider.delete!(id, outs);
    assert.deepEqual(await sql(db, "SELECT name FROM public.schema_history"), [{ name: "001.sql" }]);
    assert.deepEqual(await sql(db, "SELECT count(*)::int AS n FROM kept"), [{ n: 0 }]);
  });

  it("refuses at preview a folder that does not exist, or holds no .sql file, saying what to give", async () => {
    const missing = onlyFailure(
      await migrationsProvider.check!(
        {} as MigrationsInputs,
        inputs("shop", join(tmpdir(), "no-such-migrations")),
      ),
    );
    assert.equal(missing.property, "folder");
    assert.match(
      missing.reason,
      /no-such-migrations cannot be read \(ENOENT\): give the path of an existing folder/,
    );
    const empty = onlyFailure(
      await migrationsProvider.check!({} as MigrationsInputs, inputs("shop", folderOf({ "notes.txt": "x" }))),
    );
    assert.equal(empty.property, "folder");
    assert.match(empty.reason, /holds no \.sql file: add the first migration/);
  });

  it("fails a step naming the branch when the API has no such database", async () => {
    const folder = folderOf({ "0001.sql": "SELECT 1;" });
    const failed = await rejection(migrationsProvider.create(await checked(inputs("nowhere", folder))));
    assert.match(failed.message, /the API has no database "nowhere" owned by role "shop_owner" on branch/);
  });
});
