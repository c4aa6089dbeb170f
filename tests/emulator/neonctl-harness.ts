import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import type { Json } from "./helpers";

// The official CLI (`neonctl`, unchanged) as a user runs it, a separate process pointed at the
// emulator with NEON_API_HOST and --api-key, answering in JSON. Each suite that runs it calls
// `useNeonctl()` inside its `describe`: an emulator of its own (operations take 5 ms of emulator
// time, so the CLI's own waits and 423 retries cost milliseconds) and a config folder.

const CLI = require.resolve("neonctl/bin/cli.js");

/** One run of the CLI. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Json;
}

/** The CLI bound to a suite's emulator. */
export interface Neonctl {
  /** The suite's emulator (set in `before`). */
  readonly emu: RunningEmulator;
  /** Runs `neonctl ARGS --output json` as a user would; never throws on a failing command. */
  run(...args: string[]): Promise<Run>;
  /** Runs it and asserts it succeeded; the JSON it printed (or its bare output). */
  ok(...args: string[]): Promise<Json>;
}

/** Runs `neonctl ARGS --output json` against the emulator at `url` as a user would; never throws on a failing command. */
export function runNeonctl(url: string, configDir: string, ...args: string[]): Promise<Run> {
  const argv = [CLI, ...args, "--api-key", DEMO.personalKey, "--output", "json", "--no-analytics"];
  argv.push("--config-dir", configDir, "--no-color");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { env: { ...process.env, NEON_API_HOST: url, NEON_API_KEY: "" }, timeout: 60_000 },
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

/** Starts an emulator and a CLI config folder for the suite (mocha hooks); `options` add to the defaults. */
export function useNeonctl(options: EmulatorOptions = {}): Neonctl {
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
  const running = (): RunningEmulator => {
    assert.ok(emu, "the emulator runs (useNeonctl's before hook)");
    return emu;
  };
  const run = (...args: string[]): Promise<Run> => runNeonctl(running().url, configDir, ...args);
  const ok = async (...args: string[]): Promise<Json> => {
    const result = await run(...args);
    assert.equal(result.code, 0, `neonctl ${args.join(" ")} failed: ${result.stderr}${result.stdout}`);
    // `connection-string` prints the bare URI even with --output json.
    return result.json ?? result.stdout.trim();
  };
  return {
    get emu() {
      return running();
    },
    run,
    ok,
  };
}
