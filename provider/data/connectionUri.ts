import type * as pulumi from "@pulumi/pulumi";
import { RunError } from "@pulumi/pulumi/errors";
import { output, secret, unknown } from "@pulumi/pulumi/output";
import { isDryRun } from "@pulumi/pulumi/runtime/settings";
import type { NotFoundError } from "../client/errors";
import { isCloudDbError, isNotFound } from "../client/errors";
import type { FunctionArgsOf, FunctionResultOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_CONNECTION_URI } from "./declared";
import { notFoundSaying } from "./lookup";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getConnectionUri}. */
export interface GetConnectionUriArgs extends FunctionArgsOf<typeof GET_CONNECTION_URI> {}

/** Arguments of {@link getConnectionUriOutput}: those of {@link getConnectionUri}, each an Input. */
export type GetConnectionUriOutputArgs = {
  [K in keyof GetConnectionUriArgs]: pulumi.Input<GetConnectionUriArgs[K]>;
};

/** Result of {@link getConnectionUri}. */
export interface GetConnectionUriResult extends FunctionResultOf<typeof GET_CONNECTION_URI> {}

/**
 * Reads a connection string, password included, from the API. The result is plain text: wrap it
 * with `pulumi.secret(...)` before exporting or passing it on, or use {@link getConnectionUriOutput},
 * whose result is already a secret. Throws the client's typed errors; a not-found error (the
 * project, branch, compute, role or database does not exist) names the role, database and branch
 * asked for and what to do.
 */
export async function getConnectionUri(
  args: GetConnectionUriArgs,
  opts: DataSourceOptions = {},
): Promise<GetConnectionUriResult> {
  const client = dataSourceClient(opts);
  try {
    const uri = await client.getConnectionUri(args.projectId, {
      databaseName: args.databaseName,
      roleName: args.roleName,
      branchId: args.branchId,
      endpointId: args.endpointId,
      pooled: args.pooled,
    });
    return { uri };
  } catch (error) {
    throw isNotFound(error) ? missingObject(args, error) : error;
  }
}

/**
 * {@link getConnectionUri} taking Inputs and returning an Output that is a Pulumi secret.
 *
 * At preview, a role, database, branch or compute that does not exist yet makes the result
 * unknown rather than an error: the run may be about to create it (or, after a refresh, create it
 * again). During `up` it fails the program with the not-found error's message, which says what is
 * missing and what to do; the API's errors end the program with their message only, no stack.
 */
export function getConnectionUriOutput(
  args: GetConnectionUriOutputArgs,
  opts: DataSourceOptions = {},
): pulumi.Output<GetConnectionUriResult> {
  return secret(
    output(args).apply(async (a) => {
      try {
        return await getConnectionUri(a, opts);
      } catch (error) {
        if (isNotFound(error) && isDryRun()) return unknownOutput<GetConnectionUriResult>();
        // The message says what failed and what to do; a stack would point into the package's
        // compiled files (or at sources it does not ship).
        throw isCloudDbError(error) ? new RunError(error.message) : error;
      }
    }),
  );
}

/** An Output whose value is unknown, as Pulumi's own are at preview for values an apply has yet to produce. */
function unknownOutput<T>(): pulumi.Output<T> {
  // `pulumi.output` of Pulumi's unknown sentinel is an Output whose `isKnown` is false: an apply
  // returning it makes its own result unknown, and the engine shows it as such.
  return output(unknown) as unknown as pulumi.Output<T>;
}

/** The not-found error of a connection-string lookup, saying what was asked for and what to do. */
function missingObject(args: GetConnectionUriArgs, error: NotFoundError): NotFoundError {
  const branch = args.branchId === undefined ? "the default branch" : `branch ${args.branchId}`;
  const compute = args.endpointId === undefined ? "" : ` (compute ${args.endpointId})`;
  return notFoundSaying(
    `getConnectionUri: no connection string for role "${args.roleName}" and database ` +
      `"${args.databaseName}" on ${branch}${compute} of project ${args.projectId}: one of them does ` +
      "not exist. If a resource of this program creates it, pass that resource's output " +
      "(`role.name`, `database.name`, `branch.branchId`) so the lookup runs after its create; if it " +
      "was deleted outside Pulumi or its branch expired, `pulumi up --refresh` creates it again. " +
      `The API said: ${error.message}`,
    error,
  );
}
