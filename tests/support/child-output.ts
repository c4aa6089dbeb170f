import { type ChildProcess, spawn } from "node:child_process";

// A child process's output as the tests wait for it: everything it wrote to stdout and stderr,
// and a wait for the first match of a pattern that fails when the process exits first.

/** Collects `child`'s stdout and stderr; `line(pattern)` resolves with the first match. */
export function output(child: ChildProcess): {
  text: () => string;
  line: (pattern: RegExp) => Promise<RegExpMatchArray>;
} {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return {
    text: () => text,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setInterval(() => {
          const match = pattern.exec(text);
          if (match) {
            clearInterval(timer);
            resolve(match);
          } else if (child.exitCode !== null) {
            clearInterval(timer);
            reject(new Error(`the process exited (${child.exitCode}) before printing ${pattern}: ${text}`));
          }
        }, 20);
      }),
  };
}

/** Resolves with `child`'s exit code once it has exited. */
export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

/**
 * Runs `command` without blocking this process; resolves with its exit code and everything it
 * wrote to stdout and stderr.
 */
export function finished(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    const collected = output(child);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output: collected.text() }));
  });
}
