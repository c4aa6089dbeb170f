import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { Operation } from "../client";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_OPERATION, GET_OPERATIONS, OPERATION_SUMMARY } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getOperations}. */
export interface GetOperationsArgs extends FunctionArgsOf<typeof GET_OPERATIONS> {}

/** An operation with camelCase fields. */
export interface OperationSummary extends ResultObjectOf<typeof OPERATION_SUMMARY.properties> {}

/** Result of {@link getOperations}. */
export interface GetOperationsResult extends FunctionResultOf<typeof GET_OPERATIONS> {}

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
  return output(args).apply((a) => getOperations(a as GetOperationsArgs, opts));
}

/** Arguments of {@link getOperation}. */
export interface GetOperationArgs extends FunctionArgsOf<typeof GET_OPERATION> {}

/** Result of {@link getOperation}. */
export interface GetOperationResult extends FunctionResultOf<typeof GET_OPERATION> {}

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
  return output(args).apply((a) => getOperation(a as GetOperationArgs, opts));
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
