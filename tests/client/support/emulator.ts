import {
  DEMO,
  type EmulatorOptions,
  type EmulatorStateView,
  type RunningEmulator,
  startEmulator,
} from "../../../emulator";
import {
  type ClientOptions,
  type CloudDbClient,
  createClient,
  resetRegistry,
} from "../../../provider/client";

// The API double of the client suites is the emulator: one per suite on 127.0.0.1 port 0 (demo
// seed, quick operations), its scripted faults and request log emptied before each test.

/** A suite's emulator and clients of it. */
export interface ClientHarness {
  readonly emulator: RunningEmulator;
  /** A client of the emulator with the demo user's personal key and quick polling, plus `options`. */
  client(options?: ClientOptions): CloudDbClient;
  /** The request log as "METHOD /path" lines, oldest first. */
  log(): string[];
  /** The live (not deleted) branches named `name`, as the emulator holds them. */
  liveBranches(name: string): EmulatorStateView["branches"];
}

/** How the suite's emulator is shared between tests. */
export interface HarnessOptions {
  /** Seed the demo state again before each test (after scripting operations that never end). */
  reseed?: boolean;
}

/** Starts an emulator before the suite, stops it after, and gives each test a clean fault queue and log. */
export function useEmulatorClient(
  options: EmulatorOptions = {},
  { reseed = false }: HarnessOptions = {},
): ClientHarness {
  let emulator: RunningEmulator | undefined;
  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20, ...options });
  });
  beforeEach(() => {
    resetRegistry();
    emulator?.control.clearFaults();
    emulator?.control.clearOperationScripts();
    if (reseed) emulator?.control.seed("demo");
    emulator?.control.clearRequests();
  });
  after(async () => {
    await emulator?.stop();
  });
  return {
    get emulator(): RunningEmulator {
      if (emulator === undefined) throw new Error("the emulator starts in the suite's before hook");
      return emulator;
    },
    client(extra: ClientOptions = {}): CloudDbClient {
      return createClient({
        apiKey: DEMO.personalKey,
        apiUrl: this.emulator.url,
        pollIntervalMs: { first: 5, max: 20 },
        ...extra,
      });
    },
    log(): string[] {
      return this.emulator.control.requests().map((r) => `${r.method} ${r.path}`);
    },
    liveBranches(name: string) {
      return this.emulator.control
        .dumpState()
        .branches.filter((b) => b.name === name && b.deleted_at_ms === undefined);
    },
  };
}
