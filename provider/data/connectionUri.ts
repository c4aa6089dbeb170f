import * as pulumi from "@pulumi/pulumi";
import { dataSourceClient } from "./credentials";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getConnectionUri}. */
export interface GetConnectionUriArgs {
  /** The project. */
  projectId: string;
  /** The branch; default: the project's default branch. */
  branchId?: string;
  /** The compute to connect through; default: the branch's read_write compute. */
  endpointId?: string;
  /** The database to connect to. */
  databaseName: string;
  /** The role to connect as (its password is in the result). */
  roleName: string;
  /** Connect through the connection pooler (the `-pooler` host). Default false. */
  pooled?: boolean;
}

/** Arguments of {@link getConnectionUriOutput}: those of {@link getConnectionUri}, each an Input. */
export type GetConnectionUriOutputArgs = {
  [K in keyof GetConnectionUriArgs]: pulumi.Input<GetConnectionUriArgs[K]>;
};

/** Result of {@link getConnectionUri}. */
export interface GetConnectionUriResult {
  /** `postgresql://role:password@host/database?sslmode=require`: it holds the role's password. */
  readonly uri: string;
}

/**
 * Reads a connection string, password included, from the API. The result is plain text: wrap it
 * with `pulumi.secret(...)` before exporting or passing it on, or use {@link getConnectionUriOutput},
 * whose result is already a secret. Throws the client's typed errors (not found when the project,
 * branch, compute, role or database does not exist).
 */
export async function getConnectionUri(
  args: GetConnectionUriArgs,
  opts: DataSourceOptions = {},
): Promise<GetConnectionUriResult> {
  const client = dataSourceClient(opts);
  const uri = await client.getConnectionUri(args.projectId, {
    databaseName: args.databaseName,
    roleName: args.roleName,
    branchId: args.branchId,
    endpointId: args.endpointId,
    pooled: args.pooled,
  });
  return { uri };
}

/** {@link getConnectionUri} taking Inputs and returning an Output that is a Pulumi secret. */
export function getConnectionUriOutput(
  args: GetConnectionUriOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetConnectionUriResult> {
  return pulumi.secret(pulumi.output(args).apply((a) => getConnectionUri(a, opts)));
}
