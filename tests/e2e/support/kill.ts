import { spawn } from "node:child_process";
import type { E2eStack } from "./stack";

/** How a CLI run ended: its exit code, or `"killed"`, and everything it printed. */
export interface CliRun {
  code: number | "killed";
  output: string;
}

/**
 * Runs `pulumi <args>` for the stack non-interactively, in its own process group. When `killWhen`
 * turns true (polled every 25 ms), waits `killAfterMs` and kills the whole group with SIGKILL: the
 * CLI, the language host, the program and the provider processes, as a cancelled CI job does.
 */
export function runCli(
  e2e: E2eStack,
  args: string[],
  kill?: { killWhen: () => boolean; killAfterMs?: number },
): Promise<CliRun> {
  const env = { ...process.env, ...e2e.stack.workspace.envVars };
  const child = spawn("pulumi", [...args, "--stack", e2e.stack.name, "--non-interactive"], {
    cwd: e2e.stack.workspace.workDir,
    env,
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  let killed = false;
  const timer =
    kill === undefined
      ? undefined
      : setInterval(() => {
          if (killed || !kill.killWhen()) return;
          killed = true;
          setTimeout(() => {
            try {
              process.kill(-(child.pid as number), "SIGKILL");
            } catch {
              // Already ended.
            }
          }, kill.killAfterMs ?? 0);
        }, 25);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      if (timer !== undefined) clearInterval(timer);
      resolve({ code: killed && code === null ? "killed" : (code ?? 1), output });
    });
  });
}
