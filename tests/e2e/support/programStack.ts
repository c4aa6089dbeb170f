// The set-up every real-engine suite shares: a program's folder (as it is, or a fresh copy, or a
// fresh project with this repository installed from `npm pack`), a stack of it on a private backend
// whose provider talks to the emulator, and one `dispose` that removes all of it.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../../emulator";
import { copyProgram, type ProgramLanguage, pluginProgramEnv } from "./languages";
import { installPackedProject } from "./package";
import { createStack, type E2eStack } from "./stack";

/** The program folder `name` of tests/e2e/fixtures. */
export function fixture(name: string): string {
  return path.join(__dirname, "../fixtures", name);
}

/**
 * Where a stack's program runs: `workDir` as it is (a fixture or an example of this repository, or a
 * folder the suite made and removes), `copyOf` a fresh copy of a folder (for a program the engine or
 * its language host writes into), or `packed` a fresh project holding a folder's files with this
 * repository installed from `npm pack`, as users install it. A copy or a project is the stack's
 * own: `dispose` removes it.
 */
export type ProgramFolder = { workDir: string } | { copyOf: string } | { packed: string };

/** What a suite says of its stack besides its program's folder. */
export interface ProgramStackOptions {
  /** The emulator the provider talks to; without it the stack's config has no `clouddb:` setting. */
  emulator?: RunningEmulator;
  /** The key the stack's config holds for `emulator` (a secret, as users set it); the demo user's personal key by default. */
  apiKey?: string;
  /** The program's language, when it reaches the provider through its plugin (`pluginProgramEnv`). */
  language?: ProgramLanguage;
  stackName?: string;
  config?: Record<string, string>;
  /** Config values stored as secrets (e.g. an explicit provider's key). */
  secrets?: Record<string, string>;
  /** More environment for the CLI and the provider, over the language's (e.g. CLOUDDB_POLL_INTERVAL_MS). */
  env?: Record<string, string>;
  /** A `file://` backend folder the stack shares with others (see `createStack`). */
  backendDir?: string;
}

/**
 * A fresh stack of a program (see `ProgramFolder`) on a private backend, configured as `opts` says.
 * Throws what the copy, the install or the engine throws, with whatever was made for it removed.
 */
export async function programStack(opts: ProgramFolder & ProgramStackOptions): Promise<E2eStack> {
  const owned = !("workDir" in opts);
  const workDir =
    "workDir" in opts
      ? opts.workDir
      : "copyOf" in opts
        ? copyProgram(opts.copyOf)
        : installPackedProject(opts.packed);
  const removeCopy = () => {
    if (owned) fs.rmSync(workDir, { recursive: true, force: true });
  };
  let made: E2eStack;
  try {
    made = await createStack({
      workDir,
      ...(opts.emulator !== undefined
        ? { apiUrl: opts.emulator.url, apiKey: opts.apiKey ?? DEMO.personalKey }
        : {}),
      ...(opts.stackName !== undefined ? { stackName: opts.stackName } : {}),
      ...(opts.config !== undefined ? { config: opts.config } : {}),
      ...(opts.backendDir !== undefined ? { backendDir: opts.backendDir } : {}),
      env: { ...(opts.language !== undefined ? pluginProgramEnv(opts.language) : {}), ...opts.env },
    });
  } catch (err) {
    removeCopy();
    throw err;
  }
  const e2e: E2eStack = {
    ...made,
    async dispose(disposal) {
      await made.dispose(disposal);
      removeCopy();
    },
  };
  try {
    const secrets = Object.entries(opts.secrets ?? {});
    if (secrets.length > 0)
      await e2e.stack.setAllConfig(
        Object.fromEntries(secrets.map(([key, value]) => [key, { value, secret: true }])),
      );
  } catch (err) {
    await e2e.dispose();
    throw err;
  }
  return e2e;
}

/** What `useDemoBranchYaml` sets up: readable once the suite's `before` ran. */
export interface DemoBranchYaml {
  emulator: RunningEmulator;
  e2e: E2eStack;
}

/**
 * Mocha hooks for a suite of the YAML program `name` of tests/e2e/fixtures run through the plugin
 * against the demo branch: before it, an emulator seeded with the demo account and a stack of a fresh
 * copy of the program whose config names the demo project and branch (`projectId`, `branchId`), `env`
 * given to the CLI and the provider; after it, both removed.
 */
export function useDemoBranchYaml(name: string, env?: Record<string, string>): DemoBranchYaml {
  const suite = {} as DemoBranchYaml;
  before(async () => {
    suite.emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    suite.e2e = await programStack({
      copyOf: fixture(name),
      emulator: suite.emulator,
      language: "yaml",
      config: { projectId: DEMO.projectId, branchId: DEMO.branchId },
      ...(env === undefined ? {} : { env }),
    });
  });
  after(async () => {
    await suite.e2e?.dispose();
    await suite.emulator?.stop();
  });
  return suite;
}
