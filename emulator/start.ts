import type { AddressInfo } from "node:net";
import { type Clock, ManualClock, ScaledClock } from "./clock";
import type { EmulatorContext } from "./context";
import { createControl, resolveSeed } from "./control";
import { DataPlane } from "./data-plane/plane";
import { FaultQueue } from "./faults";
// Each family registers what it keeps on a branch when its module loads (families/branch-data.ts):
// every family that keeps something there is loaded before any branch is copied or a state loaded.
import "./families/anonymization";
import "./families/auth";
import "./families/buckets";
import "./families/credentials";
import "./families/custom-domains";
import "./families/data-api";
import "./families/functions";
import "./families/snapshots";
import { upgradeBranches } from "./families/branch-data";
import { FunctionRunner } from "./function-runner";
import { RateLimiter, REAL_LIMITS } from "./limits";
import { objectStoreFor } from "./object-store";
import { OperationEngine, type PlatformSchedule } from "./operations";
import { readStateFile, StatePersister, writeStateFile } from "./persist";
import { signingKeyFor } from "./presign";
import { RequestLog } from "./request-log";
import { storeFromSeed } from "./seed";
import { API_PREFIX, buildServer } from "./server";
import { type StateData, Store } from "./state";
import type { EmulatorOptions, RunningEmulator } from "./types";

const DEFAULT_DURATION_MS = 1000;
const DEFAULT_REFUSAL_STATUS = 422;
const DEFAULT_PLATFORM_ACTIONS = ["check_availability", "suspend_compute"];
const DEFAULT_FUNCTION_TIMEOUT_MS = 30_000;

function durations(option: EmulatorOptions["opDurationMs"]): (action: string) => number {
  const check = (value: number, what: string) => {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`opDurationMs${what} must be >= 0, got ${value}`);
    return Math.round(value);
  };
  if (option === undefined) return () => DEFAULT_DURATION_MS;
  if (typeof option === "number") {
    const d = check(option, "");
    return () => d;
  }
  const table = new Map<string, number>();
  for (const [action, value] of Object.entries(option)) {
    if (value !== undefined) table.set(action, check(value, `.${action}`));
  }
  const fallback = table.get("default") ?? DEFAULT_DURATION_MS;
  return (action) => table.get(action) ?? fallback;
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Starts an emulator of the Cloud Database Control API v2 on `host:port` (127.0.0.1, a free port).
 * Throws when the seed or state file is invalid or the port cannot be bound.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const refusalStatus = options.refusalStatus ?? DEFAULT_REFUSAL_STATUS;
  if (!(Number.isInteger(refusalStatus) && refusalStatus >= 400 && refusalStatus <= 499)) {
    throw new RangeError(`refusalStatus must be a 4xx status, got ${refusalStatus}`);
  }
  const host = options.host ?? "127.0.0.1";
  const controlToken = options.controlToken ?? process.env["CLOUDDB_EMULATOR_CONTROL_TOKEN"] ?? undefined;
  if (controlToken !== undefined && controlToken.length < 16) {
    throw new RangeError("controlToken must be at least 16 characters");
  }
  if (controlToken === undefined && !isLoopback(host)) {
    throw new Error(
      `binding to ${host} exposes the control API (/__emulator) to the network: give a control token ` +
        "(--control-token, the controlToken option, or CLOUDDB_EMULATOR_CONTROL_TOKEN)",
    );
  }
  const saved = options.stateFile === undefined ? undefined : readStateFile(options.stateFile);

  let clock: Clock;
  let limitNow: () => number;
  if (options.clock === "manual" || options.clock === undefined) {
    if (options.clock === "manual") {
      clock = new ManualClock(saved?.clock_ms);
      limitNow = () => clock.now();
    } else {
      // Restarted emulators resume the clock where it stopped, so no operation goes back in time.
      const startMs = saved ? Math.max(saved.clock_ms, Date.now()) : undefined;
      clock = new ScaledClock({
        timeScale: options.timeScale ?? 1,
        ...(startMs === undefined ? {} : { startMs }),
      });
      limitNow = Date.now;
    }
  } else {
    clock = options.clock;
    limitNow = () => clock.now();
  }

  // A state file that exists replaces the seed (which is then not even read).
  const seed = saved ? undefined : resolveSeed(options.seed ?? "demo");
  // An id seed applies to a new state; a saved state goes on with its own sequence.
  const store =
    seed === undefined
      ? Store.fromJSON(saved as StateData)
      : storeFromSeed(seed, clock.now(), options.seedIds);
  const platform: PlatformSchedule | undefined =
    options.platformOperations && options.platformOperations.everyMs > 0
      ? {
          everyMs: options.platformOperations.everyMs,
          actions: options.platformOperations.actions ?? DEFAULT_PLATFORM_ACTIONS,
        }
      : undefined;
  const limiter =
    options.limits === false
      ? undefined
      : new RateLimiter({ ...REAL_LIMITS, ...(options.limits ?? {}) }, limitNow);

  const stateFile = options.stateFile;
  const persister =
    stateFile === undefined ? undefined : new StatePersister(stateFile, () => store.toJSON(clock.now()));
  const ctx: EmulatorContext = {
    store,
    clock,
    engine: new OperationEngine(store, clock, durations(options.opDurationMs), platform),
    limiter,
    faults: new FaultQueue(),
    log: new RequestLog(),
    refusalStatus,
    logRequests: options.logRequests ?? false,
    data: undefined,
    seedIds: options.seedIds,
    functions: new FunctionRunner(options.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS),
    // With a state file, the objects' bytes and the presigning key are kept beside it.
    objects: objectStoreFor(stateFile),
    presignKey: signingKeyFor(stateFile),
    changed: () => persister?.markDirty(),
  };
  if (stateFile !== undefined && !saved) writeStateFile(stateFile, store.toJSON(clock.now()));
  // A state an older emulator saved is brought up to date by each family, then saved as it now is.
  if (saved && upgradeBranches(store.branches.values(), { objects: ctx.objects })) ctx.changed();

  let data: DataPlane | undefined;
  if (options.postgres ?? seed?.postgres ?? false) {
    // With a state file the rows and the endpoints' CA come back with the state: both are kept
    // beside it (Postgres's folder is cleared when the state file is new, so no other state's
    // rows are taken in).
    data = await DataPlane.start(ctx, {
      stateFile,
      fresh: saved === undefined,
      allowPlainConnections: options.allowPlainConnections,
      postgresBin: options.postgresBin,
    });
    ctx.data = data;
  }
  const control = createControl(ctx, () => persister?.flush());
  const app = buildServer(ctx, control, controlToken === "" ? undefined : controlToken);
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await data?.stop();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  const bound = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const origin = `http://${bound}:${address.port}`;

  let stopping: Promise<void> | undefined;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    control,
    ...(data === undefined
      ? {}
      : {
          postgres: { pid: data.pid, folder: data.folder },
          caPath: data.caPath,
          caCertificate: data.caCertificate,
        }),
    ...(data?.serverless === undefined ? {} : { serverless: data.serverless }),
    stop() {
      stopping ??= (async () => {
        try {
          // The functions' Workers end first: a request they hold is answered before the server closes.
          await ctx.functions.stop();
          await app.close();
          await data?.stop();
        } finally {
          persister?.flush(true);
        }
      })();
      return stopping;
    },
  };
}
