import { spawn } from "node:child_process";
import * as fs from "node:fs";
import type { E2eStack } from "./stack";

/**
 * How a CLI run ended: its exit code, or `"killed"`, and everything it printed. After a kill,
 * `leftover` lists the dynamic-provider processes of the run (Pulumi starts each plugin in a group
 * of its own, out of reach of the kill) still running 15 s later. Every process of the run still
 * running then, Pulumi's own language host included, is killed so no test leaks one.
 */
export interface CliRun {
  code: number | "killed";
  output: string;
  leftover?: string[];
}

/** The dynamic-provider host: Pulumi's script and the Node process it starts. */
const PROVIDER_HOST = /pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider[\\/]/;

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
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Ended while listed.
    }
  }
  const found = new Map<number, string>();
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      let command = "";
      try {
        command = fs.readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" ").trim();
      } catch {
        continue;
      }
      found.set(child, command);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/**
 * Waits up to `ms` for the provider hosts in `tree` to end, then kills every process of `tree` still
 * running; returns the command lines of the provider hosts that had not ended.
 */
async function outlived(tree: Map<number, string>, ms: number): Promise<string[]> {
  const hosts = [...tree].filter(([, command]) => PROVIDER_HOST.test(command));
  const until = Date.now() + ms;
  while (Date.now() < until && hosts.some(([pid]) => running(pid)))
    await new Promise((r) => setTimeout(r, 250));
  const left = hosts.filter(([pid]) => running(pid)).map(([, command]) => command);
  for (const [pid] of tree) {
    try {
      if (running(pid)) process.kill(pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  return left;
}

/** When to kill a run: `killWhen` is polled every 25 ms; once true, the kill lands `killAfterMs` later. */
export interface KillPlan {
  killWhen: () => boolean;
  killAfterMs?: number;
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
          }, kill.killAfterMs ?? 0);
        }, 25);
  return new Promise((resolve) => {
    child.on("exit", async (code) => {
      if (timer !== undefined) clearInterval(timer);
      if (!(killed && code === null)) return resolve({ code: code ?? 1, output });
      resolve({ code: "killed", output, leftover: await outlived(tree, 15_000) });
    });
  });
}
