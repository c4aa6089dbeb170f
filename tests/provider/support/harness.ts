import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator";
import { resetRegistry } from "../../../provider/client";
import { setHostLineWriter } from "../../../provider/resources/host/progress";
import { configureFromStack } from "../../../provider/resources/host/settings";
import { forgetFirstListings } from "../../../provider/resources/lifecycle/firstListings";

// Shared plumbing of the provider suites: one emulator per suite, credentials in the environment
// (restored afterwards), fast operation polling, and a fake stack config for `configure()`.

const ENV_KEYS = [
  "CLOUDDB_API_KEY",
  "CLOUDDB_API_URL",
  "CLOUDDB_POLL_INTERVAL_MS",
  "CLOUDDB_LIMITER_URL",
] as const;

/** Operation duration used by the provider suites: long enough to need polling, short enough to be fast. */
export const OP_MS = 20;

/** The `__provider` value Pulumi passes along with inputs; the methods must carry it through untouched. */
export const PROVIDER_TEXT = "exports.handler = () => ({}); // serialized provider stand-in";

/** Inputs as a program's resource sends them: with its serialized provider. */
export function withProvider<T>(values: T): T {
  return { ...values, __provider: PROVIDER_TEXT } as T;
}

/** A `pulumi.dynamic.Config` over a plain map, as the engine hands one to `configure()`. */
export function fakeConfig(values: Record<string, string>): pulumi.dynamic.Config {
  return {
    get: (key: string) => values[key],
    require: (key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`missing required configuration variable '${key}'`);
      return value;
    },
  };
}

/** Forgets any stack config a test recorded with `configure()`, so the environment applies again. */
export function clearStackConfig(): void {
  configureFromStack(fakeConfig({}));
}

/** Sets environment variables for the current test; returns a function restoring the old values. */
export function setEnv(values: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>>): () => void {
  const saved = new Map(ENV_KEYS.map((k) => [k, process.env[k]] as const));
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Environment variables a suite's tests set: `set` saves and sets, `restore` (also after each test) puts the old values back. */
export interface TestEnv {
  set(values: Parameters<typeof setEnv>[0]): void;
  restore(): void;
}

/** For a suite whose tests set environment variables: each test's are restored after it. */
export function useTestEnv(): TestEnv {
  const restores: Array<() => void> = [];
  const env: TestEnv = {
    set: (values) => {
      restores.push(setEnv(values));
    },
    restore: () => {
      for (let undo = restores.pop(); undo !== undefined; undo = restores.pop()) undo();
    },
  };
  afterEach(() => env.restore());
  return env;
}

/** A suite's emulator plus the environment pointing the provider at it. */
export interface ProviderHarness {
  readonly emulator: RunningEmulator;
  /** The request log as "METHOD /path" lines, oldest first. */
  log(): string[];
  /** The requests that may change something (every method but GET), as "METHOD /path" lines. */
  writes(): string[];
}

/**
 * Starts an emulator (demo seed, quick operations) before the suite and points the provider at it
 * with the demo user's personal key through `CLOUDDB_API_KEY` / `CLOUDDB_API_URL`; restores the
 * environment and stops the emulator after the suite.
 */
export function useEmulator(options: EmulatorOptions = {}): ProviderHarness {
  let emulator: RunningEmulator | undefined;
  let restore: (() => void) | undefined;
  before(async () => {
    resetRegistry();
    forgetFirstListings();
    clearStackConfig();
    emulator = await startEmulator({ seed: "demo", opDurationMs: OP_MS, ...options });
    restore = setEnv({
      CLOUDDB_API_KEY: DEMO.personalKey,
      CLOUDDB_API_URL: emulator.url,
      CLOUDDB_POLL_INTERVAL_MS: "5,20",
    });
  });
  after(async () => {
    restore?.();
    clearStackConfig();
    await emulator?.stop();
  });
  return {
    get emulator(): RunningEmulator {
      if (emulator === undefined) throw new Error("the emulator starts in the suite's before hook");
      return emulator;
    },
    log(): string[] {
      return this.emulator.control.requests().map((r) => `${r.method} ${r.path}`);
    },
    writes(): string[] {
      return this.log().filter((line) => !line.startsWith("GET "));
    },
  };
}

/**
 * `useEmulator` with the emulator's Postgres behind the computes, and `PGSSLROOTCERT` naming its CA
 * while the suite runs: the kinds that work over SQL verify the computes' certificates against it.
 */
export function useSqlEmulator(): ProviderHarness {
  const harness = useEmulator({ postgres: true, limits: false });
  let previous: string | undefined;
  before(() => {
    previous = process.env.PGSSLROOTCERT;
    process.env.PGSSLROOTCERT = harness.emulator.caPath;
  });
  after(() => {
    if (previous === undefined) delete process.env.PGSSLROOTCERT;
    else process.env.PGSSLROOTCERT = previous;
  });
  return harness;
}

/** Resolves once every operation of the project has ended (e.g. after an out-of-band change). */
export async function projectIdle(
  emulator: RunningEmulator,
  projectId: string,
  timeoutMs = 5000,
): Promise<void> {
  const terminal = new Set(["finished", "cancelled", "skipped", "error"]);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const busy = emulator.control
      .dumpState()
      .operations.filter((op) => op.project_id === projectId && !terminal.has(op.status));
    if (busy.length === 0) return;
    if (Date.now() > until)
      throw new Error(`project ${projectId} still busy: ${busy.map((op) => op.action)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What `act` writes for the user (the lines a preview or an `up` shows), and what it returns. */
export async function linesOf<T>(act: () => Promise<T>): Promise<{ lines: string[]; result: T }> {
  const lines: string[] = [];
  setHostLineWriter((line) => lines.push(line));
  try {
    return { lines, result: await act() };
  } finally {
    setHostLineWriter(undefined);
  }
}

/** The one failure a `check` returned; fails the test when there is not exactly one. */
export function onlyFailure(result: pulumi.dynamic.CheckResult<unknown>): pulumi.dynamic.CheckFailure {
  if (result.failures?.length !== 1)
    throw new Error(`expected one failure: ${JSON.stringify(result.failures)}`);
  return result.failures[0] as pulumi.dynamic.CheckFailure;
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e: Error) => e,
  );
}
