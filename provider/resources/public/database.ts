/**
 * The public part of {@link Database}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../database.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, INTEGER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A Postgres database, declared. The API renames and changes owners in place. */
export const DATABASE = declareResource({
  type: "Database",
  noun: "database",
  family: "databases",
  importId: ["projectId", "branchId", "name"],
  inputs: {
    /** The project of the branch. Changing it replaces the database. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the database lives on. Changing it replaces the database. */
    branchId: { type: STRING, required: true, change: "replace" },
    /**
     * The database name; changing it renames in place. Omit it for a generated one (the resource's
     * name and a short mark, shown by the preview), which a run after a killed one finds again.
     */
    name: { type: STRING, change: "update" },
    /** The owning role's name; changing it changes the owner in place. */
    ownerName: { type: STRING, required: true, change: "update" },
    /** The name of an existing database on the branch to take under management instead of creating one. */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the database fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The database name. */
    name: { type: STRING },
    /** The owning role. */
    ownerName: { type: STRING },
    /** The API's numeric id (null when the API did not send one). */
    databaseId: { type: INTEGER, nullable: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING, nullable: true },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
  },
});

/** Inputs of a {@link Database}. */
export interface DatabaseArgs extends ArgsOf<typeof DATABASE> {}

/** The plain inputs as the provider sees them. */
export interface DatabaseInputs extends InputsOf<typeof DATABASE> {}

/** Everything the state records of a database. */
export interface DatabaseOutputs extends StateOf<typeof DATABASE> {}

/** The dynamic provider of {@link Database}: it loads the kind's methods when called (see `lazyProvider`). */
export const databaseProvider: pulumi.dynamic.ResourceProvider<DatabaseInputs, DatabaseOutputs> =
  lazyProvider(DATABASE.type);

// The class's fields: one Output per declared output.
export interface Database extends OutputFields<typeof DATABASE> {}

/** A Postgres database on a branch, owned by a role; renames and owner changes happen in place. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Database extends DynamicResource {
  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(DATABASE, name, args, opts);
  }
}
