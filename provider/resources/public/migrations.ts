/**
 * The public part of {@link Migrations}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, the folder it reads, the SQL it runs) is `../migrations.ts`, loaded
 * only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { TIMEOUTS_INPUT } from "./common";
import { arrayOf, declareResource, objectType, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf } from "./shapes";

/** A migration file of the folder. */
export const MIGRATION_FILE = objectType("MigrationFile", {
  /** The file's name in the folder, e.g. `0001_init.sql`. */
  name: { type: STRING },
  /** The sha256 (hex) of the file's bytes. */
  sha256: { type: STRING },
});

/** A migration file of the folder, as read at the last preview or step. */
export interface MigrationFile extends ObjectOf<typeof MIGRATION_FILE.properties> {}

/** A migration the database's table records as applied. */
export const APPLIED_MIGRATION = objectType("AppliedMigration", {
  /** The file's name, e.g. `0001_init.sql`. */
  name: { type: STRING },
  /** The sha256 (hex) of the file's bytes when it ran. */
  sha256: { type: STRING },
  /** When it ran, ISO 8601 UTC. */
  appliedAt: { type: STRING },
});

/** A migration the database's table records as applied. */
export interface AppliedMigration extends ObjectOf<typeof APPLIED_MIGRATION.properties> {}

/** The SQL migrations of a folder, applied to a database in order, declared. */
export const MIGRATIONS = declareResource({
  type: "Migrations",
  noun: "migrations",
  family: "sql",
  inputs: {
    /** The project of the branch. Changing it replaces the migrations. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the database is on. Changing it replaces the migrations. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The database the migrations run in. Changing it replaces the migrations. */
    databaseName: { type: STRING, required: true, change: "replace" },
    /**
     * The role that runs the migrations, and so owns what they make (its password is read from the
     * API at each step, never kept). Changing it replaces the migrations.
     */
    ownerName: { type: STRING, required: true, change: "replace" },
    /**
     * A folder of `.sql` files (relative to the program's folder), each applied once, in the order of
     * their names, in a transaction of its own. A preview reads it: a new file shows as a change, an
     * applied file edited since fails it. Changes apply in place: the next `up` runs the new files.
     */
    folder: { type: STRING, required: true, change: "update" },
    /**
     * The table, in schema `public`, that records each applied file's name, sha256 and time; default
     * `clouddb_migrations`, made by the first step. Changing it replaces the migrations.
     */
    table: { type: STRING, change: "replace" },
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
    /** The role that runs the migrations. */
    ownerName: { type: STRING },
    /** The folder of the migrations. */
    folder: { type: STRING },
    /** The table that records the applied migrations. */
    table: { type: STRING },
    /** The folder's `.sql` files at the last step, in the order they run, each with its sha256. */
    files: { type: arrayOf(MIGRATION_FILE) },
    /** The folder's files the table records as applied, with the sha256 and time it records. */
    applied: { type: arrayOf(APPLIED_MIGRATION) },
    /**
     * The folder's files the table lacked at the last read (rows deleted outside the stack, a reset
     * of the branch that undid them); the next `up` runs them.
     */
    pending: { type: arrayOf(STRING) },
  },
});

/** Inputs of a {@link Migrations}. */
export interface MigrationsArgs extends ArgsOf<typeof MIGRATIONS> {}

/** The plain inputs as the provider sees them. */
export interface MigrationsInputs extends InputsOf<typeof MIGRATIONS> {}

/** Everything the state records of a folder's migrations. */
export interface MigrationsOutputs extends StateOf<typeof MIGRATIONS> {}

/** The dynamic provider of {@link Migrations}: it loads the kind's methods when called (see `lazyProvider`). */
export const migrationsProvider: pulumi.dynamic.ResourceProvider<MigrationsInputs, MigrationsOutputs> =
  lazyProvider(MIGRATIONS.type);

// The class's fields: one Output per declared output.
export interface Migrations extends OutputFields<typeof MIGRATIONS> {}

/**
 * The SQL migrations of a folder, run over SQL as the owner in the order of their names, each once
 * and in a transaction of its own, recorded in a table of the database. A preview shows the new
 * files as a change and refuses an applied file edited since; rows the table lost (a reset of the
 * branch) run again. Deleting the resource undoes nothing: the tables and the record stay.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Migrations extends DynamicResource {
  constructor(name: string, args: MigrationsArgs, opts?: pulumi.CustomResourceOptions) {
    super(MIGRATIONS, name, args, opts);
  }
}
