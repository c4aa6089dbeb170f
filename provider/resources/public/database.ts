/**
 * The public part of {@link Database}: what a program declares and reads. The definition (inputs
 * schema, change table, API calls) is `../database.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";
import type { LifecycleInputs } from "./common";
/** The plain inputs as the provider sees them. */
export interface DatabaseInputs extends LifecycleInputs {
  projectId: string;
  branchId: string;
  /** Left out, `check` generates one from the resource's name and create key. */
  name?: string | undefined;
  ownerName: string;
}

/** Everything the state records of a database. */
export interface DatabaseOutputs extends DatabaseInputs {
  name: string;
  /** The API's numeric id (null when the API did not send one). */
  databaseId: number | null;
  createdAt: string | null;
  operationIds: string[];
  pendingOperationIds: string[];
}

/** Inputs of a {@link Database}. */
export interface DatabaseArgs {
  /** The project of the branch. Changing it replaces the database. */
  projectId: pulumi.Input<string>;
  /** The branch the database lives on. Changing it replaces the database. */
  branchId: pulumi.Input<string>;
  /**
   * The database name; changing it renames in place. Omit it for a generated one (the resource's
   * name and a short mark, shown by the preview), which a run after a killed one finds again.
   */
  name?: pulumi.Input<string>;
  /** The owning role's name; changing it changes the owner in place. */
  ownerName: pulumi.Input<string>;
  /** The name of an existing database on the branch to take under management instead of creating one. */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the database fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds. */
  timeouts?: pulumi.Input<{ create?: number; update?: number; delete?: number }>;
}

const DATABASE_METHODS = moduleRef(require.resolve("../databaseMethods"));

/** The dynamic provider of {@link Database}: it loads `databaseMethods` when called (see `lazyProvider`). */
export const databaseProvider: pulumi.dynamic.ResourceProvider<DatabaseInputs, DatabaseOutputs> =
  lazyProvider(DATABASE_METHODS);

const DATABASE: ResourceKind = {
  type: "Database",
  methods: DATABASE_METHODS,
  outputs: [
    "projectId",
    "branchId",
    "name",
    "ownerName",
    "databaseId",
    "createdAt",
    "operationIds",
    "pendingOperationIds",
  ] satisfies (keyof DatabaseOutputs)[],
};

/** A Postgres database on a branch, owned by a role; renames and owner changes happen in place. */
export class Database extends DynamicResource {
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch id. */
  declare readonly branchId: pulumi.Output<string>;
  /** The database name. */
  declare readonly name: pulumi.Output<string>;
  /** The owning role. */
  declare readonly ownerName: pulumi.Output<string>;
  /** The API's numeric id. */
  declare readonly databaseId: pulumi.Output<number | null>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(DATABASE, name, args, opts);
  }
}
