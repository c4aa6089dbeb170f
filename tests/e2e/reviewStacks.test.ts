// The review-stack programs (examples/review-stacks/), TypeScript and Python on Pulumi's Automation
// API, called as a CI system calls them against the emulator's real Postgres: `up <n>` makes stack
// `pr-<n>` of the pull-request-database example with a branch of the project and prints its
// non-secret outputs (never a password); a second `up` after a migration is added applies it to the
// same branch; `destroy <n>` deletes the branch and removes the stack.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { quietEnv } from "../../scripts/pulumi-cli";
import { dataPlaneRun } from "../emulator/helpers";
import { copyProgram, languagePath, pythonSdkSite, venvPython } from "./support/languages";
import { fileBackendUrl, prepareEngine, ROOT } from "./support/stack";

const REVIEW = path.join(ROOT, "examples", "review-stacks");
const EXAMPLE = path.join(ROOT, "examples", "pull-request-database");
const PASSPHRASE = "review-passphrase";

/** What a run of a review-stack program printed, and how it ended. */
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` with `env` alone as its environment; answers when it exits. */
function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Each program: its language, the example's folder it runs, the pull request it stands for, and how
 * it is called with `args` (its environment besides the suite's).
 */
const ROWS: {
  name: string;
  folder: string;
  pr: string;
  call: (args: string[]) => { command: string; args: string[]; env: Record<string, string> };
}[] = [
  {
    name: "TypeScript",
    folder: "typescript",
    pr: "7",
    call: (args) => ({
      command: process.execPath,
      args: ["-r", "ts-node/register/transpile-only", path.join(REVIEW, "automation.ts"), ...args],
      env: { PATH: process.env.PATH ?? "", PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    }),
  },
  {
    name: "Python",
    folder: "python",
    pr: "8",
    call: (args) => ({
      command: venvPython(),
      args: [path.join(REVIEW, "automation.py"), ...args],
      env: {
        // The provider plugin and the venv with the `pulumi` SDK, whose python the language host runs.
        PATH: `${path.join(ROOT, "bin")}${path.delimiter}${languagePath("python")}`,
        PYTHONPATH: pythonSdkSite(),
      },
    }),
  },
];

for (const row of ROWS)
  describe(`e2e: a review stack from the ${row.name} Automation API program${dataPlaneRun()}`, function () {
    this.timeout(10 * 60 * 1000);
    let emulator: RunningEmulator;
    let program: string;
    let backendDir: string;
    let pulumiHome: string;
    let env: Record<string, string>;
    let branchId: unknown;

    before(async () => {
      prepareEngine();
      emulator = await startEmulator({ seed: "demo", opDurationMs: 50, postgres: true, limits: false });
      // A copy of the example's program, its `migrations` link copied as the folder, to add a migration to.
      program = copyProgram(path.join(EXAMPLE, row.folder));
      if (row.folder === "typescript") {
        // The copy is outside the repository: it reaches this package and its Pulumi SDK by links.
        fs.mkdirSync(path.join(program, "node_modules"));
        fs.symlinkSync(ROOT, path.join(program, "node_modules", "pulumi-clouddb"));
        fs.symlinkSync(
          path.join(ROOT, "node_modules", "@pulumi"),
          path.join(program, "node_modules", "@pulumi"),
        );
      }
      backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-review-state-"));
      pulumiHome = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-review-home-"));
      env = {
        ...(quietEnv({}) as Record<string, string>),
        HOME: process.env.HOME ?? os.homedir(),
        PULUMI_HOME: pulumiHome,
        PULUMI_BACKEND_URL: fileBackendUrl(backendDir),
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        CLOUDDB_API_URL: emulator.url,
        CLOUDDB_API_KEY: DEMO.personalKey,
        CLOUDDB_PROJECT_ID: DEMO.projectId,
        PGSSLROOTCERT: emulator.caPath ?? "",
        REVIEW_PROGRAM_DIR: program,
      };
    });
    after(async () => {
      for (const dir of [program, backendDir, pulumiHome])
        if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
      await emulator?.stop();
    });

    /** Runs the program with `args`, as a CI job would. */
    const call = (...args: string[]): Promise<Run> => {
      const how = row.call(args);
      return run(how.command, how.args, { ...env, ...how.env });
    };
    /** The stack `pr-<n>` on the suite's backend, as the CLI sees it. */
    const reviewStack = () =>
      LocalWorkspace.selectStack(
        { stackName: `pr-${row.pr}`, workDir: program },
        { envVars: { ...env, ...row.call([]).env } },
      );
    const live = () =>
      emulator.control
        .dumpState()
        .branches.filter((b) => b.name === `preview/pr-${row.pr}` && b.deleted_at_ms === undefined);

    it("refuses a call that names no pull request number, changing nothing", async () => {
      const refused = await call("up", "seven");
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /usage: automation\.(ts|py) up\|destroy <pull request number>/);
      assert.equal(refused.stdout, "");
      assert.equal(live().length, 0);
    });

    it("up <n>: stack pr-<n> with its config, one branch of the project, and the non-secret outputs printed as JSON, never a password", async () => {
      const made = await call("up", row.pr);
      assert.equal(made.code, 0, made.stderr);
      const printed = JSON.parse(made.stdout) as Record<string, unknown>;
      assert.deepEqual(Object.keys(printed).sort(), ["branchId", "expiresAt", "host", "schemaDiff"]);
      const branches = live();
      assert.equal(branches.length, 1, "one branch of the pull request");
      assert.equal(printed.branchId, branches[0]?.id);
      assert.equal(branches[0]?.project_id, DEMO.projectId);
      assert.ok(branches[0]?.expires_at_ms, "the branch expires");
      assert.equal(typeof printed.host, "string");
      assert.match(String(printed.schemaDiff), /CREATE TABLE public\.orders/);
      branchId = printed.branchId;

      const stack = await reviewStack();
      const config = await stack.getAllConfig();
      const key = (name: string) => Object.keys(config).find((k) => k.endsWith(`:${name}`)) ?? name;
      assert.equal(config[key("projectId")]?.value, DEMO.projectId);
      assert.equal(config[key("pullRequest")]?.value, row.pr);
      const outputs = await stack.outputs();
      for (const secret of ["runtimeUri", "migrationUri"]) {
        const password = new URL(String(outputs[secret]?.value)).password;
        assert.ok(password.length > 0, `${secret} has a password`);
        assert.ok(!`${made.stdout}${made.stderr}`.includes(password), `${secret}'s password was printed`);
      }
    });

    it("a second up <n> after a migration is added applies it to the same branch", async () => {
      fs.writeFileSync(
        path.join(program, "migrations", "0003_notes.sql"),
        "ALTER TABLE orders ADD COLUMN note text;\n",
      );
      const updated = await call("up", row.pr);
      assert.equal(updated.code, 0, updated.stderr);
      const printed = JSON.parse(updated.stdout) as Record<string, unknown>;
      assert.equal(printed.branchId, branchId, "the same branch");
      assert.match(String(printed.schemaDiff), /note text/);
      assert.equal(live().length, 1, "still one branch");
      const outputs = await (await reviewStack()).outputs();
      const applied = ((outputs.appliedMigrations?.value ?? []) as { name: string }[]).map((m) => m.name);
      assert.deepEqual(applied, ["0001_orders.sql", "0002_seed.sql", "0003_notes.sql"]);
    });

    it("destroy <n>: the branch is deleted and the stack removed", async () => {
      const destroyed = await call("destroy", row.pr);
      assert.equal(destroyed.code, 0, destroyed.stderr);
      assert.equal(destroyed.stdout, "");
      assert.equal(live().length, 0, "no branch of the pull request is left");
      assert.ok(
        emulator.control
          .dumpState()
          .branches.every((b) => b.id !== branchId || b.deleted_at_ms !== undefined),
      );
      await assert.rejects(reviewStack(), /no stack named 'pr-|not found/);
    });
  });
