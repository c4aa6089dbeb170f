// pulumi-clouddb-emulator: a local stand-in for the Cloud Database Control API v2.

export { type Clock, ManualClock, ScaledClock } from "./clock";
export { havePostgres } from "./data-plane/postgres";
export type { ServerlessSettings } from "./data-plane/serverless";
export { DEMO, demoSeed } from "./demo";
export type { FaultResponse } from "./faults";
export { type LimitSettings, REAL_LIMITS } from "./limits";
export type { OperationMatch, OperationView, ScriptedOutcome } from "./operations";
export type { RequestFilter, RequestLogEntry } from "./request-log";
export type { SeedFile } from "./seed";
export { startEmulator } from "./start";
export type {
  ConsoleKeyRequest,
  EmulatorControl,
  EmulatorOptions,
  EmulatorStateView,
  KeyView,
  RunningEmulator,
} from "./types";
