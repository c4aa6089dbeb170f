/**
 * Branches. Mutating calls run through `sendMutation`: queued per project, sent past 423s, and
 * resolved once the operations they started are done.
 */
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty } from "../mutation";
import { send } from "../request";
import type { Requests } from "../requests.gen";
import {
  type Branch,
  type BranchCreateResponse,
  BranchCreateResponseSchema,
  type BranchDeleteResponse,
  BranchDeleteResponseSchema,
  BranchEndpointsResponseSchema,
  type BranchGetResponse,
  BranchGetResponseSchema,
  BranchListResponseSchema,
  BranchSchemaCompareResponseSchema,
  BranchSchemaResponseSchema,
  type BranchUpdateResponse,
  BranchUpdateResponseSchema,
  type Endpoint,
} from "../schemas";

const branch = (projectId: string, branchId: string) => ({ project_id: projectId, branch_id: branchId });

/**
 * `POST /projects/{project_id}/branches` (201). `body` is the API's own shape
 * (`{branch: {name, parent_id}, endpoints: [{type}]}`). Queued per project; waits for the
 * `create_branch` / `start_compute` operations unless `wait: false`.
 */
export function createBranch(
  ctx: ClientContext,
  projectId: string,
  body: Requests["POST /projects/{project_id}/branches"]["Body"],
  options: MutationOptions = {},
): Promise<BranchCreateResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches",
    { params: { project_id: projectId }, body, schema: BranchCreateResponseSchema },
    options,
  );
}

/** `GET /projects/{project_id}/branches/{branch_id}`. */
export function getBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<BranchGetResponse> {
  return send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}", {
    params: branch(projectId, branchId),
    schema: BranchGetResponseSchema,
  });
}

/** `GET /projects/{project_id}/branches`: every live branch of the project. */
export async function listBranches(ctx: ClientContext, projectId: string): Promise<Branch[]> {
  return (await listAnnotatedBranches(ctx, projectId)).branches;
}

/**
 * `GET /projects/{project_id}/branches?include_deleted=true`: every branch of the project, live or
 * deleted (the answer does not say which: a branch missing from `listBranches` is deleted).
 */
export async function listBranchesWithDeleted(ctx: ClientContext, projectId: string): Promise<Branch[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches", {
    params: { project_id: projectId },
    query: { include_deleted: true },
    schema: BranchListResponseSchema,
  });
  return body.branches;
}

/** `GET /projects/{project_id}/branches`: every live branch, with the annotation values set on each (by branch id). */
export async function listAnnotatedBranches(
  ctx: ClientContext,
  projectId: string,
): Promise<{ branches: Branch[]; annotations: Map<string, Record<string, string>> }> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches", {
    params: { project_id: projectId },
    schema: BranchListResponseSchema,
  });
  const annotations = new Map(
    Object.entries(body.annotations ?? {}).map(([id, annotation]) => [id, annotation.value ?? {}] as const),
  );
  return { branches: body.branches, annotations };
}

/** `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the branch's computes, with their current state. */
export async function listBranchEndpoints(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
): Promise<Endpoint[]> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/endpoints", {
    params: branch(projectId, branchId),
    schema: BranchEndpointsResponseSchema,
  });
  return body.endpoints;
}

/**
 * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: {name, protected, expires_at}}`
 * (only the fields given). Queued per project.
 */
export function updateBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["PATCH /projects/{project_id}/branches/{branch_id}"]["Body"]["branch"],
  options: MutationOptions = {},
): Promise<BranchUpdateResponse> {
  return sendMutation(
    ctx,
    "PATCH /projects/{project_id}/branches/{branch_id}",
    { params: branch(projectId, branchId), body: { branch: body }, schema: BranchUpdateResponseSchema },
    options,
  );
}

/**
 * `POST /projects/{project_id}/branches/{branch_id}/restore`: replaces the branch's data with the
 * source branch's (e.g. its parent's head). Queued per project; waits for the `suspend_compute`,
 * `create_branch` and `start_compute` operations it starts unless `wait: false`.
 */
export function restoreBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  body: Requests["POST /projects/{project_id}/branches/{branch_id}/restore"]["Body"],
  options: MutationOptions = {},
): Promise<BranchUpdateResponse> {
  return sendMutation(
    ctx,
    "POST /projects/{project_id}/branches/{branch_id}/restore",
    { params: branch(projectId, branchId), body, schema: BranchUpdateResponseSchema },
    options,
  );
}

/** `DELETE /projects/{project_id}/branches/{branch_id}`: 200 with operations, or 204 (already gone) -> `null`. */
export function deleteBranch(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  options: MutationOptions = {},
): Promise<BranchDeleteResponse | null> {
  return sendMutationOrEmpty(
    ctx,
    "DELETE /projects/{project_id}/branches/{branch_id}",
    { params: branch(projectId, branchId), schema: BranchDeleteResponseSchema },
    options,
  );
}

/** A point of a branch's history: an LSN (`0/1F0A3B8`) or a timestamp (RFC 3339); neither is its head. */
export interface SchemaPoint {
  lsn?: string | undefined;
  timestamp?: string | undefined;
}

/** `GET /projects/{project_id}/branches/{branch_id}/schema`: the schema of database `dbName` as SQL, at the head or at a point. */
export async function getBranchSchema(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  query: SchemaPoint & { dbName: string },
): Promise<string> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/schema", {
    params: branch(projectId, branchId),
    query: { db_name: query.dbName, lsn: query.lsn, timestamp: query.timestamp },
    schema: BranchSchemaResponseSchema,
  });
  return body.sql;
}

/**
 * `GET /projects/{project_id}/branches/{branch_id}/compare_schema`: the unified diff from the base
 * branch's schema of database `dbName` (the branch's parent when `baseBranchId` is left out) to
 * the branch's, each side at its head or at a point; empty when they are the same.
 */
export async function compareBranchSchema(
  ctx: ClientContext,
  projectId: string,
  branchId: string,
  query: SchemaPoint & { dbName: string; baseBranchId?: string | undefined; base?: SchemaPoint | undefined },
): Promise<string> {
  const body = await send(ctx.request, "GET /projects/{project_id}/branches/{branch_id}/compare_schema", {
    params: branch(projectId, branchId),
    query: {
      db_name: query.dbName,
      base_branch_id: query.baseBranchId,
      lsn: query.lsn,
      timestamp: query.timestamp,
      base_lsn: query.base?.lsn,
      base_timestamp: query.base?.timestamp,
    },
    schema: BranchSchemaCompareResponseSchema,
  });
  return body.diff;
}
