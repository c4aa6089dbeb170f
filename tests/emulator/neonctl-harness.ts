import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import type { Json } from "./helpers";

// The official CLI (`neonctl`, unchanged) as a user runs it: a separate process pointed at the
// emulator with NEON_API_HOST and --api-key, answering in JSON. Each suite gets its own emulator
// (operations of 5 ms of emulator time by default, so the CLI's waits and 423 retries cost
// milliseconds, and no rate limits) and its own config folder.

const CLI = require.resolve("neonctl/bin/cli.js");

/** One finished run of the CLI. */
export interface NeonctlRun {
  code: number;
  stdout: string;
  stderr: string;
  json: Json;
}

/** A suite's emulator and the CLI pointed at it. */
export interface NeonctlHarness {
  readonly emu: RunningEmulator;
  /** Runs `neonctl ARGS --output json` with the demo user's personal key; never throws on a failing command. */
  neonctl(...args: string[]): Promise<NeonctlRun>;
  /** The same with another API key. */
  neonctlAs(key: string, ...args: string[]): Promise<NeonctlRun>;
  /** Runs it, asserts it succeeded, and returns its JSON (or its bare output, as `connection-string` prints). */
  ok(...args: string[]): Promise<Json>;
}

/** Starts an emulator before the suite and stops it after; the CLI runs against it. */
export function useNeonctl(options: EmulatorOptions = {}): NeonctlHarness {
  let emu: RunningEmulator | undefined;
  let configDir = "";
  before(async () => {
    emu = await startEmulator({ opDurationMs: 5, limits: false, ...options });
    configDir = mkdtempSync(join(tmpdir(), "neonctl-"));
  });
  after(async () => {
    await emu?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  const neonctlAs = (key: string, ...args: string[]): Promise<NeonctlRun> => {
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
  };
  const harness: NeonctlHarness = {
    get emu(): RunningEmulator {
      if (emu === undefined) throw new Error("the emulator starts in the suite's before hook");
      return emu;
    },
    neonctlAs,
    neonctl: (...args) => neonctlAs(DEMO.personalKey, ...args),
    async ok(...args) {
      const run = await neonctlAs(DEMO.personalKey, ...args);
      assert.equal(run.code, 0, `neonctl ${args.join(" ")} failed: ${run.stderr}${run.stdout}`);
      return run.json ?? run.stdout.trim();
    },
  };
  return harness;
}
