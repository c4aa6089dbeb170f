import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { projectCompute } from "../defaults";
import { badRequest, HttpError } from "../errors";
import {
  type CreatedBranch,
  checkBranchDeletable,
  createBranch,
  deleteBranch,
  historyStart,
  LSN,
  type NewBranch,
  pointLsn,
  pointTime,
  recoverBranch,
  restoreBranch,
  setDefaultBranch,
  updateBranch,
} from "../families/branches";
import { checkPgSettings, type EndpointSpec } from "../families/endpoints";
import { checkIdle } from "../families/operations";
import type { BranchCreateRequest, BranchCreateRequestEndpointOptions } from "../openapi/requests.gen";
import { type BranchRecord, type ProjectRecord, recoverable } from "../records";
import { renderAnnotation, renderBranch } from "../render/branches";
import { renderDatabases } from "../render/databases";
import { renderConnectionUri, renderEndpoint } from "../render/endpoints";
import { renderRoles } from "../render/roles";
import { checkInitSource, checkProvisioner, computeSettings, expiryMs } from "../rules";
import { branchOf, projectOf } from "./lookup";
import { principalOf } from "./principal";
import { route } from "./route";

// Branches: create (201, operations), list (search, sort, cursor pages), count, get, update
// (name, protected, expires_at), delete (200 with operations, 204 when gone), restore, recover
// (within 7 days of the delete), set as default, and the branch's endpoints.

export function branchNameInUse(
  ctx: EmulatorContext,
  project: ProjectRecord,
  name: string,
  except?: string,
): boolean {
  return ctx.store.liveBranches(project.id).some((b) => b.name === name && b.id !== except);
}

export function conflict(name: string): HttpError {
  return new HttpError(
    409,
    `branch with name ${JSON.stringify(name)} already exists`,
    "BRANCH_ALREADY_EXISTS",
  );
}

/** The endpoints a create request asks for, with their compute settings checked. */
export function endpointSpecs(
  project: ProjectRecord,
  options: BranchCreateRequestEndpointOptions[],
): EndpointSpec[] {
  return options.map((o, i) => {
    const where = `endpoints[${i}].`;
    checkProvisioner(o.provisioner, where);
    checkPgSettings(o.settings, where);
    const spec: EndpointSpec = {
      type: o.type,
      compute: computeSettings(projectCompute(project), o, where),
    };
    if (o.provisioner !== undefined) spec.provisioner = o.provisioner;
    if (o.settings !== undefined) spec.settings = o.settings;
    return spec;
  });
}

/** The point in the parent's history to branch from; throws 400 for both, a bad LSN, or a time outside it. */
export function branchPoint(
  ctx: EmulatorContext,
  project: ProjectRecord,
  parent: BranchRecord,
  lsn: string | undefined,
  timestamp: string | undefined,
  prefix: string,
): { lsn?: string; timestampMs?: number } {
  if (lsn !== undefined && timestamp !== undefined) {
    throw badRequest(`give only one of ${prefix}_lsn and ${prefix}_timestamp`);
  }
  const now = ctx.clock.now();
  const oldest = historyStart(project, parent, now);
  if (lsn !== undefined) {
    if (!LSN.test(lsn))
      throw badRequest(`${prefix}_lsn must be an LSN like 0/1F0A3B8, got ${JSON.stringify(lsn)}`);
    if (ctx.data === undefined) return { lsn: lsn.toUpperCase() };
    // With the data plane an LSN is a real WAL position, and must be one of the branch's history.
    const ms = pointTime(ctx, parent, lsn);
    if (ms > now) throw badRequest(`${prefix}_lsn ${lsn} is in the future`);
    if (ms < oldest) {
      throw badRequest(
        `${prefix}_lsn ${lsn} is outside the branch's history (from ${new Date(oldest).toISOString()})`,
      );
    }
    return { lsn: lsn.toUpperCase(), timestampMs: ms };
  }
  if (timestamp === undefined) return {};
  const ms = Date.parse(timestamp);
  if (ms > now) throw badRequest(`${prefix}_timestamp ${timestamp} is in the future`);
  if (ms < oldest) {
    throw badRequest(
      `${prefix}_timestamp ${timestamp} is outside the branch's history (from ${new Date(oldest).toISOString()})`,
    );
  }
  return { timestampMs: ms, lsn: pointLsn(ctx, parent, ms) };
}

/**
 * Creates a branch as a create request (`POST .../branches`, or the `branch_create` of an
 * anonymized one) asks: every check first (422 for a missing parent, 400, 409, 423), then the
 * branch, its endpoints and operations; the data plane has its data once this resolves.
 */
export async function createFromRequest(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { project_id: string } }>,
  body: BranchCreateRequest,
  annotation: Record<string, string> | undefined,
): Promise<CreatedBranch> {
  const { store } = ctx;
  const principal = principalOf(request);
  const project = projectOf(ctx, request);
  const spec = body.branch ?? {};
  const parent = store.liveBranch(project.id, spec.parent_id ?? project.default_branch_id);
  if (!parent) {
    throw new HttpError(422, `parent branch ${String(spec.parent_id)} not found in project ${project.id}`);
  }
  checkInitSource(spec.init_source, "branch.");
  // A reading of the WAL now, so an LSN the client has just read is not taken for the future.
  await ctx.data?.noteTime();
  const point = branchPoint(ctx, project, parent, spec.parent_lsn, spec.parent_timestamp, "branch.parent");
  const expiresAtMs =
    spec.expires_at === undefined ? undefined : expiryMs(spec.expires_at, ctx.clock.now(), "branch.");
  const endpoints = endpointSpecs(project, body.endpoints ?? []);
  if (endpoints.filter((e) => e.type === "read_write").length > 1) {
    throw badRequest("a branch can have only one read_write endpoint");
  }
  if (spec.name !== undefined && branchNameInUse(ctx, project, spec.name)) throw conflict(spec.name);
  checkIdle(ctx, project);
  const input: NewBranch = { parent, endpoints, source: "api", creatorUserId: principal.key.user_id };
  if (spec.name !== undefined) input.name = spec.name;
  if (annotation !== undefined) input.annotation = annotation;
  if (spec.protected !== undefined) input.protected = spec.protected;
  if (spec.init_source !== undefined) input.initSource = spec.init_source;
  if (expiresAtMs !== undefined) input.expiresAtMs = expiresAtMs;
  if (point.lsn !== undefined) input.parentLsn = point.lsn;
  if (point.timestampMs !== undefined) input.parentTimestampMs = point.timestampMs;
  const created = createBranch(ctx, project, input);
  await ctx.data?.sync();
  return created;
}

/** The answer to a branch create: the branch, its endpoints, operations, roles, databases and URIs. */
export function createdResponse(ctx: EmulatorContext, created: CreatedBranch): Record<string, unknown> {
  const { store } = ctx;
  const at = ctx.clock.now();
  const response: Record<string, unknown> = {
    branch: renderBranch(created.branch, store, at),
    endpoints: created.endpoints.map((e) => renderEndpoint(e, store, at)),
    operations: created.operations.map((op) => ctx.engine.view(op)),
    roles: renderRoles(created.branch),
    databases: renderDatabases(created.branch),
  };
  if (created.endpoints.length > 0) {
    response["connection_uris"] = created.endpoints.map((e) =>
      renderConnectionUri(e, created.branch, store, ctx.data),
    );
  }
  return response;
}

/** Registers the branch routes. */
export function branchRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const now = () => ctx.clock.now();

  route(app, "POST /projects/{project_id}/branches", async (request, reply) => {
    const body = request.body ?? {};
    const created = await createFromRequest(ctx, request, body, body.annotation_value);
    return reply.code(201).send(createdResponse(ctx, created));
  });

  route(app, "GET /projects/{project_id}/branches", async (request) => {
    const project = projectOf(ctx, request);
    const query = request.query;
    const search = query.search?.toLowerCase();
    const sortBy = query.sort_by ?? "updated_at";
    const direction = query.sort_order === "asc" ? 1 : -1;
    let branches = query.include_deleted
      ? [...store.branches.values()].filter((b) => b.project_id === project.id)
      : store.liveBranches(project.id);
    if (search !== undefined && search !== "") {
      branches = branches.filter((b) => b.name.toLowerCase().includes(search) || b.id.includes(search));
    }
    const key = (b: BranchRecord): string | number =>
      sortBy === "name" ? b.name : sortBy === "created_at" ? b.created_at_ms : b.updated_at_ms;
    branches.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : 0) * direction || (a.id < b.id ? -1 : 1);
    });
    if (query.cursor !== undefined && query.cursor !== "") {
      const index = branches.findIndex((b) => b.id === query.cursor);
      if (index < 0) {
        throw badRequest(
          `invalid cursor ${JSON.stringify(query.cursor)}: not a branch id from a previous page`,
        );
      }
      branches = branches.slice(index + 1);
    }
    const page = query.limit === undefined ? branches : branches.slice(0, query.limit);
    const annotations: Record<string, unknown> = {};
    for (const b of page) if (Object.keys(b.annotation).length > 0) annotations[b.id] = renderAnnotation(b);
    const at = now();
    const body: Record<string, unknown> = {
      branches: page.map((b) => renderBranch(b, store, at)),
      annotations,
    };
    if (query.limit !== undefined) {
      const last = page.at(-1);
      body["pagination"] = {
        ...(last !== undefined && page.length < branches.length ? { next: last.id } : {}),
        sort_by: sortBy,
        sort_order: direction === 1 ? "asc" : "desc",
      };
    }
    return body;
  });

  route(app, "GET /projects/{project_id}/branches/count", async (request) => {
    const project = projectOf(ctx, request);
    const search = request.query.search?.toLowerCase();
    const branches = store
      .liveBranches(project.id)
      .filter((b) => search === undefined || b.name.toLowerCase().includes(search) || b.id.includes(search));
    return { count: branches.length };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}", async (request) => {
    const { branch } = branchOf(ctx, request);
    return { branch: renderBranch(branch, store, now()), annotation: renderAnnotation(branch) };
  });

  route(app, "GET /projects/{project_id}/branches/{branch_id}/endpoints", async (request) => {
    const { branch } = branchOf(ctx, request);
    const at = now();
    return { endpoints: store.branchEndpoints(branch.id).map((e) => renderEndpoint(e, store, at)) };
  });

  route(app, "PATCH /projects/{project_id}/branches/{branch_id}", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const spec = request.body.branch;
    if (spec.name !== undefined && branchNameInUse(ctx, project, spec.name, branch.id))
      throw conflict(spec.name);
    let expiresAtMs: number | null | undefined;
    if (spec.expires_at === null) expiresAtMs = null;
    else if (spec.expires_at !== undefined) {
      if (branch.default) throw badRequest(`branch ${branch.id} is the default branch, which cannot expire`);
      expiresAtMs = expiryMs(spec.expires_at, now(), "branch.");
    }
    // Every check is done: now change the branch.
    updateBranch(ctx, branch, { name: spec.name, protected: spec.protected, expiresAtMs });
    return { branch: renderBranch(branch, store, now()), operations: [] };
  });

  route(app, "DELETE /projects/{project_id}/branches/{branch_id}", async (request, reply) => {
    const project = projectOf(ctx, request);
    const branch = store.liveBranch(project.id, request.params.branch_id);
    // The official document: 204 "if the branch doesn't exist or has already been deleted".
    if (!branch) {
      return reply.code(204).send();
    }
    checkBranchDeletable(ctx, project, branch);
    checkIdle(ctx, project);
    const operations = deleteBranch(ctx, project, branch, "user");
    return {
      branch: renderBranch(branch, store, now()),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/restore", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    const body = request.body;
    const source = store.liveBranch(project.id, body.source_branch_id);
    if (!source) {
      throw new HttpError(422, `source branch ${body.source_branch_id} not found in project ${project.id}`);
    }
    await ctx.data?.noteTime();
    const point = branchPoint(ctx, project, source, body.source_lsn, body.source_timestamp, "source");
    const self = source.id === branch.id;
    if (self && point.lsn === undefined) {
      throw badRequest("restoring a branch from itself needs source_timestamp or source_lsn");
    }
    const preserve = body.preserve_under_name === "" ? undefined : body.preserve_under_name;
    const hasChildren = store.liveBranches(project.id).some((b) => b.parent_id === branch.id);
    if (preserve === undefined && (self || hasChildren)) {
      throw badRequest(
        self
          ? "restoring a branch from itself needs preserve_under_name"
          : `branch ${branch.id} has child branches: give preserve_under_name to keep them on its previous state`,
      );
    }
    if (preserve !== undefined && branchNameInUse(ctx, project, preserve)) throw conflict(preserve);
    checkIdle(ctx, project);
    const operations = restoreBranch(ctx, project, branch, source, {
      ...(point.lsn === undefined ? {} : { lsn: point.lsn }),
      ...(preserve === undefined ? {} : { preserveUnderName: preserve }),
    });
    // The answer names the position the data was copied at.
    await ctx.data?.sync();
    return {
      branch: renderBranch(branch, store, now()),
      operations: operations.map((op) => ctx.engine.view(op)),
    };
  });

  // Within 7 days of its deletion a branch comes back with its endpoints, idle, and no expiry.
  route(app, "POST /projects/{project_id}/branches/{branch_id}/recover", async (request) => {
    const project = projectOf(ctx, request);
    const branchId = request.params.branch_id;
    const branch = store.branches.get(branchId);
    if (!branch || branch.project_id !== project.id || branch.deleted_at_ms === undefined) {
      throw new HttpError(404, `no deleted branch ${branchId} to recover in project ${project.id}`);
    }
    if (!recoverable(branch, now())) {
      throw new HttpError(404, `branch ${branchId} was deleted more than 7 days ago and cannot be recovered`);
    }
    if (branchNameInUse(ctx, project, branch.name)) throw conflict(branch.name);
    if (branch.parent_id !== undefined && store.branches.get(branch.parent_id)?.deleted_at_ms !== undefined) {
      throw new HttpError(422, `recover the parent branch ${branch.parent_id} first`);
    }
    const endpoints = recoverBranch(ctx, branch);
    return {
      branch: renderBranch(branch, store, now()),
      endpoints: endpoints.map((e) => renderEndpoint(e, store, now())),
    };
  });

  route(app, "POST /projects/{project_id}/branches/{branch_id}/set_as_default", async (request) => {
    const { project, branch } = branchOf(ctx, request);
    setDefaultBranch(ctx, project, branch);
    return { branch: renderBranch(branch, store, now()), operations: [] };
  });
}
