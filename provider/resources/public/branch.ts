/**
 * The public part of {@link Branch}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../branch.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import type { Timeouts } from "./common";
import { ENDPOINT_TYPE, TIMEOUTS_INPUT } from "./common";
import {
  arrayOf,
  BOOLEAN,
  declareResource,
  enumOf,
  INTEGER,
  NUMBER,
  objectType,
  oneOf,
  STRING,
} from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf, ValueOf } from "./shapes";

/** The compute endpoint types a program may give a branch. */
export type EndpointType = (typeof ENDPOINT_TYPE.enum)[number];

/**
 * How a branch is filled: `parent-data`, its parent's data (the default); `schema-only`, its
 * parent's schema alone; `anonymized`, its parent's data with the columns of `maskingRules` masked.
 */
export const INIT_SOURCE = enumOf("InitSource", ["parent-data", "schema-only", "anonymized"]);

/** How a branch is filled: with its parent's data (the default), only its parent's schema, or its parent's data masked. */
export type InitSource = ValueOf<typeof INIT_SOURCE>;

/** A column an anonymized branch masks: by a masking function, or set to a literal value. */
export const MASKING_RULE = objectType("MaskingRule", {
  /** The database holding the table. */
  databaseName: { type: STRING },
  /** The table's schema; default `public`. */
  schemaName: { type: STRING, optional: true },
  /** The table. */
  tableName: { type: STRING },
  /** The column masked. */
  columnName: { type: STRING },
  /**
   * A PostgreSQL Anonymizer masking function: `anon.fake_email()`, `anon.fake_first_name()`,
   * `anon.partial(col, 1, '***', 1)`, `anon.random_string(10)`, `NULL`... Not with `maskingValue`.
   */
  maskingFunction: { type: STRING, optional: true },
  /** A literal value every row's column is set to. Not with `maskingFunction`. */
  maskingValue: { type: STRING, optional: true },
});

/** A masking rule, in the inputs' names. */
export interface MaskingRule extends ObjectOf<typeof MASKING_RULE.properties> {}

/**
 * What a branch's data is restored from, in place: a snapshot, or a point of the branch's own
 * history. The branch keeps its id, name and computes (see `restore`).
 */
export const BRANCH_RESTORE = objectType("BranchRestore", {
  /** The snapshot (`snap-...`) whose data the branch takes. */
  snapshotId: { type: STRING, optional: true },
  /** A point of the branch's own history (RFC 3339) to go back to. */
  timestamp: { type: STRING, optional: true },
  /** A point of the branch's own history, as an LSN (`0/1F0A3B8`). */
  lsn: { type: STRING, optional: true },
  /**
   * The name of the new branch that keeps the data as it was before the restore (the stack does
   * not manage it). Needed by the service for a restore from the branch's own history; generated
   * when left out.
   */
  preserveUnderName: { type: STRING, optional: true },
});

/** What a branch's data is restored from, in the inputs' names. */
export interface BranchRestore extends ObjectOf<typeof BRANCH_RESTORE.properties> {}

/** A compute endpoint the branch is declared with. */
const BRANCH_ENDPOINT_INPUT = objectType("BranchEndpointSpec", {
  /** `read_write` (at most one per branch) or `read_only`. */
  type: { type: ENDPOINT_TYPE },
});

/** A compute endpoint of the branch, as last read. */
const BRANCH_ENDPOINT = objectType("BranchEndpoint", {
  /** The compute endpoint id, `ep-...`. */
  id: { type: STRING },
  /** `read_write` or `read_only`; a type the API adds later is recorded as it says. */
  type: { type: ENDPOINT_TYPE },
  /** The host to connect to. */
  host: { type: STRING, nullable: true },
  /** The compute's state as last read: `init`, `active`, `idle`. */
  currentState: { type: STRING, nullable: true },
  /** Autoscaling minimum, CU. */
  autoscalingLimitMinCu: { type: NUMBER, nullable: true },
  /** Autoscaling maximum, CU. */
  autoscalingLimitMaxCu: { type: NUMBER, nullable: true },
  /** Suspend timeout, seconds (-1 never, 0 the service's default). */
  suspendTimeoutSeconds: { type: INTEGER, nullable: true },
});

/** A compute endpoint of the branch, as last read (after create, update or refresh). */
export interface BranchEndpoint extends ObjectOf<typeof BRANCH_ENDPOINT.properties> {}

/** A database a branch was made with, copied from its parent. */
const INHERITED_DATABASE = objectType("InheritedDatabase", {
  /** The database's name. */
  name: { type: STRING },
  /** The role that owns it. */
  ownerName: { type: STRING, nullable: true },
});

/** Waits bounded per resource, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export type BranchTimeouts = Timeouts;

/** A branch, declared. */
export const BRANCH = declareResource({
  type: "Branch",
  noun: "branch",
  family: "branches",
  importId: ["projectId", "branchId"],
  inputs: {
    /** The project the branch belongs to. Changing it replaces the branch. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** Branch name, unique in the project (1-256 characters). Omit for a generated name; changing it renames in place. */
    name: { type: STRING, change: "update", computed: true },
    /** Parent branch id; omit for the project's default branch. Changing it replaces the branch. */
    parentId: { type: STRING, change: "replace", computed: true },
    /** Compute endpoints of the branch: at most one `read_write`, any number of `read_only`. Changing them adds or removes computes on the same branch (its data stays). */
    endpoints: { type: arrayOf(BRANCH_ENDPOINT_INPUT), change: "update", computed: true },
    /**
     * `schema-only`: the parent's schema (roles, databases, tables) without its data; `anonymized`:
     * the parent's data with `maskingRules` applied before the create finishes (the branch's own
     * copy: the parent keeps its data); default `parent-data`. Changing it replaces the branch.
     */
    initSource: { type: INIT_SOURCE, change: "replace" },
    /**
     * With `initSource: "anonymized"`: the columns masked. Changing them sets the rules and masks the
     * branch's data again, in place.
     */
    maskingRules: { type: arrayOf(MASKING_RULE), change: "update" },
    /** With `initSource: "anonymized"`: any string; changing it masks the branch's data again with its rules, in place. */
    anonymizeTrigger: { type: STRING, change: "update" },
    /** When true the API refuses to delete the branch; changes in place. */
    protected: { type: BOOLEAN, change: "update" },
    /** When the service deletes the branch, RFC 3339 (e.g. `2025-06-09T18:02:16Z`), at most 30 days ahead; changes in place. Not with `ttl`. */
    expiresAt: { type: STRING, change: "update" },
    /**
     * Expiry counted from when the branch is created: `"7d"`, `"12h"`, `"1d12h"`, `"30m"` or seconds
     * (at most 30 days). It becomes a timestamp once and stays put on later runs; changing the ttl
     * counts again from that run, in place. Not with `expiresAt`.
     */
    ttl: { type: oneOf(STRING, NUMBER), change: "update" },
    /** Branch from the parent as it was at this time (RFC 3339). Not with `parentLsn`. Changing it replaces the branch. */
    parentTimestamp: { type: STRING, change: "replace" },
    /** Branch from the parent at this LSN (e.g. `0/1F0A3B8`). Not with `parentTimestamp`. Changing it replaces the branch. */
    parentLsn: { type: STRING, change: "replace" },
    /** Autoscaling minimum of the branch's computes in CU: 0.25, 0.5 or a whole number up to 56; changes in place. Needs `endpoints`. */
    autoscalingLimitMinCu: { type: NUMBER, change: "update", computed: true },
    /** Autoscaling maximum of the branch's computes in CU, at least the minimum; a range is at most 8 CU wide and ends at 16 CU. Changes in place. Needs `endpoints`. */
    autoscalingLimitMaxCu: { type: NUMBER, change: "update", computed: true },
    /** Seconds idle before the branch's computes suspend: -1 never, 0 the service's default, else 60-604800; changes in place. Needs `endpoints`. */
    suspendTimeoutSeconds: { type: INTEGER, change: "update", computed: true },
    /** Any string; changing it resets the branch's data from its parent's current data, in place. Setting it at create does nothing. */
    resetTrigger: { type: STRING, change: "update" },
    /**
     * Restores the branch's data in place when it changes: from a snapshot (`snapshotId`) or a point
     * of its own history (`timestamp` or `lsn`). The branch keeps its id, name and computes (they
     * restart), so nothing on it is replaced. A Branch created with `restore.snapshotId` is made,
     * then restored from the snapshot; a `timestamp` or `lsn` restore fails at the preview of a
     * create (a new branch has no history of its own).
     */
    restore: { type: BRANCH_RESTORE, change: "update" },
    /**
     * The pull request the branch is a preview of, such as `"123"`: recorded with the stack's mark in
     * the branch's annotation when it is created (`pulumi-clouddb.pull-request`), for `clouddb sweep`'s
     * report. A later change does nothing (an annotation is set at creation only).
     */
    pullRequest: { type: STRING, change: "ignore" },
    /** An existing branch id to take under management instead of creating one (through the provider plugin, `pulumi import` also works). */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the branch (destroy, replace, removal from the program) fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The branch id, `br-...`. */
    branchId: { type: STRING },
    /** The project id. */
    projectId: { type: STRING },
    /** The branch name. */
    name: { type: STRING },
    /** The parent branch id (null for a root branch). A schema-only one, which the API reports as a root, records its declared parent, else the project's default branch it was made of. */
    parentId: { type: STRING, nullable: true },
    /** Whether this is the project's default branch. */
    default: { type: BOOLEAN },
    /** The branch state as last read, e.g. `ready`. */
    currentState: { type: STRING, nullable: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING, nullable: true },
    /** `parent-data` or `schema-only`, as the API reports it (an anonymized branch has `anonymizationState`). */
    initSource: { type: STRING },
    /** Whether the API refuses to delete the branch. */
    protected: { type: BOOLEAN },
    /** When the service deletes the branch (RFC 3339), or null when it does not expire. */
    expiresAt: { type: STRING, nullable: true },
    /** The compute endpoints: id, type, host, state, compute settings. */
    endpoints: { type: arrayOf(BRANCH_ENDPOINT) },
    /** The endpoint the connection strings go through (the read_write one, else the first); null without one. */
    endpointId: { type: STRING, nullable: true },
    /** That endpoint's host; null without one. */
    host: { type: STRING, nullable: true },
    /** That endpoint's autoscaling minimum, CU; null without one. */
    autoscalingLimitMinCu: { type: NUMBER, nullable: true },
    /** That endpoint's autoscaling maximum, CU; null without one. */
    autoscalingLimitMaxCu: { type: NUMBER, nullable: true },
    /** That endpoint's suspend timeout, seconds; null without one. */
    suspendTimeoutSeconds: { type: INTEGER, nullable: true },
    /** The role the connection strings log in as: the first unprotected role, else the database's owner. */
    roleName: { type: STRING, nullable: true },
    /** The database the connection strings open: the branch's first. */
    databaseName: { type: STRING, nullable: true },
    /** `postgresql://...` for `roleName` and `databaseName` (a secret); empty when the branch has no endpoint. */
    connectionUri: { type: STRING, secret: true },
    /** The same through the connection pooler (a secret); empty when the branch has no endpoint. */
    pooledConnectionUri: { type: STRING, secret: true },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
    /** Whether delete is refused. */
    deleteProtection: { type: BOOLEAN, optional: true },
    /**
     * The databases the branch was made with, copied from its parent, as its create answered (their
     * name and owner); not read again, so what is made on the branch later is not among them. Absent
     * for a branch recorded otherwise (imported, adopted, or found after an interrupted run).
     */
    inheritedDatabases: { type: arrayOf(INHERITED_DATABASE), optional: true },
    /** An anonymized branch's masking rules, as the service reports them. */
    maskingRules: { type: arrayOf(MASKING_RULE), optional: true },
    /** An anonymized branch's anonymization as last read: `anonymized`, `anonymizing`, `error`...; absent for other branches. */
    anonymizationState: { type: STRING, optional: true },
    /** The service's message about that state. */
    anonymizationMessage: { type: STRING, optional: true },
  },
});

/** Inputs of a {@link Branch}. */
export interface BranchArgs extends ArgsOf<typeof BRANCH> {}

/** The plain inputs as the provider sees them; endpoint types as the state records them. */
export interface BranchInputs extends InputsOf<typeof BRANCH> {}

/** Everything the state records of a branch. The connection strings are Pulumi secrets (encrypted). */
export interface BranchOutputs extends StateOf<typeof BRANCH> {}

/** A branch's connection, for its default role and database; empty strings when it has no compute. */
export type Connection = Pick<
  BranchOutputs,
  "roleName" | "databaseName" | "connectionUri" | "pooledConnectionUri"
>;

/** The dynamic provider of {@link Branch}: it loads the kind's methods when called (see `lazyProvider`). */
export const branchProvider: pulumi.dynamic.ResourceProvider<BranchInputs, BranchOutputs> = lazyProvider(
  BRANCH.type,
);

// The class's fields: one Output per declared output.
export interface Branch extends OutputFields<typeof BRANCH> {}

/**
 * A database branch. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), survives `423 Locked`, and queues behind other work on the same
 * project. A child branch (`parentId: parent.branchId`) is created after and deleted before its parent.
 * Its connection strings are Pulumi secrets, encrypted in the state.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Branch extends DynamicResource {
  constructor(name: string, args: BranchArgs, opts?: pulumi.CustomResourceOptions) {
    super(BRANCH, name, args, opts);
    // The id is known during a preview of an in-place update (a rename), where outputs are not: a
    // child's parentId then stays known and its preview shows no replacement the update will not do.
    // A branch read with `get` keeps the id it was asked by (the import id): its branchId is the read's.
    if (opts?.id === undefined) (this as { branchId: pulumi.Output<string> }).branchId = this.id;
  }
}
