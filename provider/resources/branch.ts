import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "./lazyProvider";
import { moduleRef } from "./moduleRef";

/** The two compute endpoint types the API accepts on a branch. */
export type EndpointType = "read_write" | "read_only";

/** Waits bounded per resource, in seconds (Pulumi's `customTimeouts` do not reach dynamic providers). */
export interface BranchTimeouts {
  /** Bound on waiting for the create (or adoption) operations. */
  create?: number;
  /** Bound on waiting for a rename or for operations left pending by an earlier run. */
  update?: number;
  /** Bound on waiting for the delete operations. */
  delete?: number;
}

/** Inputs of a {@link Branch}. */
export interface BranchArgs {
  /** The project the branch belongs to. Changing it replaces the branch. */
  projectId: pulumi.Input<string>;
  /** Branch name, unique in the project (1-256 characters). Omit for a generated name; changing it renames in place. */
  name?: pulumi.Input<string>;
  /** Parent branch id; omit for the project's default branch. Changing it replaces the branch. */
  parentId?: pulumi.Input<string>;
  /** Compute endpoints to create with the branch: at most one `read_write`, any number of `read_only`. Changing them replaces the branch. */
  endpoints?: pulumi.Input<pulumi.Input<{ type: pulumi.Input<EndpointType> }>[]>;
  /** An existing branch id to take under management instead of creating one (dynamic resources cannot be `pulumi import`ed). */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the branch (destroy, replace, removal from the program) fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
  timeouts?: pulumi.Input<BranchTimeouts>;
}

/** The plain inputs as the provider sees them. */
export interface BranchInputs {
  projectId: string;
  name?: string;
  parentId?: string;
  endpoints?: { type: EndpointType }[];
  adoptExisting?: string;
  deleteProtection?: boolean;
  timeouts?: BranchTimeouts;
}

/** A compute endpoint of the branch, as last read (after create, update or refresh). */
export interface BranchEndpoint {
  id: string;
  type: EndpointType;
  host: string | null;
  currentState: string | null;
}

/** Everything the state records of a branch. Never connection URIs, passwords, roles or databases. */
export interface BranchOutputs extends Omit<BranchInputs, "endpoints" | "name" | "parentId"> {
  branchId: string;
  name: string;
  parentId: string | null;
  default: boolean;
  currentState: string | null;
  createdAt: string | null;
  endpoints: BranchEndpoint[];
  /** Operations the create started. */
  operationIds: string[];
  /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
  pendingOperationIds: string[];
}

/**
 * The dynamic provider of {@link Branch}: it loads `branchMethods` when called (see `lazyProvider`).
 */
export const branchProvider: pulumi.dynamic.ResourceProvider<BranchInputs, BranchOutputs> = lazyProvider(
  moduleRef(require.resolve("./branchMethods")),
);

/**
 * A database branch. Create waits for every operation it starts (`create_branch`, one
 * `start_compute` per endpoint), survives `423 Locked`, and queues behind other work on the same
 * project. A child branch (`parentId: parent.branchId`) is created after and deleted before its parent.
 */
export class Branch extends pulumi.dynamic.Resource {
  /** The branch id, `br-...`. */
  declare readonly branchId: pulumi.Output<string>;
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch name. */
  declare readonly name: pulumi.Output<string>;
  /** The parent branch id (null for a root branch). */
  declare readonly parentId: pulumi.Output<string | null>;
  /** Whether this is the project's default branch. */
  declare readonly default: pulumi.Output<boolean>;
  /** The branch state as last read, e.g. `ready`. */
  declare readonly currentState: pulumi.Output<string | null>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The compute endpoints: id, type, host, state. */
  declare readonly endpoints: pulumi.Output<BranchEndpoint[]>;
  /** Ids of the operations the create started. */
  declare readonly operationIds: pulumi.Output<string[]>;
  /** Operations still to wait for after an interrupted run. */
  declare readonly pendingOperationIds: pulumi.Output<string[]>;
  /** Whether delete is refused. */
  declare readonly deleteProtection: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: BranchArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      branchId: undefined,
      default: undefined,
      currentState: undefined,
      createdAt: undefined,
      operationIds: undefined,
      pendingOperationIds: undefined,
      // Optional inputs that are also declared outputs: seeded so each is an Output on the object.
      name: args.name,
      parentId: args.parentId,
      endpoints: args.endpoints,
      deleteProtection: args.deleteProtection,
    };
    super(branchProvider, name, props, opts, "clouddb", "Branch");
  }
}
