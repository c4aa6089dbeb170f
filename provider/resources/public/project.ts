/**
 * The public part of {@link Project}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../project.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import type { ComputeSettings } from "./common";
import { COMPUTE_SETTINGS_TYPE, TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, enumOf, INTEGER, objectType, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf } from "./shapes";

/** A project's default compute settings, as inputs and outputs. */
export interface DefaultEndpointSettings extends ComputeSettings {}

// Written as `typeof`, so the declaration file names the shared type and keeps its properties' docs.
const DEFAULT_ENDPOINT_SETTINGS: { readonly type: typeof COMPUTE_SETTINGS_TYPE } = {
  type: COMPUTE_SETTINGS_TYPE,
};

/** When the service may do maintenance on a project, interrupting its computes' connections. */
export const MAINTENANCE_WINDOW_TYPE = objectType("MaintenanceWindow", {
  /** The days of the window: 1 (Monday) to 7 (Sunday), each at most once. */
  weekdays: { type: arrayOf(INTEGER) },
  /** Start of the window, `HH:MM` in UTC. */
  startTime: { type: STRING },
  /** End of the window, `HH:MM` in UTC. */
  endTime: { type: STRING },
});

/** When the service may do maintenance on a project. */
export interface MaintenanceWindow extends ObjectOf<typeof MAINTENANCE_WINDOW_TYPE.properties> {}

/** Per-project consumption quotas; a quota left out, or 0, is unlimited. */
export const PROJECT_QUOTA_TYPE = objectType("ProjectQuota", {
  /** Wall-clock seconds the project's computes may be active per billing period. */
  activeTimeSeconds: { type: INTEGER, optional: true },
  /** CPU seconds the project's computes may use per billing period. */
  computeTimeSeconds: { type: INTEGER, optional: true },
  /** Bytes that may be written to the project's branches per billing period. */
  writtenDataBytes: { type: INTEGER, optional: true },
  /** Bytes that may be transferred out of the project's branches per billing period. */
  dataTransferBytes: { type: INTEGER, optional: true },
  /** Bytes of data each branch may hold; past it, writes fail (computes keep running). */
  logicalSizeBytes: { type: INTEGER, optional: true },
});

/** Per-project consumption quotas. */
export interface ProjectQuota extends ObjectOf<typeof PROJECT_QUOTA_TYPE.properties> {}

// Written as `typeof`, so the declaration file names the types and keeps their properties' docs.
const MAINTENANCE_WINDOW: { readonly type: typeof MAINTENANCE_WINDOW_TYPE } = {
  type: MAINTENANCE_WINDOW_TYPE,
};
const PROJECT_QUOTA: { readonly type: typeof PROJECT_QUOTA_TYPE } = { type: PROJECT_QUOTA_TYPE };

/** How much a project's audit log records; the service may add levels. */
export const AUDIT_LOG_LEVEL = enumOf("AuditLogLevel", ["base", "extended", "full"], { open: true });

/** A project, declared. */
export const PROJECT = declareResource({
  type: "Project",
  noun: "project",
  family: "projects",
  importId: ["projectId"],
  inputs: {
    /** Project name (1-256 characters); omit for a generated name. Changing it renames in place. */
    name: { type: STRING, change: "update", computed: true },
    /** Region, e.g. `aws-us-east-2`; omit for the service's default. Changing it replaces the project (all data is lost). */
    regionId: { type: STRING, change: "replace", computed: true },
    /** Postgres major version, 14-18; omit for the service's default. Changing it replaces the project (all data is lost). */
    pgVersion: { type: INTEGER, change: "replace", computed: true },
    /** The organization that owns the project; omit for a project of the key's owner. Changing it moves the project to that organization in place (a transfer: its id, branches, computes and data stay), with a key that may give it away and receive it: a user's personal key, an admin of the old organization (or the project's owner) and a member of the new one. Left out, the project stays where it is. */
    orgId: { type: STRING, change: "update", computed: true },
    /** Seconds of history kept for restores and point-in-time branches (0-2592000). Changed in place. */
    historyRetentionSeconds: { type: INTEGER, change: "update", computed: true },
    /** Compute settings for computes created without their own. Changed in place; settings left out keep their value. */
    defaultEndpointSettings: { ...DEFAULT_ENDPOINT_SETTINGS, change: "update", computed: true },
    /** The addresses allowed to connect: IP addresses, CIDR blocks (`203.0.113.0/24`) or ranges (`203.0.113.10-203.0.113.20`); empty allows every address. Changed in place; left out, the project keeps its list. */
    allowedIps: { type: arrayOf(STRING), change: "update", computed: true },
    /** Whether the allow list applies to protected branches only. Changed in place. */
    allowedIpsProtectedBranchesOnly: { type: BOOLEAN, change: "update", computed: true },
    /** Refuse every connection from the public internet (only VPC connections remain); supersedes `allowedIps`. Changed in place. */
    blockPublicConnections: { type: BOOLEAN, change: "update", computed: true },
    /** Refuse every connection through a VPC endpoint. Changed in place. */
    blockVpcConnections: { type: BOOLEAN, change: "update", computed: true },
    /** Turn on logical replication for every compute (they restart); it cannot be turned off again, so the preview says so first. Changed in place. */
    enableLogicalReplication: { type: BOOLEAN, change: "update", computed: true },
    /** Turn on HIPAA compliance mode, audit logging included (the organization must allow HIPAA projects); it cannot be turned off again, so the preview says so first. Changed in place. */
    hipaa: { type: BOOLEAN, change: "update", computed: true },
    /** How much the project's audit log records: `base`, `extended` or `full`. Changed in place; left out, the project keeps its level. */
    auditLogLevel: { type: AUDIT_LOG_LEVEL, change: "update", computed: true },
    /** When the service may do maintenance (computes restart, connections drop). Changed in place; left out, the project keeps its window. */
    maintenanceWindow: { ...MAINTENANCE_WINDOW, change: "update", computed: true },
    /** Consumption quotas; past one, the project's computes are suspended. Sent whole: a quota left out of it is unlimited. Changed in place; left out, the project keeps its quotas. */
    quota: { ...PROJECT_QUOTA, change: "update", computed: true },
    /** The default branch's name at create (the service's default: `main`). Used at create only: changing it later changes nothing. */
    defaultBranchName: { type: STRING, change: "ignore", computed: true },
    /** The name of the role that owns the default database, at create (the service's default: `{database}_owner`). Used at create only. */
    defaultRoleName: { type: STRING, change: "ignore", computed: true },
    /** The default database's name at create (the service's default: `neondb`). Used at create only. */
    defaultDatabaseName: { type: STRING, change: "ignore", computed: true },
    /** Protect the default branch (the protections of `allowedIpsProtectedBranchesOnly` and the service's protected-branch rules apply to it). Changed in place; left out, the branch stays as it is. */
    protectDefaultBranch: { type: BOOLEAN, change: "update", computed: true },
    /** An existing project id to take under management instead of creating one; a project deleted less than 7 days ago is recovered first, with its branches and computes (through the provider plugin, `pulumi import` also works for a live one). */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the project (destroy, replace, removal from the program) fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The project name. */
    name: { type: STRING },
    /** The region id. */
    regionId: { type: STRING },
    /** The Postgres major version. */
    pgVersion: { type: INTEGER },
    /** The owning organization, null for a personal project. */
    orgId: { type: STRING, nullable: true },
    /** Seconds of history kept. */
    historyRetentionSeconds: { type: INTEGER, optional: true },
    /** Default compute settings (the ones declared, or all when none were). */
    defaultEndpointSettings: { ...DEFAULT_ENDPOINT_SETTINGS, optional: true },
    /** The addresses allowed to connect; empty allows every address. */
    allowedIps: { type: arrayOf(STRING), optional: true },
    /** Whether the allow list applies to protected branches only. */
    allowedIpsProtectedBranchesOnly: { type: BOOLEAN, optional: true },
    /** Whether connections from the public internet are refused. */
    blockPublicConnections: { type: BOOLEAN, optional: true },
    /** Whether connections through VPC endpoints are refused. */
    blockVpcConnections: { type: BOOLEAN, optional: true },
    /** Whether logical replication is on (it stays on). */
    enableLogicalReplication: { type: BOOLEAN, optional: true },
    /** Whether HIPAA compliance mode is on (it stays on). */
    hipaa: { type: BOOLEAN, optional: true },
    /** The audit log's level, when the service reports one. */
    auditLogLevel: { type: AUDIT_LOG_LEVEL, optional: true },
    /** When HIPAA compliance mode was turned on, ISO 8601 UTC; null while it is off. */
    hipaaEnabledAt: { type: STRING, nullable: true },
    /** The maintenance window, when the project has one. */
    maintenanceWindow: { ...MAINTENANCE_WINDOW, optional: true },
    /** The consumption quotas; empty when every one is unlimited. */
    quota: { ...PROJECT_QUOTA, optional: true },
    /** The default branch's name. */
    defaultBranchName: { type: STRING, optional: true },
    /** Whether the default branch is protected. */
    defaultBranchProtected: { type: BOOLEAN, optional: true },
    /** The default branch id. */
    defaultBranchId: { type: STRING },
    /** The default branch's read_write compute id. */
    defaultEndpointId: { type: STRING, nullable: true },
    /** The role that owns the default database. */
    defaultRoleName: { type: STRING, nullable: true },
    /** The default database. */
    defaultDatabaseName: { type: STRING, nullable: true },
    /** The default compute's host. */
    host: { type: STRING, nullable: true },
    /** `postgresql://` connection string of the default role to the default database, password included: a Pulumi secret; empty until received. */
    connectionUri: { type: STRING, secret: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
  },
});

/** Inputs of a {@link Project}. */
export interface ProjectArgs extends ArgsOf<typeof PROJECT> {}

/** The plain inputs as the provider sees them. */
export interface ProjectInputs extends InputsOf<typeof PROJECT> {}

/** Everything the state records of a project. `connectionUri` is a Pulumi secret. */
export interface ProjectOutputs extends StateOf<typeof PROJECT> {}

/** The dynamic provider of {@link Project}: it loads the kind's methods when called (see `lazyProvider`). */
export const projectProvider: pulumi.dynamic.ResourceProvider<ProjectInputs, ProjectOutputs> = lazyProvider(
  PROJECT.type,
);

// The class's fields: one Output per declared output.
export interface Project extends OutputFields<typeof PROJECT> {}

/**
 * A project with its default branch, compute, role and database; `connectionUri` connects to them
 * and is a Pulumi secret. Deleting the project deletes all of its data: set `deleteProtection`
 * on projects that hold data you keep.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Project extends DynamicResource {
  constructor(name: string, args: ProjectArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(PROJECT, name, args, opts);
  }
}
