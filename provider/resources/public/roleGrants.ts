/**
 * The public part of {@link RoleGrants}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, the SQL it runs) is `../roleGrants.ts`, loaded only in the
 * provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, enumOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** What a role may do with the tables and sequences of the granted schemas. */
export const ROLE_ACCESS = enumOf("RoleAccess", ["read-write", "read-only"]);

/** The privileges a role holds on a database's schemas, declared. */
export const ROLE_GRANTS = declareResource({
  type: "RoleGrants",
  noun: "role grants",
  family: "sql",
  importId: ["projectId", "branchId", "databaseName", "roleName"],
  inputs: {
    /** The project of the branch. Changing it replaces the grants. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the database is on. Changing it replaces the grants. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The database whose schemas the privileges are on. Changing it replaces the grants. */
    databaseName: { type: STRING, required: true, change: "replace" },
    /**
     * The role that owns the database's tables and applies the grants over SQL (its password is read
     * from the API at each step, never kept); the tables it creates later get the same privileges.
     * Changing it replaces the grants.
     */
    ownerName: { type: STRING, required: true, change: "replace" },
    /** The role that receives the privileges. Changing it replaces the grants. */
    roleName: { type: STRING, required: true, change: "replace" },
    /**
     * When true, this resource makes the role itself, over SQL: a login role outside the API, holding
     * nothing but these privileges, with a generated password (`password`, `connectionUri`); deleting
     * the grants drops it. Left false, the role must exist (a `Role` the API made is a member of the
     * service's superuser group, which holds far more than these grants). Changing it replaces the grants.
     */
    createRole: { type: BOOLEAN, change: "replace" },
    /**
     * `read-write` (default): SELECT, INSERT, UPDATE and DELETE on the tables and USAGE and SELECT on
     * the sequences; `read-only`: SELECT on both. Never CREATE, ALTER or DROP. Changing it applies in place.
     */
    access: { type: ROLE_ACCESS, change: "update" },
    /** The schemas whose tables and sequences the privileges cover; default `["public"]`. Changes apply in place. */
    schemas: { type: arrayOf(STRING), change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The database name. */
    databaseName: { type: STRING },
    /** The role that applies the grants. */
    ownerName: { type: STRING },
    /** The role that holds the privileges. */
    roleName: { type: STRING },
    /** Whether this resource made the role. */
    createRole: { type: BOOLEAN },
    /** The access granted. */
    access: { type: ROLE_ACCESS },
    /** The schemas the privileges cover. */
    schemas: { type: arrayOf(STRING) },
    /**
     * What the catalogs lacked at the last read, e.g. `INSERT on public.orders` (a grant revoked outside
     * the stack, a table another role made, a reset that undid them); the next `up` grants them again.
     */
    missingGrants: { type: arrayOf(STRING) },
    /** The role's password when this resource made the role, else empty: a Pulumi secret. */
    password: { type: STRING, secret: true },
    /** A connection string of the role to the database through the branch's pooler, when this resource made the role, else empty: a Pulumi secret. */
    connectionUri: { type: STRING, secret: true },
  },
});

/** Inputs of a {@link RoleGrants}. */
export interface RoleGrantsArgs extends ArgsOf<typeof ROLE_GRANTS> {}

/** The plain inputs as the provider sees them. */
export interface RoleGrantsInputs extends InputsOf<typeof ROLE_GRANTS> {}

/** Everything the state records of a role's grants. `password` and `connectionUri` are Pulumi secrets. */
export interface RoleGrantsOutputs extends StateOf<typeof ROLE_GRANTS> {}

/** The dynamic provider of {@link RoleGrants}: it loads the kind's methods when called (see `lazyProvider`). */
export const roleGrantsProvider: pulumi.dynamic.ResourceProvider<RoleGrantsInputs, RoleGrantsOutputs> =
  lazyProvider(ROLE_GRANTS.type);

// The class's fields: one Output per declared output.
export interface RoleGrants extends OutputFields<typeof ROLE_GRANTS> {}

/**
 * The privileges a role holds on a database's schemas (tables, sequences, and those made later),
 * applied over SQL with the owner's credentials; a grant revoked outside shows as drift.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class RoleGrants extends DynamicResource {
  constructor(name: string, args: RoleGrantsArgs, opts?: pulumi.CustomResourceOptions) {
    super(ROLE_GRANTS, name, args, opts);
  }
}
