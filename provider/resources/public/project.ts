/**
 * The public part of {@link Project}: what a program declares and reads. The definition (inputs
 * schema, change table, API calls) is `../project.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";
import type { ComputeSettings, LifecycleInputs, Timeouts } from "./common";
/** A project's default compute settings, as inputs and outputs. */
export interface DefaultEndpointSettings extends ComputeSettings {}

/** The plain inputs as the provider sees them. */
export interface ProjectInputs extends LifecycleInputs {
  name?: string | undefined;
  regionId?: string | undefined;
  pgVersion?: number | undefined;
  orgId?: string | undefined;
  historyRetentionSeconds?: number | undefined;
  defaultEndpointSettings?: DefaultEndpointSettings | undefined;
}

/** Everything the state records of a project. `connectionUri` is a Pulumi secret. */
export interface ProjectOutputs extends Omit<ProjectInputs, "name" | "regionId" | "pgVersion" | "orgId"> {
  projectId: string;
  name: string;
  regionId: string;
  pgVersion: number;
  orgId: string | null;
  defaultBranchId: string;
  defaultEndpointId: string | null;
  defaultRoleName: string | null;
  defaultDatabaseName: string | null;
  /** The default compute's host. */
  host: string | null;
  /** The default role's connection string to the default database, password included; empty until received. */
  connectionUri: string;
  createdAt: string;
  operationIds: string[];
  pendingOperationIds: string[];
}

/** Outputs kept as Pulumi secrets. */
export const PROJECT_SECRETS = ["connectionUri"] as const satisfies readonly (keyof ProjectOutputs)[];

/** Inputs of a {@link Project}. */
export interface ProjectArgs {
  /** Project name (1-256 characters); omit for a generated name. Changing it renames in place. */
  name?: pulumi.Input<string>;
  /** Region, e.g. `aws-us-east-2`; omit for the service's default. Changing it replaces the project (all data is lost). */
  regionId?: pulumi.Input<string>;
  /** Postgres major version, 14-18; omit for the service's default. Changing it replaces the project (all data is lost). */
  pgVersion?: pulumi.Input<number>;
  /** The organization that owns the project; omit for a project of the key's owner. Changing it replaces the project. */
  orgId?: pulumi.Input<string>;
  /** Seconds of history kept for restores and point-in-time branches (0-2592000). Changed in place. */
  historyRetentionSeconds?: pulumi.Input<number>;
  /** Compute settings for computes created without their own. Changed in place; settings left out keep their value. */
  defaultEndpointSettings?: pulumi.Input<{
    /** Autoscaling minimum in CU: 0.25, 0.5 or a whole number up to 56. */
    autoscalingLimitMinCu?: pulumi.Input<number>;
    /** Autoscaling maximum in CU, at least the minimum; an autoscaling range is at most 8 CU wide and ends at 16 CU. */
    autoscalingLimitMaxCu?: pulumi.Input<number>;
    /** Seconds idle before the compute suspends: -1 never, 0 the service's default, else 60-604800. */
    suspendTimeoutSeconds?: pulumi.Input<number>;
  }>;
  /** An existing project id to take under management instead of creating one (dynamic resources cannot be `pulumi import`ed). */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the project (destroy, replace, removal from the program) fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
  timeouts?: pulumi.Input<Timeouts>;
}

const PROJECT_METHODS = moduleRef(require.resolve("../projectMethods"));

/** The dynamic provider of {@link Project}: it loads `projectMethods` when called (see `lazyProvider`). */
export const projectProvider: pulumi.dynamic.ResourceProvider<ProjectInputs, ProjectOutputs> =
  lazyProvider(PROJECT_METHODS);

const PROJECT: ResourceKind = {
  type: "Project",
  methods: PROJECT_METHODS,
  outputs: [
    "projectId",
    "name",
    "regionId",
    "pgVersion",
    "orgId",
    "historyRetentionSeconds",
    "defaultEndpointSettings",
    "defaultBranchId",
    "defaultEndpointId",
    "defaultRoleName",
    "defaultDatabaseName",
    "host",
    "connectionUri",
    "createdAt",
    "operationIds",
    "pendingOperationIds",
  ] satisfies (keyof ProjectOutputs)[],
  secrets: PROJECT_SECRETS,
};

/**
 * A project with its default branch, compute, role and database; `connectionUri` connects to them
 * and is a Pulumi secret. Deleting the project deletes all of its data: set `deleteProtection`
 * on projects that hold data you keep.
 */
export class Project extends DynamicResource {
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The project name. */
  declare readonly name: pulumi.Output<string>;
  /** The region id. */
  declare readonly regionId: pulumi.Output<string>;
  /** The Postgres major version. */
  declare readonly pgVersion: pulumi.Output<number>;
  /** The owning organization, null for a personal project. */
  declare readonly orgId: pulumi.Output<string | null>;
  /** Seconds of history kept. */
  declare readonly historyRetentionSeconds: pulumi.Output<number | undefined>;
  /** Default compute settings (the ones declared, or all when none were). */
  declare readonly defaultEndpointSettings: pulumi.Output<DefaultEndpointSettings | undefined>;
  /** The default branch id. */
  declare readonly defaultBranchId: pulumi.Output<string>;
  /** The default branch's read_write compute id. */
  declare readonly defaultEndpointId: pulumi.Output<string | null>;
  /** The role that owns the default database. */
  declare readonly defaultRoleName: pulumi.Output<string | null>;
  /** The default database. */
  declare readonly defaultDatabaseName: pulumi.Output<string | null>;
  /** The default compute's host. */
  declare readonly host: pulumi.Output<string | null>;
  /** `postgresql://` connection string of the default role to the default database: a Pulumi secret. */
  declare readonly connectionUri: pulumi.Output<string>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string>;
  /** Ids of the operations the create started. */
  declare readonly operationIds: pulumi.Output<string[]>;

  constructor(name: string, args: ProjectArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(PROJECT, name, args, opts);
  }
}
