import type * as pulumi from "@pulumi/pulumi";
import { RunError } from "@pulumi/pulumi/errors";
import { output } from "@pulumi/pulumi/output";
import { isCloudDbError, isNotFound, NotFoundError } from "../client/errors";
import type { Project } from "../client/schemas";
import type { ResultObjectOf } from "../resources/public/shapes";
import type { PROJECT_SUMMARY } from "./declared";
import type { DataSourceOptions, OutputArgs } from "./options";

// What the lookups (lookups.ts, inventory.ts) and getConnectionUri share: errors that name what was
// looked for with the failed request's facts kept, and the Output form.

/** The API's not-found `error` saying `message` instead, the facts of its request (the request id) kept. */
export function notFoundSaying(message: string, error: NotFoundError): NotFoundError {
  return new NotFoundError(message, {
    status: error.status,
    code: error.code,
    requestId: error.requestId,
    method: error.method,
    path: error.path,
    pathTemplate: error.pathTemplate,
    attempts: error.attempts,
    elapsedMs: error.elapsedMs,
  });
}

/** The same, when the API itself answered 404 for the place looked in. */
export function placeMissing(what: string, error: unknown): unknown {
  if (!isNotFound(error)) return error;
  return notFoundSaying(`${what} does not exist (or this API key cannot see it): ${error.message}`, error);
}

/** Runs `read`, turning the API's 404 into an error naming `what`. */
export async function within<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw placeMissing(what, error);
  }
}

/**
 * A lookup's Output form: `lookup` once its arguments are known. A failure ends the program, at
 * preview as at update, with the error's message and no stack (it says what was missing and what to do).
 */
export function lookupOutput<A, R>(
  lookup: (args: A, opts: DataSourceOptions) => Promise<R>,
  args: OutputArgs<A>,
  opts: DataSourceOptions,
): pulumi.Output<R> {
  return output(args).apply(async (a) => {
    try {
      return await lookup(a as A, opts);
    } catch (error) {
      throw isCloudDbError(error) ? new RunError(error.message) : error;
    }
  }) as pulumi.Output<R>;
}

/** A listed project in camelCase (what `getProjects` and `getProject` answer). */
export function projectSummary(p: Project): ResultObjectOf<typeof PROJECT_SUMMARY.properties> {
  return {
    id: p.id,
    name: p.name,
    platformId: p.platform_id,
    regionId: p.region_id,
    provisioner: p.provisioner,
    pgVersion: p.pg_version,
    cpuUsedSec: p.cpu_used_sec,
    locked: p.locked ?? false,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    proxyHost: p.proxy_host,
    branchLogicalSizeLimit: p.branch_logical_size_limit,
    ...(typeof p.org_id === "string" ? { orgId: p.org_id } : {}),
  };
}
