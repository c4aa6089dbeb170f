import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import type { Json } from "./helpers";

// The official CLI (`neonctl`, unchanged) as a user runs it: a separate process pointed at an
// emulator with NEON_API_HOST and --api-key, answering in JSON, with a config folder of its own.

const CLI = require.resolve("neonctl/bin/cli.js");

/** One finished run of the CLI. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Json;
}

/** The CLI of one suite: `neonctl` never throws on a failing command, `ok` asserts success and returns its JSON (or bare text). */
export interface Neonctl {
  neonctl(...args: string[]): Promise<Run>;
  ok(...args: string[]): Promise<Json>;
}

/**
 * The CLI against the emulator `emulator()` returns (started in the suite's `before`), with the
 * demo personal key; its config folder is made here and removed after the suite.
 */
export function useNeonctl(emulator: () => RunningEmulator, options: { output?: string } = {}): Neonctl {
  let configDir: string | undefined;
  before(() => {
    configDir = mkdtempSync(join(tmpdir(), "neonctl-"));
  });
  after(() => {
    if (configDir !== undefined) rmSync(configDir, { recursive: true, force: true });
  });

  function neonctl(...args: string[]): Promise<Run> {
    const argv = [CLI, ...args, "--api-key", DEMO.personalKey, "--output", options.output ?? "json"];
    argv.push("--no-analytics", "--config-dir", configDir as string, "--no-color");
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        argv,
        { env: { ...process.env, NEON_API_HOST: emulator().url, NEON_API_KEY: "" }, timeout: 60_000 },
        (error, stdout, stderr) => {
          let json: Json;
          try {
            json = JSON.parse(stdout);
          } catch {
            json = undefined;
          }
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
          resolve({ code, stdout, stderr, json });
        },
      );
    });
  }

  async function ok(...args: string[]): Promise<Json> {
    const run = await neonctl(...args);
    assert.equal(run.code, 0, `neonctl ${args.join(" ")} failed: ${run.stderr}${run.stdout}`);
    // `connection-string` prints the bare URI even with --output json.
    return run.json ?? run.stdout.trim();
  }

  return { neonctl, ok };
}
