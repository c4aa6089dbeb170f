import type { FastifyRequest } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import { notFound } from "../errors";
import type { BranchRecord, DatabaseRecord, EndpointRecord, ProjectRecord, RoleRecord } from "../records";
import { principalOf } from "./principal";

// Finding the objects a path names, with the caller's access checked: 404 for what does not exist.

/** A request whose path names these parameters (checked against the document's patterns). */
type PathOf<K extends string> = FastifyRequest<{ Params: Record<K, string> }>;

/** The path's project, if the caller may act on it. */
export function projectOf(ctx: EmulatorContext, request: PathOf<"project_id">): ProjectRecord {
  return accessProject(ctx.store, principalOf(request), request.params.project_id);
}

/** The path's project and live branch (404 when the branch is missing or deleted). */
export function branchOf(
  ctx: EmulatorContext,
  request: PathOf<"project_id" | "branch_id">,
): { project: ProjectRecord; branch: BranchRecord } {
  const project = projectOf(ctx, request);
  const branchId = request.params.branch_id;
  const branch = ctx.store.liveBranch(project.id, branchId);
  if (!branch) throw notFound(`branch ${branchId} not found in project ${project.id}`);
  return { project, branch };
}

/** The path's project and endpoint. */
export function endpointOf(
  ctx: EmulatorContext,
  request: PathOf<"project_id" | "endpoint_id">,
): { project: ProjectRecord; endpoint: EndpointRecord } {
  const project = projectOf(ctx, request);
  const endpointId = request.params.endpoint_id;
  const endpoint = ctx.store.endpoints.get(endpointId);
  if (!endpoint || endpoint.project_id !== project.id) {
    throw notFound(`endpoint ${endpointId} not found in project ${project.id}`);
  }
  return { project, endpoint };
}

/** A role of the branch. */
export function roleOf(branch: BranchRecord, name: string): RoleRecord {
  const role = branch.roles.find((r) => r.name === name);
  if (!role) throw notFound(`role ${name} not found on branch ${branch.id}`);
  return role;
}

/** A database of the branch. */
export function databaseOf(branch: BranchRecord, name: string): DatabaseRecord {
  const database = branch.databases.find((d) => d.name === name);
  if (!database) throw notFound(`database ${name} not found on branch ${branch.id}`);
  return database;
}
