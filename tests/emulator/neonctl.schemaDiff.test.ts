import assert from "node:assert/strict";
import { Client } from "pg";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, dataPlaneRun, type Json, verifyFull } from "./helpers";
import { useNeonctlOn } from "./neonctl-harness";

// `neonctl branches schema-diff` (unchanged) against the emulator with its Postgres data plane:
// the CLI reads each side's schema (`GET .../schema`) and diffs them itself, so what it prints is
// the schema of the branches' real databases.

describe(`the official CLI's schema-diff against the emulator's real Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let project: string;
  let main: string;
  let dev: { id: string; uri: string };

  /** Waits until the project has no unfinished operation. */
  async function idle(): Promise<void> {
    for (;;) {
      const ops = (await api(emu, DEMO.personalKey).get(`/projects/${project}/operations`)).body
        .operations as Json[];
      if (ops.every((op) => ["finished", "cancelled", "skipped", "error"].includes(op.status))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  before(async () => {
    emu = await startEmulator({ postgres: true, opDurationMs: 5, limits: false });
    const http = api(emu, DEMO.personalKey);
    const created = await http.post("/projects", { project: { name: "shop" } });
    assert.equal(created.status, 201, created.text);
    project = created.body.project.id;
    main = created.body.branch.id;
    await idle();
    const child = await http.post(`/projects/${project}/branches`, {
      branch: { parent_id: main, name: "feature" },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(child.status, 201, child.text);
    dev = { id: child.body.branch.id, uri: child.body.connection_uris[0].connection_uri };
    await idle();
    const client = new Client({ connectionString: verifyFull(dev.uri, emu.caPath) });
    await client.connect();
    await client.query("CREATE TABLE tickets (id serial PRIMARY KEY, title text NOT NULL)");
    await client.end();
  });
  after(async () => {
    await emu?.stop();
  });

  const { neonctl } = useNeonctlOn(() => emu, { output: "table" });

  /** `neonctl branches schema-diff SOURCES` on the project's neondb: what it printed, asserting success. */
  async function schemaDiff(...sources: string[]): Promise<string> {
    const run = await neonctl(
      "branches",
      "schema-diff",
      ...sources,
      "--project-id",
      project,
      "--db",
      "neondb",
    );
    assert.equal(run.code, 0, `schema-diff ${sources.join(" ")} failed: ${run.stderr}${run.stdout}`);
    return run.stdout;
  }

  /** Asserts the diff's headers: main's schema the old side, feature's the new. */
  function mainToFeature(text: string): void {
    assert.match(text, new RegExp(`^--- Database: neondb\\t\\(Branch: ${main}\\)$`, "m"));
    assert.match(text, new RegExp(`^\\+\\+\\+ Database: neondb\\t\\(Branch: ${dev.id}\\)$`, "m"));
  }

  it("prints a table made on the compared branch as added lines, each side named by its branch", async () => {
    const text = await schemaDiff(main, "feature");
    mainToFeature(text);
    assert.match(text, /^\+CREATE TABLE public\.tickets \($/m);
    assert.match(text, /^\+ {4}title text NOT NULL$/m);
    assert.match(text, /^\+ALTER SEQUENCE public\.tickets_id_seq OWNED BY public\.tickets\.id;$/m);
  });

  it("compares a branch with its parent (^parent), the parent's schema as the old side", async () => {
    const text = await schemaDiff("feature", "^parent");
    mainToFeature(text);
    assert.match(text, /^\+CREATE TABLE public\.tickets \($/m);
  });

  it("shows no change between a branch and a point of its own history after its last change", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const now = new Date(Date.now() - 500).toISOString().replace(/\.\d+Z$/, "Z");
    const text = await schemaDiff("feature", `^self@${now}`);
    assert.match(text, new RegExp(`^\\+\\+\\+ Database: neondb\\t\\(Branch: ${dev.id} at ${now}\\)$`, "m"));
    assert.doesNotMatch(text, /^[+-](?![+-]{2} )/m);
  });

  it("fails with the service's words for a point before the branch existed", async () => {
    const run = await neonctl(
      "branches",
      "schema-diff",
      "feature",
      "^self@2020-01-01T00:00:00Z",
      "--project-id",
      project,
    );
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /timestamp 2020-01-01T00:00:00Z is outside the history of branch/);
  });
});
