import assert from "node:assert/strict";
import { AdvisorCategory, createApiClient } from "@neondatabase/api-client";
import { Client } from "pg";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, dataPlaneRun, type Json, newProject, start, untilIdle, verifyFull } from "./helpers";

// A project's advisor findings: read from the branch database's catalog with the data plane, none
// without it (no database holds any object then).

describe("advisors without the data plane", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start();
  });
  after(() => emu.stop());

  it("finds nothing on the default branch's only database, and asks which database when there are several", async () => {
    const http = api(emu, DEMO.personalKey);
    const none = await http.get(`/projects/${DEMO.projectId}/advisors`);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body, { issues: [] });
    const added = await http.post(`/projects/${DEMO.projectId}/branches/${DEMO.branchId}/databases`, {
      database: { name: "second", owner_name: "neondb_owner" },
    });
    assert.equal(added.status, 201, added.text);
    const which = await http.get(`/projects/${DEMO.projectId}/advisors`);
    assert.equal(which.status, 400);
    assert.match(which.body.message, /give database_name, one of neondb, second/);
    assert.equal((await http.get(`/projects/${DEMO.projectId}/advisors?database_name=second`)).status, 200);
    assert.equal((await http.get(`/projects/${DEMO.projectId}/advisors?database_name=third`)).status, 404);
    assert.equal(
      (await http.get(`/projects/${DEMO.projectId}/advisors?branch_id=br-not-here-0000`)).status,
      404,
    );
    const member = await api(emu, DEMO.memberPersonalKey).get(`/projects/${DEMO.projectId}/advisors`);
    assert.equal(member.status, 403);
  });
});

describe(`advisors on the emulator's real Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let project: string;

  before(async () => {
    emu = await startEmulator({ postgres: true, opDurationMs: 5, limits: false });
    const http = api(emu, DEMO.personalKey);
    const made = await newProject(http, "advised");
    project = made.project;
    await untilIdle(http, project);
    const client = new Client({ connectionString: verifyFull(made.uri, emu.caPath) });
    await client.connect();
    try {
      await client.query(`
        CREATE TABLE authors (id int PRIMARY KEY, name text);
        ALTER TABLE authors ENABLE ROW LEVEL SECURITY;
        CREATE TABLE books (author_id int REFERENCES authors (id), title text);
        CREATE INDEX books_title ON books (title);
        CREATE INDEX books_title_again ON books (title);
        CREATE SCHEMA private;
        CREATE TABLE private.notes (id int PRIMARY KEY, author_id int REFERENCES authors (id));
        CREATE INDEX notes_author ON private.notes (author_id);`);
    } finally {
      await client.end();
    }
  });
  after(async () => {
    await emu?.stop();
  });

  const found = (issues: Json[]) => issues.map((i) => `${i.name}: ${i.detail}`);

  it("finds tables without RLS in public, without a primary key, duplicate indexes and unindexed foreign keys", async () => {
    const reply = await api(emu, DEMO.personalKey).get(`/projects/${project}/advisors`);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(found(reply.body.issues), [
      "rls_disabled_in_public: Table `public.books` is public, but RLS has not been enabled.",
      "no_primary_key: Table `public.books` does not have a primary key.",
      "duplicate_index: Table `public.books` has identical indexes {books_title, books_title_again}. Drop all but one of them.",
      "unindexed_foreign_keys: Table `public.books` has a foreign key `books_author_id_fkey` without a covering index.",
    ]);
    const [rls] = reply.body.issues;
    assert.deepEqual(
      { level: rls.level, facing: rls.facing, categories: rls.categories },
      { level: "ERROR", facing: "EXTERNAL", categories: ["SECURITY"] },
    );
    assert.equal(rls.metadata.database, "neondb");
  });

  it("filters by category and minimum severity, through the official client", async () => {
    const client = createApiClient({ apiKey: DEMO.personalKey, baseURL: emu.url });
    const security = await client.getProjectAdvisorSecurityIssues({
      projectId: project,
      category: AdvisorCategory.SECURITY,
    });
    assert.deepEqual(
      security.data.issues.map((i) => i.name),
      ["rls_disabled_in_public"],
    );
    const warnings = await client.getProjectAdvisorSecurityIssues({
      projectId: project,
      min_severity: "WARN",
    });
    assert.deepEqual(
      warnings.data.issues.map((i) => i.name),
      ["rls_disabled_in_public", "duplicate_index"],
    );
  });
});
