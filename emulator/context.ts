import type { Clock } from "./clock";
import type { DataPlaneView } from "./data-plane/view";
import type { FaultQueue } from "./faults";
import type { FunctionRunner } from "./function-runner";
import type { RateLimiter } from "./limits";
import type { ObjectStore } from "./object-store";
import type { OperationEngine } from "./operations";
import type { RequestLog } from "./request-log";
import type { Store } from "./state";

/** Everything a route handler or control action works with; one per running emulator. */
export interface EmulatorContext {
  store: Store;
  clock: Clock;
  engine: OperationEngine;
  /** Undefined when limits are disabled. */
  limiter: RateLimiter | undefined;
  faults: FaultQueue;
  log: RequestLog;
  /** Status for refusing to delete a default/root branch or a branch with children. */
  refusalStatus: number;
  logRequests: boolean;
  /** The Postgres behind the endpoints; undefined unless the emulator runs with `postgres`. */
  data: DataPlaneView | undefined;
  /** The id seed a fresh state starts from (the `seedIds` option), when ids are not random. */
  seedIds: number | undefined;
  /** The Workers that run the branches' functions. */
  functions: FunctionRunner;
  /** The bytes of the buckets' objects and the functions' archives, by their SHA-256. */
  objects: ObjectStore;
  /** The key presigned URLs are signed with (made on first use). */
  presignKey(): Buffer;
  /** Tells persistence the state changed. */
  changed(): void;
}
