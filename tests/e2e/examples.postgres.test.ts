// The preview-environment example on the emulator's real Postgres, under the real Pulumi engine:
// DATABASE_URL connects as the app's own role to the branch's copy of production's database, with no
// rows, or with production's rows masked by the example's rule when `data: anonymized`.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { STACK_MARKS } from "../../provider/resources/lifecycle/owner";
import { runSql } from "../emulator/helpers";
import { programStack } from "./support/programStack";
import { collect, type E2eStack, ROOT } from "./support/stack";
import { exampleStack } from "./support/workflow";

/** The template of Pulumi Deployments' review stacks: its program, and the page with its settings. */
const REVIEW = join(ROOT, "examples", "review-stacks", "deployments");

describe("e2e: the preview-environment example on the emulator's real Postgres", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack | undefined;

  /** Runs `statements` in order on a fresh connection to `uri` (verifying the endpoint); returns the last one's rows. */
  const query = <T>(uri: string, ...statements: string[]) => runSql<T>(uri, emulator.caPath, ...statements);

  /** The connection string of the project's default branch (production) as its owner. */
  const productionUri = () =>
    createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(DEMO.orgProjectId, {
      roleName: "neondb_owner",
      databaseName: "neondb",
    });

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("DATABASE_URL connects as the app's own role to the branch's copy of neondb: production's table, none of its rows, and the role writes to it", async () => {
    const production = await productionUri();
    await query(
      production,
      "CREATE TABLE items (id serial PRIMARY KEY, note text)",
      "INSERT INTO items (note) VALUES ('a'), ('b'), ('c')",
    );
    e2e = await exampleStack(emulator, "11");
    await e2e.stack.up(collect(e2e.output));
    const out = await e2e.stack.outputs();
    const url = String(out.DATABASE_URL?.value);

    const [who] = await query<{ role: string; items: number }>(
      url,
      "SELECT current_user AS role, (SELECT count(*)::int FROM items) AS items",
    );
    assert.deepEqual(who, { role: out.roleName?.value, items: 0 }, "the schema, none of the rows");
    const [written] = await query<{ n: number }>(
      url,
      "INSERT INTO items (note) VALUES ('fixture 1'), ('fixture 2')",
      "SELECT count(*)::int AS n FROM items",
    );
    assert.equal(written?.n, 2);
    const [kept] = await query<{ n: number }>(production, "SELECT count(*)::int AS n FROM items");
    assert.equal(kept?.n, 3, "production keeps its own rows");
  });

  it("with data: anonymized, DATABASE_URL reads production's rows with the emails its masking rule names masked", async () => {
    const production = await productionUri();
    await query(
      production,
      "CREATE TABLE people (id serial PRIMARY KEY, email text, team text)",
      "INSERT INTO people (email, team) VALUES ('ada@corp.example', 'core'), ('grace@corp.example', 'db')",
    );
    const rule = {
      databaseName: "neondb",
      tableName: "people",
      columnName: "email",
      maskingFunction: "anon.fake_email()",
    };
    e2e = await exampleStack(emulator, "12", { data: "anonymized", maskingRules: JSON.stringify([rule]) });
    await e2e.stack.up(collect(e2e.output));
    const url = String((await e2e.stack.outputs()).DATABASE_URL?.value);
    const rows = await query<{ email: string; team: string }>(
      url,
      "SELECT email, team FROM people ORDER BY id",
    );
    assert.deepEqual(
      rows.map((r) => r.team),
      ["core", "db"],
      "production's rows, the columns no rule names as they are",
    );
    for (const { email } of rows) {
      assert.match(email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
      assert.ok(!["ada@corp.example", "grace@corp.example"].includes(email), `${email} is masked`);
    }
    const [kept] = await query<{ email: string }>(production, "SELECT email FROM people ORDER BY id LIMIT 1");
    assert.equal(kept?.email, "ada@corp.example", "production keeps its data");
  });

  it("the review-stack template makes, in each stack named as a review stack, its own branch named after the stack and marked with it; destroy deletes it", async () => {
    const stacks: E2eStack[] = [];
    try {
      for (const pr of ["41", "42"]) {
        const stack = await programStack({
          copyOf: REVIEW,
          emulator,
          language: "yaml",
          stackName: `pr-shop-${pr}-${process.pid}`,
          config: { projectId: DEMO.orgProjectId },
          env: { PGSSLROOTCERT: emulator.caPath ?? "" },
        });
        stacks.push(stack);
        const up = await stack.stack.up(collect(stack.output));
        assert.equal(up.summary.result, "succeeded", stack.output.join("\n"));
      }
      const { branches, annotations } = await createClient({
        apiKey: DEMO.personalKey,
        apiUrl: emulator.url,
      }).listAnnotatedBranches(DEMO.orgProjectId);
      for (const stack of stacks) {
        const name = stack.stack.name;
        const branchId = String((await stack.stack.outputs()).branchId?.value);
        const made = branches.find((b) => b.id === branchId);
        assert.equal(made?.name, `preview/${name}`);
        assert.equal(
          annotations.get(branchId)?.[STACK_MARKS.stack],
          name,
          "the branch carries its stack's mark",
        );
        await stack.stack.destroy(collect(stack.output));
        const after = emulator.control.dumpState().branches.find((b) => b.id === branchId);
        assert.notEqual(after?.deleted_at_ms, undefined, `${made?.name} is deleted with its stack`);
      }
    } finally {
      for (const stack of stacks) await stack.dispose({ destroy: true });
    }
  });

  it("the review-stack page's settings command uses only flags the Pulumi CLI's `deployment settings edit` takes", () => {
    const page = readFileSync(join(REVIEW, "README.md"), "utf8");
    const command = /pulumi deployment settings edit[^`]*?(?=\n```)/.exec(page)?.[0] ?? "";
    const flags = [...command.matchAll(/(?<=\s)--[a-z-]+/g)].map((m) => m[0]);
    assert.ok(flags.includes("--pr-template"), command);
    const help = execFileSync("pulumi", ["deployment", "settings", "edit", "--help"], { encoding: "utf8" });
    for (const flag of [...flags, "--secret-env"])
      assert.match(help, new RegExp(`\\s${flag}\\b`), `pulumi deployment settings edit takes ${flag}`);
  });
});
