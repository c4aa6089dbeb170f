// The crash fixture (fixtures/crash): a program that declares the resources its stack's `resources`
// config lists, so a suite writes its program as data and changes it between runs.
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { nextRun } from "./kill";
import { fixture, programStack } from "./programStack";
import type { E2eStack } from "./stack";

/** The fixture's folder. Its program requires this repository's package by name, so it runs in place. */
export const CRASH_FIXTURE = fixture("crash");

/**
 * A resource the fixture's program declares: `new clouddb[kind](res, args)`, where an arg (or a value
 * inside one) written `"@other.output"` is that output of the resource `other`, listed before it, and
 * one written `"$secret:key"` the stack's secret config `key`.
 */
export interface Declared {
  kind: string;
  res: string;
  args: Record<string, unknown>;
}

/**
 * A stack of the fixture whose provider talks to `emulator`, declaring `resources` when given. The
 * stack is named `<name>-<this process's id>`: its config file lands in the fixture's folder, which
 * runs of the suites at the same time share. `env` as `programStack` takes it.
 */
export function crashFixtureStack(
  emulator: RunningEmulator,
  name: string,
  opts: { resources?: Declared[]; env?: Record<string, string> } = {},
): Promise<E2eStack> {
  return programStack({
    workDir: CRASH_FIXTURE,
    emulator,
    stackName: `${name}-${process.pid}`,
    ...(opts.resources !== undefined ? { config: { resources: JSON.stringify(opts.resources) } } : {}),
    ...(opts.env !== undefined ? { env: opts.env } : {}),
  });
}

/** Sets the stack's `resources` config: its next run declares exactly `resources`. */
export async function declareResources(e2e: E2eStack, resources: Declared[]): Promise<void> {
  await e2e.stack.setConfig("resources", { value: JSON.stringify(resources) });
}

/** What `useCrashFixture` sets up: readable once the suite's `before` ran. */
export interface CrashFixtureSuite {
  emulator: RunningEmulator;
  e2e: E2eStack;
}

/**
 * Mocha hooks for a kill-and-rerun suite: before it, an emulator seeded with the demo account and a
 * stack `name` of the fixture (see `crashFixtureStack`) whose provider polls fast; after it, whatever
 * the stack still holds destroyed, then both removed.
 */
export function useCrashFixture(name: string): CrashFixtureSuite {
  const suite = {} as CrashFixtureSuite;
  before(async () => {
    suite.emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    suite.e2e = await crashFixtureStack(suite.emulator, name, {
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    if (suite.e2e !== undefined) await nextRun(suite.e2e, "destroy").catch(() => undefined);
    await suite.e2e?.dispose();
    await suite.emulator?.stop();
  });
  return suite;
}
