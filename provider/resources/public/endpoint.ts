/**
 * The public part of {@link Endpoint}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../endpoint.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { ENDPOINT_TYPE, TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, enumOf, INTEGER, mapOf, NUMBER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** The two compute endpoint types. */
export type ComputeEndpointType = (typeof ENDPOINT_TYPE.enum)[number];

/** The connection pooler's modes a program may ask for; the service runs `transaction` only (`session` is refused at preview). */
export const POOLER_MODE = enumOf("PoolerMode", ["transaction", "session"], { open: true });

/** A compute endpoint, declared. */
export const ENDPOINT = declareResource({
  type: "Endpoint",
  noun: "compute endpoint",
  family: "endpoints",
  importId: ["projectId", "endpointId"],
  inputs: {
    /** The project of the branch. Changing it replaces the compute. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the compute serves. Changing it replaces the compute. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** `read_write` (default; one per branch) or `read_only`. Changing it replaces the compute. */
    type: { type: ENDPOINT_TYPE, change: "replace", computed: true },
    /** Autoscaling minimum in CU: 0.25, 0.5 or a whole number up to 56; omit for the project's default. Changed in place. */
    autoscalingLimitMinCu: { type: NUMBER, change: "update", computed: true },
    /** Autoscaling maximum in CU, at least the minimum; an autoscaling range is at most 8 CU wide and ends at 16 CU. Changed in place. */
    autoscalingLimitMaxCu: { type: NUMBER, change: "update", computed: true },
    /** Seconds idle before the compute suspends: -1 never, 0 the service's default, else 60-604800. Changed in place. */
    suspendTimeoutSeconds: { type: INTEGER, change: "update", computed: true },
    /** Whether the connection pooler is on. Changed in place. */
    poolerEnabled: { type: BOOLEAN, change: "update", computed: true },
    /** When true, the compute refuses every connection (it keeps its settings); changed in place. */
    disabled: { type: BOOLEAN, change: "update", computed: true },
    /** The connection pooler's mode: `transaction`, the only one the service runs (`session` is refused at preview). Changed in place. */
    poolerMode: { type: POOLER_MODE, change: "update", computed: true },
    /** The compute's name (1-64 characters), shown in the console. Changed in place. */
    name: { type: STRING, change: "update", computed: true },
    /** Postgres settings the compute starts with, by name (`{ "work_mem": "64MB" }`); the map given replaces the compute's whole map. Changed in place (the compute restarts). */
    pgSettings: { type: mapOf(STRING), change: "update", computed: true },
    /** An existing compute endpoint id (`ep-...`) to take under management instead of creating one. */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the compute fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The compute endpoint id, `ep-...`. */
    endpointId: { type: STRING },
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** `read_write` or `read_only`; a type the API adds later is recorded as it says. */
    type: { type: ENDPOINT_TYPE },
    /** Autoscaling minimum, CU. */
    autoscalingLimitMinCu: { type: NUMBER },
    /** Autoscaling maximum, CU. */
    autoscalingLimitMaxCu: { type: NUMBER },
    /** Suspend timeout, seconds (-1 never, 0 the service's default). */
    suspendTimeoutSeconds: { type: INTEGER },
    /** Whether the connection pooler is on. */
    poolerEnabled: { type: BOOLEAN },
    /** Whether the compute refuses connections. */
    disabled: { type: BOOLEAN, optional: true },
    /** The connection pooler's mode as the API reports it. */
    poolerMode: { type: POOLER_MODE, optional: true },
    /** The compute's name; a compute created unnamed carries the create's mark, `pulumi-...`. */
    name: { type: STRING, optional: true },
    /** The Postgres settings the compute starts with, by name. */
    pgSettings: { type: mapOf(STRING), optional: true },
    /** The host to connect to. */
    host: { type: STRING },
    /** The connection pooler's host: `-pooler` at the end of the host's first label. */
    pooledHost: { type: STRING },
    /** The compute's state as last read: `init`, `active`, `idle`. */
    currentState: { type: STRING, nullable: true },
    /** The compute's region, e.g. `aws-us-east-2`. */
    regionId: { type: STRING, nullable: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING, nullable: true },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
  },
});

/** Inputs of an {@link Endpoint}. */
export interface EndpointArgs extends ArgsOf<typeof ENDPOINT> {}

/** The plain inputs as the provider sees them; the type as the state records it. */
export interface EndpointInputs extends InputsOf<typeof ENDPOINT> {}

/** Everything the state records of a compute endpoint. */
export interface EndpointOutputs extends StateOf<typeof ENDPOINT> {}

/** The dynamic provider of {@link Endpoint}: it loads the kind's methods when called (see `lazyProvider`). */
export const endpointProvider: pulumi.dynamic.ResourceProvider<EndpointInputs, EndpointOutputs> =
  lazyProvider(ENDPOINT.type);

// The class's fields: one Output per declared output.
export interface Endpoint extends OutputFields<typeof ENDPOINT> {}

/** A compute endpoint of a branch; sizes, suspend timeout, pooler, name, Postgres settings and `disabled` change in place. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Endpoint extends DynamicResource {
  constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(ENDPOINT, name, args, opts);
  }
}
