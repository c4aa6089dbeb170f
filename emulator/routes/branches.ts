import type { FastifyInstance } from "fastify";
import { accessProject } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, HttpError, locked, notFound } from "../errors";
import { checkBranchDeletable, createBranch, deleteBranch, type NewBranch } from "../mutations";
import {
  renderAnnotation,
  renderBranch,
  renderConnectionUri,
  renderDatabases,
  renderEndpoint,
  renderRoles,
} from "../render";
import type { BranchRecord, EndpointType, ProjectRecord } from "../state";
import {
  bodyObject,
  isObject,
  optionalBoolean,
  optionalId,
  optionalObject,
  optionalString,
  pathId,
  queryString,
} from "../validate";
import { principalOf } from "./principal";

// Branches: create (201, operations), list, get, rename/protect, delete (200 with operations, 204 when gone).

const BRANCH_NAME = { min: 1, max: 256 };
const ENDPOINT_TYPES: readonly string[] = ["read_write", "read_only"];

function nameTaken(ctx: EmulatorContext, project: ProjectRecord, name: string, except?: string): boolean {
  return ctx.store.liveBranches(project.id).some((b) => b.name === name && b.id !== except);
}

function conflict(name: string): HttpError {
  return new HttpError(
    409,
    `branch with name ${JSON.stringify(name)} already exists`,
    "BRANCH_ALREADY_EXISTS",
  );
}

function liveBranch(ctx: EmulatorContext, project: ProjectRecord, branchId: string): BranchRecord {
  const branch = ctx.store.branches.get(branchId);
  if (!branch || branch.project_id !== project.id || branch.deleted_at_ms !== undefined) {
    throw notFound(`branch ${branchId} not found in project ${project.id}`);
  }
  return branch;
}

function parseEndpoints(body: Record<string, unknown>): EndpointType[] {
  const raw = body["endpoints"];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw badRequest("endpoints must be an array");
  const types = raw.map((item, i) => {
    if (!isObject(item)) throw badRequest(`endpoints[${i}] must be an object`);
    const type = item["type"];
    if (typeof type !== "string" || !ENDPOINT_TYPES.includes(type)) {
      throw badRequest(
        `endpoints[${i}].type must be one of read_write, read_only, got ${JSON.stringify(type)}`,
      );
    }
    return type as EndpointType;
  });
  if (types.filter((t) => t === "read_write").length > 1) {
    throw badRequest("a branch can have only one read_write endpoint");
  }
  return types;
}

function parseAnnotation(body: Record<string, unknown>): Record<string, string> | undefined {
  const value = optionalObject(body, "annotation_value");
  if (!value) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw badRequest(`annotation_value.${k} must be a string`);
    out[k] = v;
  }
  return out;
}

/** Registers the branch routes. */
export function branchRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.post("/projects/:project_id/branches", async (request, reply) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, pathId(request.params, "project_id"));
    const body = bodyObject(request.body, true);
    const spec = optionalObject(body, "branch", "") ?? {};
    const name = optionalString(spec, "name", { ...BRANCH_NAME, where: "branch." });
    const parentId = optionalId(spec, "parent_id", "branch.");
    const isProtected = optionalBoolean(spec, "protected", "branch.");
    const endpoints = parseEndpoints(body);
    const annotation = parseAnnotation(body);
    let parent: BranchRecord;
    if (parentId === undefined) {
      parent = store.branches.get(project.default_branch_id) as BranchRecord;
    } else {
      const found = store.branches.get(parentId);
      if (!found || found.project_id !== project.id || found.deleted_at_ms !== undefined) {
        throw new HttpError(422, `parent branch ${parentId} not found in project ${project.id}`);
      }
      parent = found;
    }
    if (name !== undefined && nameTaken(ctx, project, name)) throw conflict(name);
    if (ctx.engine.isBusy(project.id)) throw locked();
    const input: NewBranch = { parent, endpoints, source: "api", creatorUserId: principal.key.user_id };
    if (name !== undefined) input.name = name;
    if (annotation !== undefined) input.annotation = annotation;
    if (isProtected !== undefined) input.protected = isProtected;
    const created = createBranch(ctx, project, input);
    const now = ctx.clock.now();
    const response: Record<string, unknown> = {
      branch: renderBranch(created.branch, store, now),
      endpoints: created.endpoints.map((e) => renderEndpoint(e, store, now)),
      operations: created.operations.map((op) => ctx.engine.view(op)),
      roles: renderRoles(created.branch),
      databases: renderDatabases(created.branch),
    };
    if (created.endpoints.length > 0) {
      response["connection_uris"] = created.endpoints.map((e) =>
        renderConnectionUri(e, created.branch, store, created.password),
      );
    }
    return reply.code(201).send(response);
  });

  app.get("/projects/:project_id/branches", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const search = queryString(request.query, "search")?.toLowerCase();
    const now = ctx.clock.now();
    let branches = store.liveBranches(project.id);
    if (search !== undefined) {
      branches = branches.filter((b) => b.name.toLowerCase().includes(search) || b.id.includes(search));
    }
    branches.sort((a, b) => b.updated_at_ms - a.updated_at_ms || (a.id < b.id ? -1 : 1));
    const annotations: Record<string, unknown> = {};
    for (const b of branches)
      if (Object.keys(b.annotation).length > 0) annotations[b.id] = renderAnnotation(b);
    return { branches: branches.map((b) => renderBranch(b, store, now)), annotations };
  });

  app.get("/projects/:project_id/branches/:branch_id", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const branch = liveBranch(ctx, project, pathId(request.params, "branch_id"));
    return { branch: renderBranch(branch, store, ctx.clock.now()), annotation: renderAnnotation(branch) };
  });

  app.get("/projects/:project_id/branches/:branch_id/endpoints", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const branch = liveBranch(ctx, project, pathId(request.params, "branch_id"));
    const now = ctx.clock.now();
    return { endpoints: store.branchEndpoints(branch.id).map((e) => renderEndpoint(e, store, now)) };
  });
  app.patch("/projects/:project_id/branches/:branch_id", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const branch = liveBranch(ctx, project, pathId(request.params, "branch_id"));
    const spec = optionalObject(bodyObject(request.body), "branch");
    if (!spec) throw badRequest("branch is required");
    const name = optionalString(spec, "name", { ...BRANCH_NAME, where: "branch." });
    const isProtected = optionalBoolean(spec, "protected", "branch.");
    if (name !== undefined && nameTaken(ctx, project, name, branch.id)) throw conflict(name);
    if (name !== undefined) branch.name = name;
    if (isProtected !== undefined) branch.protected = isProtected;
    branch.updated_at_ms = ctx.clock.now();
    ctx.changed();
    return { branch: renderBranch(branch, store, ctx.clock.now()), operations: [] };
  });

  app.delete("/projects/:project_id/branches/:branch_id", async (request, reply) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    const branchId = pathId(request.params, "branch_id");
    const branch = store.branches.get(branchId);
    // The official document: 204 "if the branch doesn't exist or has already been deleted".
    if (!branch || branch.project_id !== project.id || branch.deleted_at_ms !== undefined) {
      return reply.code(204).send();
    }
    checkBranchDeletable(ctx, project, branch);
    if (ctx.engine.isBusy(project.id)) throw locked();
    const operations = deleteBranch(ctx, project, branch, "user");
    return {
      branch: renderBranch(branch, store, ctx.clock.now()),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });
}
