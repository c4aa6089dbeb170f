/**
 * The public part of {@link VpcEndpoint}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, API calls) is `../vpcEndpoint.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A VPC endpoint assigned to an organization in a region, declared. */
export const VPC_ENDPOINT = declareResource({
  type: "VpcEndpoint",
  noun: "VPC endpoint",
  family: "vpc",
  importId: ["orgId", "regionId", "vpcEndpointId"],
  inputs: {
    /** The organization the endpoint is assigned to. Changing it replaces the assignment. */
    orgId: { type: STRING, required: true, change: "replace" },
    /** The region of the endpoint (`aws-us-east-2`); Azure regions have none. Changing it replaces the assignment. */
    regionId: { type: STRING, required: true, change: "replace" },
    /** The cloud provider's id of the VPC endpoint (`vpce-...`). Changing it replaces the assignment. */
    vpcEndpointId: { type: STRING, required: true, change: "replace" },
    /** A descriptive label; changed in place. Left out: empty at create, then kept as it is. */
    label: { type: STRING, change: "update", computed: true },
    /** The id of an endpoint already assigned to the organization in the region to take under management (it must equal `vpcEndpointId`). */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the assignment fails until it is set back to false (a removed endpoint can never be assigned to the organization again). */
    deleteProtection: { type: BOOLEAN, change: "update" },
  },
  outputs: {
    /** The organization id. */
    orgId: { type: STRING },
    /** The region id. */
    regionId: { type: STRING },
    /** The VPC endpoint id. */
    vpcEndpointId: { type: STRING },
    /** The label. */
    label: { type: STRING },
    /** `new` (assigned, its connection not accepted yet) or `accepted`, as the API last reported it; the list may grow. */
    state: { type: STRING },
  },
});

/** Inputs of a {@link VpcEndpoint}. */
export interface VpcEndpointArgs extends ArgsOf<typeof VPC_ENDPOINT> {}

/** The plain inputs as the provider sees them. */
export interface VpcEndpointInputs extends InputsOf<typeof VPC_ENDPOINT> {}

/** Everything the state records of a VPC endpoint assignment. */
export interface VpcEndpointOutputs extends StateOf<typeof VPC_ENDPOINT> {}

/** The dynamic provider of {@link VpcEndpoint}: it loads `../vpcEndpoint` when called (see `lazyProvider`). */
export const vpcEndpointProvider: pulumi.dynamic.ResourceProvider<VpcEndpointInputs, VpcEndpointOutputs> =
  lazyProvider(VPC_ENDPOINT.type);

// The class's fields: one Output per declared output.
export interface VpcEndpoint extends OutputFields<typeof VPC_ENDPOINT> {}

/** A VPC endpoint assigned to an organization in a region: its projects accept connections through it. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class VpcEndpoint extends DynamicResource {
  constructor(name: string, args: VpcEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(VPC_ENDPOINT, name, args, opts);
  }
}
