import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import type { Json } from "./helpers";

// The official CLI (`neonctl`, unchanged) as a user runs it, a separate process pointed at the
// emulator with NEON_API_HOST and --api-key, answering in JSON. Operations take 5 ms of emulator
// time, so the CLI's own waits and 423 retries cost milliseconds. Each suite gets its own emulator
// and config folder.

const CLI = require.resolve("neonctl/bin/cli.js");

/** One run of the CLI. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Json;
}

/** A suite's emulator and the CLI pointed at it. */
export interface NeonctlHarness {
  readonly emu: RunningEmulator;
  /** Runs `neonctl ARGS --output json` as a user would, with the demo user's key unless `key` is given; never throws on a failing command. */
  neonctl(args: string[], key?: string): Promise<Run>;
  /** Runs `neonctl ARGS` and asserts it succeeded; its JSON answer, or its bare text (`connection-string`). */
  ok(...args: string[]): Promise<Json>;
}

/** Starts an emulator and a CLI config folder before the suite, removes both after it. */
export function useNeonctl(): NeonctlHarness {
  let emu: RunningEmulator | undefined;
  let configDir = "";
  before(async () => {
    emu = await startEmulator({ opDurationMs: 5, limits: false });
    configDir = mkdtempSync(join(tmpdir(), "neonctl-"));
  });
  after(async () => {
    await emu?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });
  const harness: NeonctlHarness = {
    get emu(): RunningEmulator {
      if (emu === undefined) throw new Error("the emulator starts in the suite's before hook");
      return emu;
    },
    neonctl(args, key = DEMO.personalKey) {
      const argv = [CLI, ...args, "--api-key", key, "--output", "json", "--no-analytics"];
      argv.push("--config-dir", configDir, "--no-color");
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          argv,
          { env: { ...process.env, NEON_API_HOST: harness.emu.url, NEON_API_KEY: "" }, timeout: 60_000 },
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
    },
    async ok(...args) {
      const run = await harness.neonctl(args);
      assert.equal(run.code, 0, `neonctl ${args.join(" ")} failed: ${run.stderr}${run.stdout}`);
      // `connection-string` prints the bare URI even with --output json.
      return run.json ?? run.stdout.trim();
    },
  };
  return harness;
}
