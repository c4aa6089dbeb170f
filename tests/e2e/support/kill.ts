import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { WATCHED_HOST_MARK } from "../../../provider/resources/host/engineWatch";
import type { E2eStack } from "./stack";

/**
 * How a CLI run ended: its exit code, or `"killed"`, and everything it printed. After a kill,
 * `leftover` lists the dynamic-provider hosts of the run our code ran in (Pulumi starts each plugin
 * in a group of its own, out of reach of the kill) still running 15 s later, with the script that
 * started each; `watched` counts the hosts our code ran in by the kill. A host Pulumi started only
 * for `CheckConfig` never loads our code (see `engineWatch.ts`): like Pulumi's own language host,
 * it is not listed. Every process of the run still running then is killed so no test leaks one.
 */
export interface CliRun {
  code: number | "killed";
  output: string;
  leftover?: string[];
  watched?: number;
}

/** The dynamic-provider host: Pulumi's script and the Node process it starts (retitled once watched). */
const PROVIDER_HOST = new RegExp(
  `pulumi-resource-pulumi-nodejs|[\\\\/]cmd[\\\\/]dynamic-provider[\\\\/]|^${WATCHED_HOST_MARK}\\b`,
);

/** `pid`'s command line now, or "" once it ended. */
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** `pid`'s parent. */
function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return 0;
  }
}

/** Whether `pid` runs (a zombie, ended but not reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Every process under `root` (children, their children...), with its command line. */
function descendants(root: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = parentOf(Number(entry));
    // 0: ended while listed.
    if (ppid !== 0) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found = new Map<number, string>();
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      const command = commandOf(child);
      if (command === "") continue;
      found.set(child, command);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/**
 * Waits up to `ms` for the provider hosts in `tree` to end, then kills every process of `tree` still
 * running; returns the command lines of the watched hosts (and their scripts) that had not ended,
 * and how many hosts were watched by the kill.
 */
async function outlived(
  tree: Map<number, string>,
  ms: number,
): Promise<{ leftover: string[]; watched: number }> {
  const hosts = [...tree].filter(([, command]) => PROVIDER_HOST.test(command));
  const watched = hosts.filter(([, command]) => command.startsWith(WATCHED_HOST_MARK)).length;
  const until = Date.now() + ms;
  while (Date.now() < until && hosts.some(([pid]) => running(pid)))
    await new Promise((r) => setTimeout(r, 250));
  // A host our code ran in carries the mark now (it may have loaded after the kill); its script is
  // listed with it.
  const ours = new Set(
    hosts.filter(([pid]) => running(pid) && commandOf(pid).startsWith(WATCHED_HOST_MARK)).map(([pid]) => pid),
  );
  const scripts = new Set([...ours].map(parentOf));
  const left = hosts
    .filter(([pid]) => ours.has(pid) || (scripts.has(pid) && running(pid)))
    .map(([pid, command]) => (ours.has(pid) ? commandOf(pid) : command));
  for (const [pid] of tree) {
    try {
      if (running(pid)) process.kill(pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  return { leftover: left, watched };
}

/**
 * When to kill a run: `killWhen` is polled every 25 ms; once true, the kill lands `killAfterMs` later.
 * `alsoKill` runs at once after the group's SIGKILL, for processes outside the group (the plugins):
 * killed before the CLI, a plugin's end could reach the CLI first, which then exits on its own.
 */
export interface KillPlan {
  killWhen: () => boolean;
  killAfterMs?: number;
  alsoKill?: () => void;
}

/**
 * Runs `pulumi <args>` for the stack non-interactively, in its own process group. When `killWhen`
 * turns true (polled every 25 ms), waits `killAfterMs` and kills the whole group with SIGKILL: the
 * CLI, the language host and the program, as a cancelled CI job does. The plugins (the dynamic
 * provider among them) run in groups of their own and outlive it: see `CliRun.leftover`.
 */
export function runCli(e2e: E2eStack, args: string[], kill?: KillPlan): Promise<CliRun> {
  return runKillable("pulumi", [...args, "--stack", e2e.stack.name, "--non-interactive"], {
    cwd: e2e.stack.workspace.workDir,
    env: { ...process.env, ...e2e.stack.workspace.envVars },
    kill,
  });
}

/**
 * The next run of a pipeline on the stack: Pulumi's lock (left by a killed run) removed by its own
 * command, then the plain unattended `up` or `destroy`, killed as `runCli` describes when `kill` says so.
 */
export async function nextRun(e2e: E2eStack, command: "up" | "destroy", kill?: KillPlan): Promise<CliRun> {
  await runCli(e2e, ["cancel", "--yes"]);
  return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
}

/**
 * A pipeline's `up` killed as `kill` says, then its next unattended `up` once `beforeRerun` ran (the
 * emulator's held answers released): asserts that the first was killed with no process of it left
 * running and that the second succeeded.
 */
export async function upKilledThenRerun(
  e2e: E2eStack,
  kill: KillPlan,
  beforeRerun: () => void,
): Promise<void> {
  const killed = await nextRun(e2e, "up", kill);
  assert.equal(killed.code, "killed", `up was not killed when the plan said:\n${killed.output}`);
  assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
  beforeRerun();
  const run = await nextRun(e2e, "up");
  assert.equal(run.code, 0, run.output);
}

/**
 * Runs `file` with `args` in a process group of its own (a CI job's step), killed as `runCli`
 * describes when `kill` says so.
 */
export function runKillable(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; kill?: KillPlan | undefined },
): Promise<CliRun> {
  const { kill } = opts;
  const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, detached: true });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  let killed = false;
  let tree = new Map<number, string>();
  const timer =
    kill === undefined
      ? undefined
      : setInterval(() => {
          if (killed || !kill.killWhen()) return;
          killed = true;
          setTimeout(() => {
            tree = descendants(child.pid as number);
            try {
              process.kill(-(child.pid as number), "SIGKILL");
            } catch {
              // Already ended.
            }
            kill.alsoKill?.();
          }, kill.killAfterMs ?? 0);
        }, 25);
  return new Promise((resolve) => {
    child.on("exit", async (code) => {
      if (timer !== undefined) clearInterval(timer);
      if (!(killed && code === null)) return resolve({ code: code ?? 1, output });
      resolve({ code: "killed", output, ...(await outlived(tree, 15_000)) });
    });
  });
}

/**
 * SIGKILLs the provider plugin processes of this repository (`pulumi-resource-clouddb`) the engine
 * started for the program in `workDir` (their working directory), and returns how many: other
 * stacks' plugins on the machine are left alone.
 */
export function killPlugins(workDir: string): number {
  const dir = fs.realpathSync(workDir);
  let killed = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command = "";
    let cwd = "";
    try {
      command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      continue;
    }
    // Named so by the engine's command line, or by its title once it watches the engine.
    if (command.includes("pulumi-resource-clouddb") && cwd === dir) {
      try {
        process.kill(Number(entry), "SIGKILL");
        killed++;
      } catch {
        // Ended meanwhile.
      }
    }
  }
  return killed;
}
