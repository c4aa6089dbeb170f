import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import type { Json } from "./helpers";

// The official CLI (`neonctl`, unchanged) as a user runs it: a separate process pointed at the
// emulator with NEON_API_HOST and --api-key, answering in JSON (or the output asked for), with a
// config folder of its own. A suite calls `useNeonctl()` inside its `describe` for an emulator of
// its own (operations of 5 ms of emulator time, so the CLI's waits and 423 retries cost
// milliseconds, and no rate limits), or `useNeonctlOn()` for the CLI against an emulator it starts.

const CLI = require.resolve("neonctl/bin/cli.js");

/** One finished run of the CLI. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Json;
}

/** Where and how one run goes: the emulator's URL, a config folder, the key (default the demo user's) and output format. */
export interface RunTarget {
  url: string;
  configDir: string;
  key?: string;
  output?: string;
}

/** Runs `neonctl ARGS` as a user would; never throws on a failing command. */
export function runNeonctl(target: RunTarget, ...args: string[]): Promise<Run> {
  const argv = [
    CLI,
    ...args,
    "--api-key",
    target.key ?? DEMO.personalKey,
    "--output",
    target.output ?? "json",
  ];
  argv.push("--no-analytics", "--config-dir", target.configDir, "--no-color");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { env: { ...process.env, NEON_API_HOST: target.url, NEON_API_KEY: "" }, timeout: 60_000 },
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

/** The CLI of one suite. */
export interface Neonctl {
  /** Runs `neonctl ARGS` with the demo user's personal key; never throws on a failing command. */
  neonctl(...args: string[]): Promise<Run>;
  /** The same with another API key. */
  neonctlAs(key: string, ...args: string[]): Promise<Run>;
  /** Runs it, asserts it succeeded, and returns its JSON (or its bare output, as `connection-string` prints). */
  ok(...args: string[]): Promise<Json>;
}

/** The CLI against the emulator `emulator()` returns (started by the suite); its config folder lives as long as the suite. */
export function useNeonctlOn(emulator: () => RunningEmulator, options: { output?: string } = {}): Neonctl {
  let configDir = "";
  before(() => {
    configDir = mkdtempSync(join(tmpdir(), "neonctl-"));
  });
  after(() => rmSync(configDir, { recursive: true, force: true }));
  const neonctlAs = (key: string, ...args: string[]) =>
    runNeonctl({ url: emulator().url, configDir, key, ...options }, ...args);
  return {
    neonctlAs,
    neonctl: (...args) => neonctlAs(DEMO.personalKey, ...args),
    async ok(...args) {
      const run = await neonctlAs(DEMO.personalKey, ...args);
      assert.equal(run.code, 0, `neonctl ${args.join(" ")} failed: ${run.stderr}${run.stdout}`);
      return run.json ?? run.stdout.trim();
    },
  };
}

/** An emulator of the suite's own (started before it, stopped after; `options` add to the defaults) and the CLI against it. */
export function useNeonctl(options: EmulatorOptions = {}): Neonctl & { readonly emu: RunningEmulator } {
  let emu: RunningEmulator | undefined;
  before(async () => {
    emu = await startEmulator({ opDurationMs: 5, limits: false, ...options });
  });
  after(async () => {
    await emu?.stop();
  });
  const running = (): RunningEmulator => {
    assert.ok(emu, "the emulator runs (useNeonctl's before hook)");
    return emu;
  };
  return {
    ...useNeonctlOn(running),
    get emu() {
      return running();
    },
  };
}
