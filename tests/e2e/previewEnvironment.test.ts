// The pull-request-database example (examples/pull-request-database/), one PreviewEnvironment, under the
// real engine on the emulator's real Postgres, from YAML, Python and Java (made by the provider plugin's
// Construct) and from TypeScript (the package's class): the runtime role reads
// and writes rows and is refused CREATE and DROP; a migration added runs alone; refresh and preview
// then show no change; a grant revoked outside is drift the next up restores; destroy leaves no
// branch; no password in the log or the state. Its first up is killed while the compute starts and
// the next one converges (from YAML: the provider does the same whatever made the component).
import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { dataPlaneRun, runSql, sqlOutcome } from "../emulator/helpers";
import { killPlugins, nextRun } from "./support/kill";
import type { ProgramLanguage } from "./support/languages";
import { programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

const ROOT = join(__dirname, "..", "..");

/** The example: one folder per language, and the `migrations/` they share (0001 makes `orders`, 0002 adds two rows). */
const EXAMPLE = join(ROOT, "examples", "pull-request-database");

/**
 * The example's programs, a language and its folder. What the provider does the same whatever made
 * the component (a killed run finished, drift restored) is run for the `full` row only; the
 * language's part (the component made at up and at preview) for each.
 */
const ROWS: { name: string; language?: ProgramLanguage; folder: string; full?: true }[] = [
  { name: "YAML, made by the plugin's Construct", language: "yaml", folder: "yaml", full: true },
  { name: "Python, through the SDK and the plugin's Construct", language: "python", folder: "python" },
  { name: "TypeScript, the package's class", folder: "typescript" },
  { name: "Java, through pulumi-language-java and the plugin's Construct", language: "java", folder: "java" },
];

for (const row of ROWS)
  describe(`e2e: a PreviewEnvironment from ${row.name}${dataPlaneRun()}`, function () {
    this.timeout(10 * 60 * 1000);
    let emulator: RunningEmulator;
    let e2e: E2eStack;
    let database: string;

    before(async () => {
      emulator = await startEmulator({ seed: "demo", opDurationMs: 50, postgres: true, limits: false });
      const parent = emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
      database = parent.databases[0]!.name;
      e2e = await programStack({
        copyOf: join(EXAMPLE, row.folder),
        emulator,
        ...(row.language === undefined ? {} : { language: row.language }),
        config: { projectId: DEMO.projectId, pullRequest: "7", databaseName: database },
        env: { PGSSLROOTCERT: emulator.caPath ?? "" },
      });
      const workDir = e2e.stack.workspace.workDir;
      if (row.language === undefined) {
        // The copy is outside the repository: it reaches this package and its Pulumi SDK by links.
        mkdirSync(join(workDir, "node_modules"));
        symlinkSync(ROOT, join(workDir, "node_modules", "pulumi-clouddb"));
        symlinkSync(join(ROOT, "node_modules", "@pulumi"), join(workDir, "node_modules", "@pulumi"));
      }
    });
    after(async () => {
      await e2e?.dispose({ destroy: true });
      await emulator?.stop();
    });

    const outputs = async () =>
      Object.fromEntries(Object.entries(await e2e.stack.outputs()).map(([k, v]) => [k, v.value as unknown]));
    const run = (uri: unknown, sql: string) => sqlOutcome(String(uri), emulator.caPath, sql);

    it("a preview of the new stack plans the component and each child: the branch, its compute, the migrations and the runtime role's grants", async () => {
      const preview = await e2e.stack.preview(collect(e2e.output));
      const log = e2e.output.join("\n");
      // The stack, the component and its four children (the parent's database and owner are used).
      assert.deepEqual(preview.changeSummary, { create: 6 }, log);
      for (const kind of ["PreviewEnvironment", "Branch", "Endpoint", "Migrations", "RoleGrants"])
        assert.match(log, new RegExp(`clouddb:[\\w/]*:?${kind}\\b`), `the preview shows the ${kind}`);
      assert.equal(emulator.control.dumpState().branches.filter((b) => b.name === "preview/pr-7").length, 0);
    });

    if (row.full)
      it("an up killed (SIGKILL, the plugins too) while its compute starts converges on the next up: one branch, one compute", async () => {
        const endpointPosts = () =>
          emulator.control.requests({ route: "POST /projects/{project_id}/endpoints" }).length;
        const killed = await nextRun(e2e, "up", {
          killWhen: () => endpointPosts() >= 1,
          killAfterMs: 20,
          alsoKill: () => killPlugins(e2e.stack.workspace.workDir),
        });
        assert.equal(killed.code, "killed", `up was not killed when the plan said:\n${killed.output}`);
        const rerun = await nextRun(e2e, "up");
        assert.equal(rerun.code, 0, rerun.output);
        const snap = emulator.control.dumpState();
        const live = snap.branches.filter((b) => b.name === "preview/pr-7" && b.deleted_at_ms === undefined);
        assert.equal(live.length, 1, "one branch of the preview");
        const computes = snap.endpoints.filter((e) => e.branch_id === live[0]?.id);
        assert.equal(computes.length, 1, "one compute on it");
      });

    it("up: a branch with its compute, two migrations applied once, and a runtime role that cannot change the schema", async () => {
      const up = await e2e.stack.up(collect(e2e.output));
      const log = e2e.output.join("\n");
      assert.equal(up.summary.result, "succeeded", log);
      const out = await outputs();
      const branch = emulator.control.dumpState().branches.find((b) => b.id === out.branchId);
      assert.equal(branch?.name, "preview/pr-7");
      assert.ok(branch?.expires_at_ms, "the branch expires");
      assert.deepEqual(
        (out.appliedMigrations as { name: string }[]).map((m) => m.name),
        ["0001_orders.sql", "0002_seed.sql"],
      );
      assert.equal(await run(out.runtimeUri, "INSERT INTO orders (item) VALUES ('jam')"), "ok");
      const rows = await runSql<{ n: number }>(
        String(out.runtimeUri),
        emulator.caPath,
        "SELECT count(*)::int AS n FROM orders",
      );
      assert.deepEqual(rows, [{ n: 3 }]);
      assert.equal(await run(out.runtimeUri, "CREATE TABLE sneaky (id int)"), "42501");
      assert.equal(await run(out.runtimeUri, "DROP TABLE orders"), "42501");
      assert.match(String(out.schemaDiff), /CREATE TABLE public\.orders/);
      assert.doesNotMatch(String(out.schemaDiff), /postgresql:\/\//);
      for (const secret of [out.runtimeUri, out.migrationUri]) {
        const password = new URL(String(secret)).password;
        assert.ok(password.length > 0);
        assert.ok(!log.includes(password), "no password in the engine's output");
        assert.ok(!e2e.rawState().includes(password), "no password in the state file");
      }
    });

    it("a migration added runs alone on the next up; then refresh and preview show no change", async () => {
      type Applied = { name: string; sha256: string; appliedAt: string };
      const before = (await outputs()).appliedMigrations as Applied[];
      writeFileSync(
        join(e2e.stack.workspace.workDir, "migrations", "0003_notes.sql"),
        "ALTER TABLE orders ADD COLUMN note text;\n",
      );
      await e2e.stack.up(collect(e2e.output));
      const out = await outputs();
      const applied = out.appliedMigrations as Applied[];
      assert.deepEqual(applied.slice(0, 2), before, "the first two ran once");
      assert.equal(applied[2]?.name, "0003_notes.sql");
      assert.match(applied[2]?.sha256 ?? "", /^[0-9a-f]{64}$/);
      assert.equal(await run(out.runtimeUri, "UPDATE orders SET note = 'fresh'"), "ok");
      await e2e.stack.refresh(collect(e2e.output));
      const preview = await e2e.stack.preview(collect(e2e.output));
      assert.deepEqual(Object.keys(preview.changeSummary), ["same"], e2e.output.join("\n"));
    });

    if (row.full)
      it("a grant revoked outside the stack is drift: refresh sees it and the next up grants it again", async () => {
        const out = await outputs();
        await runSql(String(out.migrationUri), emulator.caPath, "REVOKE INSERT ON orders FROM app");
        assert.equal(await run(out.runtimeUri, "INSERT INTO orders (item) VALUES ('bun')"), "42501");
        await e2e.stack.refresh(collect(e2e.output));
        const preview = await e2e.stack.preview(collect(e2e.output));
        assert.equal(preview.changeSummary.update, 1, e2e.output.join("\n"));
        await e2e.stack.up(collect(e2e.output));
        assert.equal(await run(out.runtimeUri, "INSERT INTO orders (item) VALUES ('bun')"), "ok");
      });

    if (row.full)
      it("a parent branch the project does not have fails the preview, naming it, from the plugin still serving", async () => {
        const file = join(e2e.stack.workspace.workDir, "Pulumi.yaml");
        const program = readFileSync(file, "utf8");
        const wrong = program.replace(
          `      projectId: \${projectId}\n`,
          `      projectId: \${projectId}\n      parentBranch: no-such-branch\n`,
        );
        assert.notEqual(wrong, program, "the program names its parent");
        writeFileSync(file, wrong);
        try {
          const failed = await e2e.stack.preview(collect(e2e.output)).then(
            () => "",
            (err: unknown) => String(err),
          );
          assert.match(failed, /the project has no branch "no-such-branch": give parentBranch/);
          assert.doesNotMatch(failed, /exited prematurely/);
        } finally {
          writeFileSync(file, program);
        }
      });

    it("destroy leaves no branch of the preview", async () => {
      const { branchId } = await outputs();
      await e2e.stack.destroy(collect(e2e.output));
      const branch = emulator.control.dumpState().branches.find((b) => b.id === branchId);
      assert.ok(branch === undefined || branch.deleted_at_ms !== undefined, "the branch is deleted");
    });
  });
