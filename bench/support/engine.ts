// The real Pulumi engine for the benchmarks: the package installed from `npm pack` into a temp project
// (the e2e scenario program), one fresh stack per run, and the emulator in this process.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import { installPackedProject } from "../../tests/e2e/support/package";
import { createStack, type E2eStack, ROOT } from "../../tests/e2e/support/stack";
import { median } from "./stats";

/** One entry of the scenario program's `keys` config. */
export interface KeySpec {
  res: string;
  name: string;
  orgId?: string;
  projectId?: string;
}

/** One entry of the scenario program's `branches` config. */
export interface BranchSpec {
  res: string;
  projectId: string;
  name: string;
  endpoints?: { type: string }[];
}

/** One entry of the scenario program's `environments` config: a branch, role, database, compute and connection string. */
export interface EnvironmentSpec {
  res: string;
  projectId: string;
  name: string;
  /** The branch without endpoints, then the role and database, then an Endpoint depending on them. */
  rolesFirst: boolean;
}

/** The scenario program's stack config. */
export interface Scenario {
  keys?: KeySpec[];
  branches?: BranchSpec[];
  environments?: EnvironmentSpec[];
  /** Resources of a dynamic provider that does nothing (no API): Pulumi's own cost per resource. */
  noops?: { res: string; name: string }[];
  /** Declares the keys and branches by type token, through the provider plugin, not the classes. */
  plugin?: boolean;
}

let project: string | undefined;

/** The scenario project with the packed package installed (made once per bench process). */
export function scenarioProject(): string {
  project ??= installPackedProject(path.join(ROOT, "tests/e2e/fixtures/scenario"));
  return project;
}

/** Removes the temp project. */
export function disposeProject(): void {
  if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
  project = undefined;
}

/** An emulator plus a fresh stack of the scenario program configured to use it. */
export interface EngineRun {
  emulator: RunningEmulator;
  e2e: E2eStack;
  /** Output lines of the last command. */
  output: string[];
  dispose(): Promise<void>;
}

/**
 * Starts an emulator with `emulatorOptions` and a fresh stack whose program declares `scenario`,
 * using the demo user's personal key. `env` reaches the CLI and the dynamic provider process.
 */
export async function engineRun(opts: {
  scenario: Scenario;
  emulator: EmulatorOptions;
  env?: Record<string, string>;
}): Promise<EngineRun> {
  const emulator = await startEmulator({ seed: "demo", ...opts.emulator });
  const env = { ...opts.env };
  if (opts.scenario.plugin === true) {
    // The plugin as a user's install has it: the package's bin, linked into node_modules/.bin.
    const bin = path.join(scenarioProject(), "node_modules", ".bin");
    env.PATH = `${bin}${path.delimiter}${env.PATH ?? process.env.PATH ?? ""}`;
  }
  const e2e = await createStack({
    workDir: scenarioProject(),
    apiUrl: emulator.url,
    apiKey: DEMO.personalKey,
    stackName: `bench-${process.pid}-${Date.now()}`,
    config: { scenario: JSON.stringify(opts.scenario) },
    env,
  });
  const output: string[] = [];
  return {
    emulator,
    e2e,
    output,
    async dispose() {
      await e2e.dispose();
      await emulator.stop();
    },
  };
}

/** Wall time of `fn` in ms, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/**
 * Runs `pulumi up --yes --skip-preview` on a run whose request log starts empty, as a pipeline runs
 * it: the CLI itself, in the stack's project with its environment. (The Automation API's `up` runs
 * the same command, then two more CLI runs that read the stack's outputs and history: about 0.8 s a
 * pipeline does not pay.) Never throws. Returns its wall time, when it started (epoch ms, the
 * request log's clock), how long after the engine's summary the CLI exited and, when it failed, the
 * tail of its output.
 */
export function timedUp(
  run: EngineRun,
): Promise<{ ms: number; startedAt: number; afterSummaryMs: number; error: string | undefined }> {
  return timedCommand(run, ["up", "--yes", "--skip-preview"]);
}

/**
 * Runs `pulumi <command>` as {@link timedUp} runs `up` (`refresh --yes`, `destroy --yes`, ...), with
 * `env` over the stack's environment.
 */
export async function timedCommand(
  run: EngineRun,
  command: string[],
  env: Record<string, string> = {},
): Promise<{ ms: number; startedAt: number; afterSummaryMs: number; error: string | undefined }> {
  run.emulator.control.clearRequests();
  run.output.length = 0;
  const workspace = run.e2e.stack.workspace as LocalWorkspace;
  const args = [...command, "--non-interactive", "--stack", run.e2e.stack.name];
  const startedAt = Date.now();
  let summaryAt = Number.NaN;
  const { ms, value: code } = await timed(
    () =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn("pulumi", args, {
          cwd: workspace.workDir,
          env: { ...process.env, ...workspace.envVars, ...env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        for (const stream of [child.stdout, child.stderr]) {
          readline.createInterface({ input: stream }).on("line", (line) => {
            if (Number.isNaN(summaryAt) && /^Resources:/.test(line)) summaryAt = Date.now();
            run.output.push(line);
          });
        }
        child.on("error", reject);
        child.on("close", resolve);
      }),
  );
  const error = code === 0 ? undefined : run.output.slice(-8).join("\n");
  return { ms, startedAt, afterSummaryMs: startedAt + ms - summaryAt, error };
}

/** One `up` of a fresh stack of the scenario program declaring `scenario`; throws naming `what` if it fails. */
async function programUp(scenario: Scenario, what: string): Promise<{ ms: number; afterSummaryMs: number }> {
  const run = await engineRun({ scenario, emulator: {} });
  try {
    const { ms, afterSummaryMs, error } = await timedUp(run);
    if (error !== undefined) throw new Error(`${what}'s up failed: ${error}`);
    return { ms, afterSummaryMs };
  } finally {
    await run.dispose();
  }
}

/** The empty program's `up`: what the engine costs before any resource, and its part after the summary. */
export async function emptyUp(runs: number): Promise<{ ms: number; afterSummaryMs: number }> {
  const ups: { ms: number; afterSummaryMs: number }[] = [];
  for (let i = 0; i < runs; i++) ups.push(await programUp({}, "the empty program"));
  return { ms: median(ups.map((u) => u.ms)), afterSummaryMs: median(ups.map((u) => u.afterSummaryMs)) };
}

/**
 * The `up` of `n` resources of a dynamic provider that does nothing (its create returns at once, no
 * API): what Pulumi itself costs for the same program shape, the plugin start and the engine's
 * steps for each resource included. No provider can make its `up` shorter than this.
 */
export async function noopUp(n: number): Promise<number> {
  const noops = Array.from({ length: n }, (_, i) => ({ res: `n${i}`, name: `noop-${i}` }));
  return (await programUp({ noops }, "the no-op program")).ms;
}

/** The empty program's `up` wall time. */
export async function emptyUpMs(runs: number): Promise<number> {
  return (await emptyUp(runs)).ms;
}
