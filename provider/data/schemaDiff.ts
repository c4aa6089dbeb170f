import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import { BadRequestError, isBadRequest } from "../client/errors";
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
 * side, is the API's 400; so is a branch the service knows no parent of (a schema-only branch, the
 * root) without `baseBranchId`, and the error then says to pass it.
 */
export async function getSchemaDiff(
  args: GetSchemaDiffArgs,
  opts: DataSourceOptions = {},
): Promise<GetSchemaDiffResult> {
  const client = dataSourceClient(opts);
  const diff = await client
    .compareBranchSchema(args.projectId, args.branchId, {
      dbName: args.databaseName,
      baseBranchId: args.baseBranchId,
      lsn: args.lsn,
      timestamp: args.timestamp,
      base: { lsn: args.baseLsn, timestamp: args.baseTimestamp },
    })
    .catch(async (err: unknown) => {
      if (args.baseBranchId !== undefined || !isBadRequest(err)) throw err;
      const { branch } = await client
        .getBranch(args.projectId, args.branchId)
        .catch(() => ({ branch: undefined }));
      if (branch === undefined || (branch.parent_id ?? null) !== null) throw err;
      const what = branch.init_source === "schema-only" ? "a schema-only branch" : "a root branch";
      throw new BadRequestError(
        `getSchemaDiff: branch ${branch.id} (${branch.name}) is ${what}, which the service records without a parent, ` +
          "so there is no default base to compare with: pass baseBranchId (for a Branch created with " +
          'initSource: "schema-only", its parentId)' +
          (err.requestId === undefined ? "" : ` (request id ${err.requestId})`),
        { status: err.status, code: err.code, requestId: err.requestId, method: err.method, path: err.path },
      );
    });
  return { diff, changed: diff !== "" };
}

/** {@link getSchemaDiff} taking Inputs and returning an Output. */
export function getSchemaDiffOutput(
  args: GetSchemaDiffOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetSchemaDiffResult> {
  return output(args).apply((a) => getSchemaDiff(a as GetSchemaDiffArgs, opts));
}
