/**
 * The public part of {@link Endpoint}: what a program declares and reads. The definition (inputs
 * schema, change table, API calls) is `../endpoint.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";
import type { ComputeSettings, LifecycleInputs, Timeouts } from "./common";
/** The two compute endpoint types. */
export type ComputeEndpointType = "read_only" | "read_write";

/** The plain inputs as the provider sees them. */
export interface EndpointInputs extends ComputeSettings, LifecycleInputs {
  projectId: string;
  branchId: string;
  /** As given; the state records whatever type the API reports, so a plain string. */
  type?: string | undefined;
  poolerEnabled?: boolean | undefined;
}

/** Everything the state records of a compute endpoint. */
export interface EndpointOutputs extends EndpointInputs {
  endpointId: string;
  /** `read_write` or `read_only`; a type the API adds later is recorded as it says. */
  type: string;
  autoscalingLimitMinCu: number;
  autoscalingLimitMaxCu: number;
  suspendTimeoutSeconds: number;
  poolerEnabled: boolean;
  host: string;
  /** The host of the connection pooler: `-pooler` at the end of the host's first label. */
  pooledHost: string;
  /** `init`, `active` or `idle` as last read. */
  currentState: string | null;
  regionId: string | null;
  createdAt: string | null;
  operationIds: string[];
  pendingOperationIds: string[];
}

/** Inputs of an {@link Endpoint}. */
export interface EndpointArgs {
  /** The project of the branch. Changing it replaces the compute. */
  projectId: pulumi.Input<string>;
  /** The branch the compute serves. Changing it replaces the compute. */
  branchId: pulumi.Input<string>;
  /** `read_write` (default; one per branch) or `read_only`. Changing it replaces the compute. */
  type?: pulumi.Input<ComputeEndpointType>;
  /** Autoscaling minimum in CU: 0.25, 0.5 or a whole number up to 56; omit for the project's default. Changed in place. */
  autoscalingLimitMinCu?: pulumi.Input<number>;
  /** Autoscaling maximum in CU, at least the minimum; an autoscaling range is at most 8 CU wide and ends at 16 CU. Changed in place. */
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  /** Seconds idle before the compute suspends: -1 never, 0 the service's default, else 60-604800. Changed in place. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /** Whether the connection pooler is on. Changed in place. */
  poolerEnabled?: pulumi.Input<boolean>;
  /** An existing compute endpoint id (`ep-...`) to take under management instead of creating one. */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the compute fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds. */
  timeouts?: pulumi.Input<Timeouts>;
}

const ENDPOINT_METHODS = moduleRef(require.resolve("../endpointMethods"));

/** The dynamic provider of {@link Endpoint}: it loads `endpointMethods` when called (see `lazyProvider`). */
export const endpointProvider: pulumi.dynamic.ResourceProvider<EndpointInputs, EndpointOutputs> =
  lazyProvider(ENDPOINT_METHODS);

const ENDPOINT: ResourceKind = {
  type: "Endpoint",
  methods: ENDPOINT_METHODS,
  outputs: [
    "endpointId",
    "projectId",
    "branchId",
    "type",
    "autoscalingLimitMinCu",
    "autoscalingLimitMaxCu",
    "suspendTimeoutSeconds",
    "poolerEnabled",
    "host",
    "pooledHost",
    "currentState",
    "regionId",
    "createdAt",
    "operationIds",
    "pendingOperationIds",
  ] satisfies (keyof EndpointOutputs)[],
};

/** A compute endpoint of a branch; sizes, suspend timeout and pooler change in place. */
export class Endpoint extends DynamicResource {
  /** The compute endpoint id, `ep-...`. */
  declare readonly endpointId: pulumi.Output<string>;
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch id. */
  declare readonly branchId: pulumi.Output<string>;
  /** `read_write` or `read_only`. */
  declare readonly type: pulumi.Output<string>;
  /** Autoscaling minimum, CU. */
  declare readonly autoscalingLimitMinCu: pulumi.Output<number>;
  /** Autoscaling maximum, CU. */
  declare readonly autoscalingLimitMaxCu: pulumi.Output<number>;
  /** Suspend timeout, seconds (-1 never, 0 the service's default). */
  declare readonly suspendTimeoutSeconds: pulumi.Output<number>;
  /** Whether the connection pooler is on. */
  declare readonly poolerEnabled: pulumi.Output<boolean>;
  /** The host to connect to. */
  declare readonly host: pulumi.Output<string>;
  /** The connection pooler's host (`-pooler` in the first label). */
  declare readonly pooledHost: pulumi.Output<string>;
  /** The compute's state as last read: `init`, `active`, `idle`. */
  declare readonly currentState: pulumi.Output<string | null>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** Ids of the operations the create started. */
  declare readonly operationIds: pulumi.Output<string[]>;

  constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(ENDPOINT, name, args, opts);
  }
}
