// A preview environment with production's data and none of its personal data, through the real
// Pulumi engine on the emulator's real Postgres: an anonymized Branch of production has its rows,
// every masked column in its function's format and none of production's values; production keeps
// its data; a rule added, and a new anonymizeTrigger, mask the branch again (docs/api-rules.md §16).
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { call, dataPlaneRun, runSql } from "../emulator/helpers";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

interface User {
  id: number;
  email: string;
  name: string;
}

const PEOPLE = [
  "Ada Lovelace",
  "Grace Hopper",
  "Edsger Dijkstra",
  "Barbara Liskov",
  "Donald Knuth",
  "Frances Allen",
];
const EMAIL = /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

describe(`e2e: an anonymized preview branch through the engine, on the emulator's real Postgres${dataPlaneRun()}`, function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let production: string;
  let produced: User[];

  const query = <T>(uri: string, sql: string) => runSql<T>(uri, emulator.caPath, sql);
  const users = (uri: string) => query<User>(uri, "SELECT id, email, name FROM users ORDER BY id");
  const outputs = async () =>
    Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, String(v.value)]));

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
    const parent = emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
    const databaseName = parent.databases[0]!.name;
    const owner = parent.databases[0]!.owner_name;
    const answer = await call(
      emulator.url,
      "GET",
      `/projects/${DEMO.projectId}/connection_uri?database_name=${databaseName}&role_name=${owner}`,
      { key: DEMO.personalKey },
    );
    assert.equal(answer.status, 200, answer.text);
    production = answer.body.uri as string;
    const rows = PEOPLE.map(
      (name, i) => `('${name.split(" ")[0]!.toLowerCase()}.${i}@corp.example', '${name}')`,
    );
    await query(
      production,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL UNIQUE, name text)",
    );
    await query(production, `INSERT INTO users (email, name) VALUES ${rows.join(", ")}`);
    produced = await users(production);
    e2e = await programStack({
      workDir: fixture("anonymized"),
      emulator,
      stackName: `e2e-anonymized-${process.pid}`,
      config: { projectId: DEMO.projectId, productionId: DEMO.branchId, databaseName },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  /** Asserts the rows are production's, one for one, with `masked` columns holding none of its values. */
  function assertMasked(rows: User[], masked: (keyof User)[]) {
    assert.equal(rows.length, produced.length, "the same rows");
    assert.deepEqual(
      rows.map((r) => r.id),
      produced.map((r) => r.id),
    );
    for (const column of ["email", "name"] as const) {
      const before = new Set(produced.map((r) => r[column]));
      if (masked.includes(column)) {
        for (const row of rows)
          assert.ok(!before.has(row[column]), `${column} ${row[column]} is not production's`);
      } else {
        assert.deepEqual(
          rows.map((r) => r[column]),
          produced.map((r) => r[column]),
          `${column}, which no rule names, is kept`,
        );
      }
    }
    for (const row of rows) assert.match(row.email, EMAIL, "a masked email is still an email");
  }

  it("up makes the PR's branch with production's rows, its emails masked, before any connection is handed out", async () => {
    await e2e.stack.up(collect(e2e.output));
    const out = await outputs();
    assert.equal(out.anonymizationState, "anonymized");
    assertMasked(await users(out.uri!), ["email"]);
    assert.deepEqual(await users(production), produced, "production keeps its data");
  });

  it("a rule added masks the names too, in place, on the same branch", async () => {
    const { branchId } = await outputs();
    await e2e.stack.setConfig("maskNames", { value: "true" });
    await e2e.stack.up(collect(e2e.output));
    const out = await outputs();
    assert.equal(out.branchId, branchId, "the same branch");
    const rows = await users(out.uri!);
    assertMasked(rows, ["email", "name"]);
    for (const row of rows) assert.match(row.name, /^[A-Z][a-z]+$/, "a masked name is a first name");
    assert.deepEqual(await users(production), produced, "production keeps its data");
  });

  it("a new anonymizeTrigger masks a row that came in unmasked since; the preview after it plans no change", async () => {
    const { uri } = await outputs();
    await query(uri!, "INSERT INTO users (email, name) VALUES ('leak@corp.example', 'Ada Lovelace')");
    await e2e.stack.setConfig("anonymizeTrigger", { value: "again" });
    await e2e.stack.up(collect(e2e.output));
    const rows = await users(uri!);
    const leaked = rows.at(-1)!;
    assert.notEqual(leaked.email, "leak@corp.example");
    assert.match(leaked.email, EMAIL);
    assert.notEqual(leaked.name, "Ada Lovelace");
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(preview.changeSummary), ["same"], "nothing left to change");
  });
});
