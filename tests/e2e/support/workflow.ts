import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { DEMO, type RunningEmulator } from "../../../emulator";
import { runSql } from "../../emulator/helpers";
import { type CliRun, type KillPlan, runKillable } from "./kill";
import { copyFolder } from "./languages";
import { programStack } from "./programStack";
import { fileBackendUrl, prepareEngine, ROOT } from "./stack";

/** The preview-environment example: its program and the GitHub Actions workflow next to it. */
export const EXAMPLE = path.join(ROOT, "examples/preview-environment");

/** The preview-environment example's workflow, in its folder. */
const WORKFLOW = "preview-environment.yml";

/** Environment variables that say how this machine reaches the network (proxies, trusted CAs). */
const NETWORK_SETTINGS = /^(https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;

/** The name of the workflow step that installs the program's dependencies. */
export const INSTALL_STEP = "Install the program's dependencies";

/** The parts of a GitHub Actions workflow the tests run. */
export interface Workflow {
  env: Record<string, string>;
  jobs: Record<
    string,
    {
      permissions?: Record<string, string>;
      steps: { name?: string; run?: string; env?: Record<string, string> }[];
    }
  >;
}

/** The workflow `file` of the folder `example` (by default the preview-environment example's) as the file holds it. */
export function readWorkflow(example = EXAMPLE, file = WORKFLOW): Workflow {
  return parseYaml(fs.readFileSync(path.join(example, file), "utf8")) as Workflow;
}

/** How one job ended: the first step that did not exit 0 (its code, or "killed"), and every step's output. */
export interface JobRun {
  code: CliRun["code"];
  /** The step that failed or was killed, when one did. */
  step?: string;
  output: string;
  leftover?: string[];
  watched?: number;
}

/** A user's repository holding a copy of the example, and the runner environment GitHub gives its steps. */
export interface Checkout {
  /** The copied program folder (`PROGRAM_DIR`). */
  programDir: string;
  /** The environment of every step: the workflow's `env` block as GitHub fills it in. */
  env: Record<string, string>;
  /** What the steps wrote to `$GITHUB_ENV`. */
  githubEnv(): string;
  /** The resources the pull request's stack records (empty before its first `up`), type and id. */
  recorded(): { type: string; id: string }[];
  /**
   * Runs `job`'s `run:` steps in order, as GitHub Actions does (bash, `-eo pipefail`), stopping at
   * the first that fails. `kill` applies to the step named `killStep` (default "pulumi up").
   */
  runJob(job: string, opts?: { kill?: KillPlan; killStep?: string }): Promise<JobRun>;
  dispose(): void;
}

/**
 * Copies the example (`example`, by default the preview-environment one, its symbolic links as the
 * files they point to) into a fresh folder as a user's repository would hold it, for its workflow
 * (`workflow`, a file in that folder) to run against the API at `apiUrl` with `apiKey`.
 * `install: "link"` links this repository's packages as the program's node_modules and skips the
 * workflow's install step; `install: "run"` runs that step as written (after `rewrite`).
 */
export function checkoutExample(opts: {
  /** The example's folder. */
  example?: string;
  /** The workflow's file in `example`. */
  workflow?: string;
  apiUrl: string;
  apiKey: string;
  projectId: string;
  pullRequest: string;
  install: "link" | "run";
  /** More environment for every step (e.g. CLOUDDB_POLL_INTERVAL_MS). */
  env?: Record<string, string>;
  /**
   * What GitHub substitutes into the steps' own `env:` blocks, by name: a step gets only the names
   * its block lists (a literal value there is used as written).
   */
  stepEnv?: Record<string, string>;
  /** Changes a step's script before it runs (e.g. to install a package from a local tarball). */
  rewrite?: (run: string) => string;
}): Checkout {
  prepareEngine();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-workflow-"));
  const programDir = path.join(work, "program");
  // The program as a repository holds it: no installed packages, no stack's config.
  copyFolder(
    opts.example ?? EXAMPLE,
    programDir,
    (src) =>
      path.basename(src) !== "node_modules" &&
      (!path.basename(src).startsWith("Pulumi.") || src.endsWith("Pulumi.yaml")),
  );
  if (opts.install === "link") {
    // The copied program imports the package by name: this repository, as a user's node_modules would hold it.
    fs.mkdirSync(path.join(programDir, "node_modules"));
    fs.symlinkSync(ROOT, path.join(programDir, "node_modules", "pulumi-clouddb"));
    for (const dep of ["@pulumi", "typescript", "ts-node", "@types"])
      fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(programDir, "node_modules", dep));
    // And the package's commands, as npm links them.
    fs.mkdirSync(path.join(programDir, "node_modules", ".bin"));
    fs.symlinkSync(
      path.join(ROOT, "bin", "clouddb"),
      path.join(programDir, "node_modules", ".bin", "clouddb"),
    );
  }
  const githubEnv = path.join(work, "github-env");
  fs.writeFileSync(githubEnv, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: work,
    PULUMI_HOME: path.join(work, ".pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // npm's cache stays the machine's (a runner restores it with actions/cache), and so do its
    // proxies and certificate authorities (a runner has its own).
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] => NETWORK_SETTINGS.test(e[0]) && e[1] !== undefined,
      ),
    ),
    GITHUB_ENV: githubEnv,
    // What GitHub substitutes into the workflow's env block.
    PROGRAM_DIR: programDir,
    STACK: `pr-${opts.pullRequest}`,
    PULL_REQUEST: opts.pullRequest,
    CLOUDDB_PROJECT_ID: opts.projectId,
    CLOUDDB_API_KEY: opts.apiKey,
    CLOUDDB_API_URL: opts.apiUrl,
    PULUMI_BACKEND_URL: fileBackendUrl(work),
    PULUMI_CONFIG_PASSPHRASE: "workflow-passphrase",
    ...opts.env,
  };
  const workflow = readWorkflow(opts.example, opts.workflow);
  /** A step's own `env:` block, as GitHub fills it in. */
  const ownEnv = (step: { name?: string; env?: Record<string, string> }) =>
    Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => {
        const given = opts.stepEnv?.[name] ?? (String(value).includes("${{") ? undefined : String(value));
        if (given === undefined) throw new Error(`no value given for ${name} of step "${step.name}"`);
        return [name, given];
      }),
    );
  return {
    programDir,
    env,
    githubEnv: () => fs.readFileSync(githubEnv, "utf8"),
    recorded() {
      const stacks = path.join(work, ".pulumi", "stacks");
      if (!fs.existsSync(stacks)) return [];
      const file = fs
        .readdirSync(stacks, { recursive: true, encoding: "utf8" })
        .find((f) => path.basename(f) === `${env.STACK}.json`);
      if (file === undefined) return [];
      const state = JSON.parse(fs.readFileSync(path.join(stacks, file), "utf8")) as {
        checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
      };
      return (state.checkpoint.latest?.resources ?? []).map((r) => ({ type: r.type, id: r.id ?? "" }));
    },
    async runJob(job, { kill, killStep = "pulumi up" } = {}) {
      const outputs: string[] = [];
      for (const step of workflow.jobs[job]?.steps ?? []) {
        if (step.run === undefined) continue;
        if (step.name === INSTALL_STEP && opts.install === "link") continue;
        // How GitHub Actions runs a `run:` step with bash.
        const script = opts.rewrite?.(step.run) ?? step.run;
        const run = await runKillable("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
          cwd: programDir,
          env: { ...env, ...ownEnv(step) },
          kill: step.name === killStep ? kill : undefined,
        });
        outputs.push(`--- ${step.name ?? step.run}\n${run.output}`);
        if (run.code !== 0) {
          return {
            code: run.code,
            ...(step.name !== undefined ? { step: step.name } : {}),
            output: outputs.join("\n"),
            ...(run.leftover !== undefined ? { leftover: run.leftover } : {}),
            ...(run.watched !== undefined ? { watched: run.watched } : {}),
          };
        }
      }
      return { code: 0, output: outputs.join("\n") };
    },
    dispose() {
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * A preview environment's live branches in the emulator (those named `preview/pr-<pullRequest>` in
 * `projectId`) and the roles on them that are not their parent's: exactly one of each once it is
 * made, none once destroyed.
 */
export function previewOnBranch(emulator: RunningEmulator, projectId: string, pullRequest: string) {
  const snap = emulator.control.dumpState();
  const branches = snap.branches.filter(
    (b) =>
      b.project_id === projectId && b.name === `preview/pr-${pullRequest}` && b.deleted_at_ms === undefined,
  );
  const parent = snap.branches.find((b) => b.default && b.project_id === projectId);
  const inherited = new Set((parent?.roles ?? []).map((r) => r.name));
  return { branches, roles: branches.flatMap((b) => b.roles.filter((r) => !inherited.has(r.name))) };
}

/** The actions of the operations the program's requests started on branch `branchId`, in order. */
export function userOperationsOn(emulator: RunningEmulator, branchId: string): string[] {
  return emulator.control
    .dumpState()
    .operations.filter((op) => op.branch_id === branchId && op.initiator === "user")
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map((op) => op.action);
}

/**
 * The app's migration, as the workflow's next step runs it with DATABASE_URL, verifying the
 * endpoint's certificate against the CA in `caPath`: makes a table, writes a row, and answers who
 * it connected as and how many rows the table holds.
 */
export function runAppMigration(
  url: string,
  caPath: string | undefined,
): Promise<{ who: string; n: number }[]> {
  return runSql(
    url,
    caPath,
    "CREATE TABLE preview_items (id int PRIMARY KEY, note text)",
    "INSERT INTO preview_items VALUES (1, 'made by the migration')",
    "SELECT current_user AS who, count(*)::int AS n FROM preview_items",
  );
}

/** A stack of the preview-environment example, in place, for pull request `pullRequest` of the demo organization's project. */
export function exampleStack(
  emulator: RunningEmulator,
  pullRequest: string,
  config: Record<string, string> = {},
) {
  return programStack({
    workDir: EXAMPLE,
    emulator,
    stackName: `e2e-pr-${pullRequest}-${process.pid}`,
    config: { projectId: DEMO.orgProjectId, pullRequest, ...config },
  });
}

/** The live branches of project `projectId`, by name. */
export function liveBranchesByName(emulator: RunningEmulator, projectId: string) {
  return new Map(
    emulator.control
      .dumpState()
      .branches.filter((b) => b.project_id === projectId && b.deleted_at_ms === undefined)
      .map((b) => [b.name, b]),
  );
}
