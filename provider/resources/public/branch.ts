/**
 * The public part of {@link Branch}: what a program declares and reads. The definition (inputs
 * schema, change table, API calls) is `../branch.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";
import type { ComputeSettings, LifecycleInputs, Timeouts } from "./common";

/** The two compute endpoint types the API accepts on a branch. */
export type EndpointType = "read_write" | "read_only";

/** How a branch is filled: with its parent's data (the default) or only its parent's schema. */
export type InitSource = "parent-data" | "schema-only";

/** The plain inputs as the provider sees them. */
export interface BranchInputs extends ComputeSettings, LifecycleInputs {
  projectId: string;
  name?: string | undefined;
  parentId?: string | undefined;
  /** Endpoint types as given; the state records whatever type the API reports, so plain strings. */
  endpoints?: { type: string }[] | undefined;
  initSource?: InitSource | undefined;
  protected?: boolean | undefined;
  expiresAt?: string | undefined;
  ttl?: string | number | undefined;
  parentTimestamp?: string | undefined;
  parentLsn?: string | undefined;
  resetTrigger?: string | undefined;
}

/** A branch's connection, for its default role and database; empty strings when it has no compute. */
export interface Connection {
  roleName: string | null;
  databaseName: string | null;
  /** `postgresql://role:password@host/database?sslmode=require`: a Pulumi secret. */
  connectionUri: string;
  /** The same through the pooler host: a Pulumi secret. */
  pooledConnectionUri: string;
}

/** A compute endpoint of the branch, as last read (after create, update or refresh). */
export interface BranchEndpoint {
  id: string;
  /** `read_write` or `read_only`; a type the API adds later is recorded as it says. */
  type: EndpointType | (string & {});
  host: string | null;
  currentState: string | null;
  autoscalingLimitMinCu: number | null;
  autoscalingLimitMaxCu: number | null;
  suspendTimeoutSeconds: number | null;
}

/** Everything the state records of a branch. The connection strings are Pulumi secrets (encrypted). */
export interface BranchOutputs
  extends Omit<
      BranchInputs,
      "endpoints" | "name" | "parentId" | "initSource" | "protected" | "expiresAt" | keyof ComputeSettings
    >,
    Connection {
  branchId: string;
  name: string;
  parentId: string | null;
  default: boolean;
  currentState: string | null;
  createdAt: string | null;
  /** `parent-data` or `schema-only`, as the API reports it. */
  initSource: string;
  protected: boolean;
  /** When the service deletes the branch (RFC 3339), or null. */
  expiresAt: string | null;
  endpoints: BranchEndpoint[];
  /** The endpoint the connection strings go through: the read_write one, else the first. */
  endpointId: string | null;
  host: string | null;
  autoscalingLimitMinCu: number | null;
  autoscalingLimitMaxCu: number | null;
  suspendTimeoutSeconds: number | null;
  /** Operations the create started. */
  operationIds: string[];
  /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
  pendingOperationIds: string[];
}

/** Outputs kept as Pulumi secrets: the connection strings. */
export const BRANCH_SECRETS = [
  "connectionUri",
  "pooledConnectionUri",
] as const satisfies readonly (keyof BranchOutputs)[];

/** Inputs of a {@link Branch}. */
export interface BranchArgs {
  /** The project the branch belongs to. Changing it replaces the branch. */
  projectId: pulumi.Input<string>;
  /** Branch name, unique in the project (1-256 characters). Omit for a generated name; changing it renames in place. */
  name?: pulumi.Input<string>;
  /** Parent branch id; omit for the project's default branch. Changing it replaces the branch. */
  parentId?: pulumi.Input<string>;
  /** Compute endpoints of the branch: at most one `read_write`, any number of `read_only`. Changing them adds or removes computes on the same branch (its data stays). */
  endpoints?: pulumi.Input<pulumi.Input<{ type: pulumi.Input<EndpointType> }>[]>;
  /** `schema-only`: the parent's schema (roles, databases, tables) without its data; default `parent-data`. Changing it replaces the branch. */
  initSource?: pulumi.Input<InitSource>;
  /** When true the API refuses to delete the branch; changes in place. */
  protected?: pulumi.Input<boolean>;
  /** When the service deletes the branch, RFC 3339 (e.g. `2025-06-09T18:02:16Z`), at most 30 days ahead; changes in place. Not with `ttl`. */
  expiresAt?: pulumi.Input<string>;
  /**
   * Expiry counted from when the branch is created: `"7d"`, `"12h"`, `"1d12h"`, `"30m"` or seconds
   * (at most 30 days). It becomes a timestamp once and stays put on later runs; changing the ttl
   * counts again from that run, in place. Not with `expiresAt`.
   */
  ttl?: pulumi.Input<string | number>;
  /** Branch from the parent as it was at this time (RFC 3339). Not with `parentLsn`. Changing it replaces the branch. */
  parentTimestamp?: pulumi.Input<string>;
  /** Branch from the parent at this LSN (e.g. `0/1F0A3B8`). Not with `parentTimestamp`. Changing it replaces the branch. */
  parentLsn?: pulumi.Input<string>;
  /** Smallest compute size of the branch's endpoints, in compute units (>= 0.25); changes in place. Needs `endpoints`. */
  autoscalingLimitMinCu?: pulumi.Input<number>;
  /** Largest compute size of the branch's endpoints, in compute units (>= the minimum); changes in place. Needs `endpoints`. */
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  /** Idle seconds before the computes suspend: -1 never, 0 the default, or 60-604800; changes in place. Needs `endpoints`. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /** Any string; changing it resets the branch's data from its parent's current data, in place. Setting it at create does nothing. */
  resetTrigger?: pulumi.Input<string>;
  /** An existing branch id to take under management instead of creating one (dynamic resources cannot be `pulumi import`ed). */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the branch (destroy, replace, removal from the program) fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
  timeouts?: pulumi.Input<BranchTimeouts>;
}

/** Waits bounded per resource, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export type BranchTimeouts = Timeouts;

const BRANCH_METHODS = moduleRef(require.resolve("../branchMethods"));

/** The dynamic provider of {@link Branch}: it loads `branchMethods` when called (see `lazyProvider`). */
export const branchProvider: pulumi.dynamic.ResourceProvider<BranchInputs, BranchOutputs> =
  lazyProvider(BRANCH_METHODS);

const BRANCH: ResourceKind = {
  type: "Branch",
  methods: BRANCH_METHODS,
  outputs: [
    "branchId",
    "projectId",
    "name",
    "parentId",
    "default",
    "currentState",
    "createdAt",
    "initSource",
    "protected",
    "expiresAt",
    "endpoints",
    "endpointId",
    "host",
    "autoscalingLimitMinCu",
    "autoscalingLimitMaxCu",
    "suspendTimeoutSeconds",
    "roleName",
    "databaseName",
    "connectionUri",
    "pooledConnectionUri",
    "operationIds",
    "pendingOperationIds",
    "deleteProtection",
  ] satisfies (keyof BranchOutputs)[],
  secrets: BRANCH_SECRETS,
};

/**
 * A database branch. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), survives `423 Locked`, and queues behind other work on the same
 * project. A child branch (`parentId: parent.branchId`) is created after and deleted before its parent.
 * Its connection strings are Pulumi secrets, encrypted in the state.
 */
export class Branch extends DynamicResource {
  /** The branch id, `br-...`. */
  declare readonly branchId: pulumi.Output<string>;
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch name. */
  declare readonly name: pulumi.Output<string>;
  /** The parent branch id (null for a root branch; the declared parent for a schema-only one). */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether this is the project's default branch. */
  declare readonly default: pulumi.Output<boolean>;
  /** The branch state as last read, e.g. `ready`. */
  declare readonly currentState: pulumi.Output<string | null>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** `parent-data` or `schema-only`. */
  declare readonly initSource: pulumi.Output<string>;
  /** Whether the API refuses to delete the branch. */
  declare readonly protected: pulumi.Output<boolean>;
  /** When the service deletes the branch (RFC 3339), or null when it does not expire. */
  declare readonly expiresAt: pulumi.Output<string | null>;
  /** The compute endpoints: id, type, host, state, compute settings. */
  declare readonly endpoints: pulumi.Output<BranchEndpoint[]>;
  /** The endpoint the connection strings go through (the read_write one, else the first); null without one. */
  declare readonly endpointId: pulumi.Output<string | null>;
  /** That endpoint's host; null without one. */
  declare readonly host: pulumi.Output<string | null>;
  /** Compute settings of that endpoint. */
  declare readonly autoscalingLimitMinCu: pulumi.Output<number | null>;
  declare readonly autoscalingLimitMaxCu: pulumi.Output<number | null>;
  declare readonly suspendTimeoutSeconds: pulumi.Output<number | null>;
  /** The role the connection strings log in as: the first unprotected role, else the database's owner. */
  declare readonly roleName: pulumi.Output<string | null>;
  /** The database the connection strings open: the branch's first. */
  declare readonly databaseName: pulumi.Output<string | null>;
  /** `postgresql://...` for `roleName` and `databaseName` (a secret); empty when the branch has no endpoint. */
  declare readonly connectionUri: pulumi.Output<string>;
  /** The same through the connection pooler (a secret); empty when the branch has no endpoint. */
  declare readonly pooledConnectionUri: pulumi.Output<string>;
  /** Ids of the operations the create started. */
  declare readonly operationIds: pulumi.Output<string[]>;
  /** Operations still to wait for after an interrupted run. */
  declare readonly pendingOperationIds: pulumi.Output<string[]>;
  /** Whether delete is refused. */
  declare readonly deleteProtection: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: BranchArgs, opts?: pulumi.CustomResourceOptions) {
    super(BRANCH, name, args, opts);
    // The id is known during a preview of an in-place update (a rename), where outputs are not: a
    // child's parentId then stays known and its preview shows no replacement the update will not do.
    this.branchId = this.id;
  }
}
