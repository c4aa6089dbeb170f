import * as pulumi from "@pulumi/pulumi";
import type { Operation } from "../client";
import { dataSourceClient } from "./credentials";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getOperations}. */
export interface GetOperationsArgs {
  /** The project whose operations to list. */
  projectId: string;
  /** Stop after this many operations (newest first). Default: all. */
  maxItems?: number;
  /** Page size, 1-1000 (default 1000: fewest requests). */
  pageSize?: number;
}

/** An operation with camelCase fields. */
export interface OperationSummary {
  /** Operation id (UUID). */
  readonly id: string;
  /** Owning project. */
  readonly projectId: string;
  /** Branch concerned, when any. */
  readonly branchId?: string;
  /** Compute endpoint concerned, when any. */
  readonly endpointId?: string;
  /** Action, e.g. `create_branch`; the list of actions grows, so any string. */
  readonly action: string;
  /** Status: scheduling, running, finished, failed, error, cancelling, cancelled, skipped. */
  readonly status: string;
  /** Failures so far (a `failed` operation is retried by the platform). */
  readonly failuresCount: number;
  /** Creation time. */
  readonly createdAt: string;
  /** Last update time. */
  readonly updatedAt: string;
  /** Total duration in milliseconds, when reported. */
  readonly totalDurationMs?: number;
  /** Error text of a failed operation. */
  readonly error?: string;
}

/** Result of {@link getOperations}. */
export interface GetOperationsResult {
  /** Operations, newest first. */
  readonly operations: OperationSummary[];
}

/** Lists a project's operations newest first, across pages, stopping at `maxItems`. */
export async function getOperations(
  args: GetOperationsArgs,
  opts: DataSourceOptions = {},
): Promise<GetOperationsResult> {
  const client = dataSourceClient(opts);
  const operations: OperationSummary[] = [];
  const max = args.maxItems ?? Number.POSITIVE_INFINITY;
  if (max <= 0) return { operations };
  const pageSize = Math.min(args.pageSize ?? 1000, Number.isFinite(max) ? Math.max(1, max) : 1000);
  for await (const op of client.listOperations(args.projectId, { pageSize, maxItems: max })) {
    operations.push(toSummary(op));
    if (operations.length >= max) break;
  }
  return { operations };
}

/** {@link getOperations} taking Inputs and returning an Output. */
export function getOperationsOutput(
  args: pulumi.Input<GetOperationsArgs>,
  opts: DataSourceOptions = {},
): pulumi.Output<GetOperationsResult> {
  return pulumi.output(args).apply((a) => getOperations(a as GetOperationsArgs, opts));
}

/** Arguments of {@link getOperation}. */
export interface GetOperationArgs {
  /** The owning project. */
  projectId: string;
  /** The operation id. */
  operationId: string;
}

/** Result of {@link getOperation}. */
export interface GetOperationResult {
  /** The operation. */
  readonly operation: OperationSummary;
}

/** Reads one operation. Throws a not-found error when it does not exist (or was removed after 6 months). */
export async function getOperation(
  args: GetOperationArgs,
  opts: DataSourceOptions = {},
): Promise<GetOperationResult> {
  const op = await dataSourceClient(opts).getOperation(args.projectId, args.operationId);
  return { operation: toSummary(op) };
}

/** {@link getOperation} taking Inputs and returning an Output. */
export function getOperationOutput(
  args: pulumi.Input<GetOperationArgs>,
  opts: DataSourceOptions = {},
): pulumi.Output<GetOperationResult> {
  return pulumi.output(args).apply((a) => getOperation(a as GetOperationArgs, opts));
}

function toSummary(op: Operation): OperationSummary {
  return {
    id: op.id,
    projectId: op.project_id,
    ...(op.branch_id ? { branchId: op.branch_id } : {}),
    ...(op.endpoint_id ? { endpointId: op.endpoint_id } : {}),
    action: op.action,
    status: op.status,
    failuresCount: op.failures_count,
    createdAt: op.created_at,
    updatedAt: op.updated_at,
    ...(typeof op.total_duration_ms === "number" ? { totalDurationMs: op.total_duration_ms } : {}),
    ...(typeof op.error === "string" && op.error !== "" ? { error: op.error } : {}),
  };
}
