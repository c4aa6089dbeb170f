import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { DEMO, type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient, resetRegistry } from "../../provider/client";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import { configureFromStack } from "../../provider/resources/host/settings";
import { forgetFirstListings } from "../../provider/resources/lifecycle/firstListings";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type BranchInputs,
  type BranchOutputs,
  branchProvider,
  type MaskingRule,
} from "../../provider/resources/public/branch";

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

/**
 * Creates a branch of the demo project with a read_write compute out of band (as the console would)
 * and returns its id once its operations ended.
 */
export async function demoBranch(emulator: RunningEmulator, name: string): Promise<string> {
  const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
  const made = await client.createBranch(DEMO.projectId, {
    branch: { name, parent_id: DEMO.branchId },
    endpoints: [{ type: "read_write" }],
  });
  await projectIdle(emulator, DEMO.projectId);
  return made.branch.id;
}

/**
 * A Branch made and changed through its provider as the engine does it: `create`, and `update`
 * after a diff that must plan the change in place. `inputs` turns a test's values into inputs.
 */
export function branchSteps(inputs: (values: Partial<BranchInputs>) => BranchInputs) {
  return {
    async create(values: Partial<BranchInputs>) {
      const made = await branchProvider.create(inputs(values));
      return { id: made.id, outs: made.outs as BranchOutputs };
    },
    async update(id: string, olds: BranchOutputs, values: Partial<BranchInputs>) {
      const news = inputs(values);
      const diff = await branchProvider.diff?.(id, olds, news);
      if (diff?.replaces?.length)
        throw new Error(`expected an in-place change, the diff replaces ${diff.replaces}`);
      return (await branchProvider.update?.(id, olds, news))?.outs as BranchOutputs;
    },
  };
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

/**
 * The set-up the governance suites (an organization's kinds, a project's members) share: an
 * emulator on a manual clock and the test environment, with the preflight cache and the request log
 * cleared before each test. `org()` reads the demo organization's record; `outside` calls the API as
 * another tool would, with the demo admin's key, and expects a 200.
 */
export function useGovernanceSuite() {
  const harness = useEmulator({ clock: "manual" });
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });
  return {
    harness,
    env,
    control,
    org: () =>
      control()
        .dumpState()
        .organizations.find((o) => o.id === DEMO.orgId),
    async outside(method: string, path: string, body?: unknown): Promise<void> {
      const reply = await fetch(`${harness.emulator.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (reply.status !== 200)
        throw new Error(`${method} ${path} answered ${reply.status}: ${await reply.text()}`);
    },
  };
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (e: Error) => e,
  );
}

/** Branch inputs as the engine passes them: in the demo project, with the serialized provider alongside. */
export function branchInputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return { projectId: DEMO.projectId, ...values, __provider: PROVIDER_TEXT } as BranchInputs;
}

/**
 * The set-up of the Branch suites: one emulator, with sinon, operation scripts and faults reset
 * after each test. `checked` makes inputs as `check` does for a resource not in the state, with its
 * URN; `create` makes a branch through the provider; `branchState` reads a branch from the
 * emulator's state and `operationStatus` an operation's status.
 */
export function useBranchSuite() {
  const harness = useEmulator();
  afterEach(() => {
    sinon.restore();
    harness.emulator.control.clearOperationScripts();
    harness.emulator.control.clearFaults();
  });
  return {
    harness,
    async checked(values: Partial<BranchInputs>, resource: string): Promise<BranchInputs> {
      const owner = `urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::${resource}`;
      const news = { ...branchInputs(values), __owner: owner } as BranchInputs;
      const result = await branchProvider.check!({} as BranchInputs, news);
      assert.deepEqual(result.failures ?? [], []);
      return result.inputs as BranchInputs;
    },
    async create(values: Partial<BranchInputs> = {}) {
      const made = await branchProvider.create(branchInputs(values));
      assert.ok(made.outs);
      return { id: made.id, outs: made.outs };
    },
    branchState(id: string) {
      const branch = harness.emulator.control.dumpState().branches.find((b) => b.id === id);
      assert.ok(branch, `branch ${id} is in the emulator's state`);
      return branch;
    },
    operationStatus(id: string): string | undefined {
      return harness.emulator.control.dumpState().operations.find((op) => op.id === id)?.status;
    },
  };
}

/** A masking rule of the anonymized Branch suites: the demo database's users' emails, faked. */
export const EMAIL_RULE: MaskingRule = {
  databaseName: "neondb",
  tableName: "users",
  columnName: "email",
  maskingFunction: "anon.fake_email()",
};

/** A masking rule of the anonymized Branch suites: the demo database's users' names, one fixed value. */
export const NAME_RULE: MaskingRule = {
  databaseName: "neondb",
  schemaName: "public",
  tableName: "users",
  columnName: "name",
  maskingValue: "someone",
};

/** Inputs of an anonymized Branch in the demo project, as the engine passes them. */
export function anonymizedInputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return branchInputs({ initSource: "anonymized", ...values });
}
