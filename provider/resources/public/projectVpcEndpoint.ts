/**
 * The public part of {@link ProjectVpcEndpoint}: its declaration, and the class and types derived
 * from it. The definition (inputs schema, API calls) is `../projectVpcEndpoint.ts`, loaded only in
 * the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A project restricted to a VPC endpoint of its organization, declared. */
export const PROJECT_VPC_ENDPOINT = declareResource({
  type: "ProjectVpcEndpoint",
  noun: "VPC endpoint restriction",
  family: "vpc",
  importId: ["projectId", "vpcEndpointId"],
  inputs: {
    /** The project to restrict (one of an organization). Changing it replaces the restriction. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** A VPC endpoint assigned to the project's organization in the project's region. Changing it replaces the restriction. */
    vpcEndpointId: { type: STRING, required: true, change: "replace" },
    /** A descriptive label; changed in place. Left out: empty at create, then kept as it is. */
    label: { type: STRING, change: "update", computed: true },
    /** The id of an endpoint the project is already restricted to, to take under management (it must equal `vpcEndpointId`). */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The VPC endpoint id. */
    vpcEndpointId: { type: STRING },
    /** The restriction's label. */
    label: { type: STRING },
  },
});

/** Inputs of a {@link ProjectVpcEndpoint}. */
export interface ProjectVpcEndpointArgs extends ArgsOf<typeof PROJECT_VPC_ENDPOINT> {}

/** The plain inputs as the provider sees them. */
export interface ProjectVpcEndpointInputs extends InputsOf<typeof PROJECT_VPC_ENDPOINT> {}

/** Everything the state records of a project's VPC endpoint restriction. */
export interface ProjectVpcEndpointOutputs extends StateOf<typeof PROJECT_VPC_ENDPOINT> {}

/** The dynamic provider of {@link ProjectVpcEndpoint}: it loads `../projectVpcEndpoint` when called. */
export const projectVpcEndpointProvider: pulumi.dynamic.ResourceProvider<
  ProjectVpcEndpointInputs,
  ProjectVpcEndpointOutputs
> = lazyProvider(PROJECT_VPC_ENDPOINT.type);

// The class's fields: one Output per declared output.
export interface ProjectVpcEndpoint extends OutputFields<typeof PROJECT_VPC_ENDPOINT> {}

/** A project restricted to one VPC endpoint of its organization: it then accepts VPC connections through that endpoint only. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class ProjectVpcEndpoint extends DynamicResource {
  constructor(name: string, args: ProjectVpcEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(PROJECT_VPC_ENDPOINT, name, args, opts);
  }
}
