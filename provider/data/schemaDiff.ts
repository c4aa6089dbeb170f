import * as pulumi from "@pulumi/pulumi";
import type { FunctionArgsOf, FunctionResultOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_SCHEMA_DIFF } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getSchemaDiff}. */
export interface GetSchemaDiffArgs extends FunctionArgsOf<typeof GET_SCHEMA_DIFF> {}

/** Arguments of {@link getSchemaDiffOutput}: those of {@link getSchemaDiff}, each an Input. */
export type GetSchemaDiffOutputArgs = { [K in keyof GetSchemaDiffArgs]: pulumi.Input<GetSchemaDiffArgs[K]> };

/** Result of {@link getSchemaDiff}. */
export interface GetSchemaDiffResult extends FunctionResultOf<typeof GET_SCHEMA_DIFF> {}

/**
 * The unified diff of a database's schema from a base branch (`branchId`'s parent by default) to
 * `branchId`, each at its head or at a point of its history (docs/api-rules.md §12). Throws the
 * client's typed errors: a point outside the branch's history, or both an LSN and a time for one
 * side, is the API's 400.
 */
export async function getSchemaDiff(
  args: GetSchemaDiffArgs,
  opts: DataSourceOptions = {},
): Promise<GetSchemaDiffResult> {
  const diff = await dataSourceClient(opts).compareBranchSchema(args.projectId, args.branchId, {
    dbName: args.databaseName,
    baseBranchId: args.baseBranchId,
    lsn: args.lsn,
    timestamp: args.timestamp,
    base: { lsn: args.baseLsn, timestamp: args.baseTimestamp },
  });
  return { diff, changed: diff !== "" };
}

/** {@link getSchemaDiff} taking Inputs and returning an Output. */
export function getSchemaDiffOutput(
  args: GetSchemaDiffOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetSchemaDiffResult> {
  return pulumi.output(args).apply((a) => getSchemaDiff(a as GetSchemaDiffArgs, opts));
}
