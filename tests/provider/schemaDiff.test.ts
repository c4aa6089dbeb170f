import assert from "node:assert/strict";
import { Client } from "pg";
import { DEMO } from "../../emulator";
import { getSchemaDiff, getSchemaDiffOutput } from "../../provider";
import { createClient } from "../../provider/client";
import { api, dataPlaneRun, type Json, verifyFull } from "../emulator/helpers";
import { projectIdle, useEmulator } from "./support";

// getSchemaDiff against the emulator: with its Postgres data plane, schemas are read from the
// branches' real databases, changed through real connections; without it, every database is empty.

const project = DEMO.projectId;
const main = DEMO.branchId;

/** Runs SQL on a fresh connection, then closes it. */
async function run(uri: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: uri });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`getSchemaDiff with real Postgres behind the branches${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  const harness = useEmulator({ postgres: true, limits: false });

  /** A child of `parent` with a read-write compute: its id and owner's connection URI. */
  async function child(parent: string): Promise<{ id: string; uri: string }> {
    await projectIdle(harness.emulator, project);
    const created = await api(harness.emulator, DEMO.personalKey).post(`/projects/${project}/branches`, {
      branch: { parent_id: parent },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(created.status, 201, created.text);
    const given = (created.body.connection_uris as Json[])[0].connection_uri as string;
    const uri = verifyFull(given, harness.emulator.caPath);
    await projectIdle(harness.emulator, project);
    return { id: created.body.branch.id, uri };
  }

  it("shows a table made on a branch through a real connection as added lines of the diff from its parent", async () => {
    const dev = await child(main);
    await run(dev.uri, "CREATE TABLE invoices (id bigint PRIMARY KEY, total numeric(10,2) NOT NULL)");
    const { diff, changed } = await getSchemaDiff({
      projectId: project,
      branchId: dev.id,
      databaseName: "neondb",
    });
    assert.equal(changed, true);
    assert.match(
      diff,
      new RegExp(`^--- neondb \\(branch ${main}\\)\\n\\+\\+\\+ neondb \\(branch ${dev.id}\\)\\n`),
    );
    assert.match(
      diff,
      /^\+CREATE TABLE public\.invoices \(\n\+ {4}id bigint NOT NULL,\n\+ {4}total numeric\(10,2\) NOT NULL\n\+\);$/m,
    );
    assert.match(diff, /^\+ {4}ADD CONSTRAINT invoices_pkey PRIMARY KEY \(id\);$/m);
    assert.doesNotMatch(diff, /^-(?!-- )/m, "nothing of the parent's schema is gone");

    // The other way round the same table is removed lines.
    const reverse = await getSchemaDiff({
      projectId: project,
      branchId: main,
      baseBranchId: dev.id,
      databaseName: "neondb",
    });
    assert.match(reverse.diff, /^-CREATE TABLE public\.invoices \($/m);
    assert.doesNotMatch(reverse.diff, /^\+[^+]/m);
  });

  it("is empty for a branch whose schema is its parent's, and its Output form gives the same", async () => {
    const same = await child(main);
    assert.deepEqual(await getSchemaDiff({ projectId: project, branchId: same.id, databaseName: "neondb" }), {
      diff: "",
      changed: false,
    });
    const output = getSchemaDiffOutput({ projectId: project, branchId: same.id, databaseName: "neondb" });
    const value = await new Promise((resolve) => output.apply(resolve));
    assert.deepEqual(value, { diff: "", changed: false });
  });

  it("compares a branch with its own past: the schema at a point before a table was made, and after it", async () => {
    const dev = await child(main);
    await pause(1100);
    const beforeTable = new Date().toISOString();
    await pause(1100);
    await run(dev.uri, "CREATE TABLE notes (body text)");
    await pause(200);
    const afterTable = new Date().toISOString();
    const unchanged = await getSchemaDiff({
      projectId: project,
      branchId: dev.id,
      baseBranchId: dev.id,
      baseTimestamp: afterTable,
      databaseName: "neondb",
    });
    assert.deepEqual(unchanged, { diff: "", changed: false });

    const since = await getSchemaDiff({
      projectId: project,
      branchId: dev.id,
      baseBranchId: dev.id,
      baseTimestamp: beforeTable,
      databaseName: "neondb",
    });
    assert.equal(since.changed, true);
    assert.match(since.diff, new RegExp(`^--- neondb \\(branch ${dev.id} at ${beforeTable}\\)$`, "m"));
    assert.match(since.diff, /^\+CREATE TABLE public\.notes \($/m);
    assert.doesNotMatch(since.diff, /^-(?!-- )/m, "nothing was there before that is gone");
  });

  it("refuses points outside the branch's history: before it existed, in the future, a malformed LSN, two points for one side", async () => {
    const dev = await child(main);
    const ask = (base: { baseLsn?: string; baseTimestamp?: string }) =>
      getSchemaDiff({
        projectId: project,
        branchId: dev.id,
        baseBranchId: dev.id,
        databaseName: "neondb",
        ...base,
      });
    await assert.rejects(ask({ baseLsn: "0/1" }), /400 .*base_lsn 0\/1 is outside the history of branch/);
    await assert.rejects(ask({ baseLsn: "FF/0" }), /400 .*base_lsn FF\/0 is in the future of branch/);
    await assert.rejects(ask({ baseLsn: "yesterday" }), /400 .*base_lsn must be an LSN like 0\/1F0A3B8/);
    await assert.rejects(
      ask({ baseTimestamp: "2020-01-01T00:00:00Z" }),
      /400 .*base_timestamp 2020-01-01T00:00:00Z is outside the history of branch/,
    );
    await assert.rejects(
      ask({ baseLsn: "0/1F0A3B8", baseTimestamp: new Date().toISOString() }),
      /400 .*give only one of base_lsn and base_timestamp/,
    );
  });

  it("reads one branch's schema as SQL through the client, the same text the diff is made of", async () => {
    const dev = await child(main);
    await run(dev.uri, "CREATE TYPE mood AS ENUM ('calm', 'busy'); CREATE TABLE moods (m mood)");
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
    const sql = await client.getBranchSchema(project, dev.id, { dbName: "neondb" });
    assert.match(sql, /^CREATE TYPE public\.mood AS ENUM \(\n {4}'calm',\n {4}'busy'\n\);$/m);
    assert.match(sql, /^-- Name: moods; Type: TABLE; Schema: public; Owner: neondb_owner$/m);
    assert.match(sql, /^ {4}m public\.mood$/m);
  });
});

describe("getSchemaDiff without a data plane", () => {
  const harness = useEmulator();

  it("finds no difference between two branches: no database holds any object", async () => {
    assert.deepEqual(
      await getSchemaDiff({ projectId: project, branchId: main, baseBranchId: main, databaseName: "neondb" }),
      { diff: "", changed: false },
    );
  });

  it("without baseBranchId, says to pass it for a schema-only branch, which the service records without a parent", async () => {
    await projectIdle(harness.emulator, project);
    const created = await api(harness.emulator, DEMO.personalKey).post(`/projects/${project}/branches`, {
      branch: { name: "schema-copy", parent_id: main, init_source: "schema-only" },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body.branch as Json).id as string;
    await projectIdle(harness.emulator, project);
    const err = await getSchemaDiff({ projectId: project, branchId: id, databaseName: "neondb" }).then(
      () => assert.fail("a default base was found"),
      (e: Error) => e,
    );
    assert.match(
      err.message,
      new RegExp(
        `^getSchemaDiff: branch ${id} \\(schema-copy\\) is a schema-only branch, .*: pass baseBranchId`,
      ),
    );
    assert.doesNotMatch(err.message, /base_branch_id/);
    // With the base given, the diff is read.
    assert.deepEqual(
      await getSchemaDiff({ projectId: project, branchId: id, baseBranchId: main, databaseName: "neondb" }),
      { diff: "", changed: false },
    );
  });

  it("names a database the branch does not have", async () => {
    await assert.rejects(
      getSchemaDiff({ projectId: project, branchId: main, baseBranchId: main, databaseName: "nope" }),
      /404 .*database nope not found on branch/,
    );
  });
});
