import type { FastifyInstance } from "fastify";
import { accessProject, listableProjects, ownsOrBelongs } from "../auth";
import type { EmulatorContext } from "../context";
import { DEFAULT_COMPUTE, projectCompute, REGIONS } from "../defaults";
import { badRequest, forbidden, notFound } from "../errors";
import { projectsSharedWith } from "../families/permissions";
import {
  checkMaintenanceWindow,
  createProject,
  deleteProject,
  type NewProject,
  recoverProject,
  updateProject,
} from "../families/projects";
import { checkAllowedIps } from "../network";
import type { Requests } from "../openapi/requests.gen";
import { type ProjectRecord, recoverable } from "../records";
import { renderBranch } from "../render/branches";
import { renderDatabases } from "../render/databases";
import { connectionUri, renderConnectionUri, renderEndpoint } from "../render/endpoints";
import { renderProject, renderProjectListItem, renderRegion } from "../render/projects";
import { renderRoles } from "../render/roles";
import { checkDatabaseName, checkProvisioner, checkRoleName, computeSettings } from "../rules";
import { principalOf } from "./principal";
import { route } from "./route";

// Projects: list (cursor = last project id), shared, get, create, update, delete, recover, the
// connection URI of a database, and the regions a project can be made in.

const byCreation = (a: ProjectRecord, b: ProjectRecord) =>
  a.created_at_ms - b.created_at_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One page of projects after `cursor` (a project id of an earlier page); every page carries a cursor. */
function pageOf(
  ctx: EmulatorContext,
  projects: ProjectRecord[],
  query: Pick<Requests["GET /projects/shared"]["Querystring"], "search" | "cursor" | "limit">,
) {
  const search = query.search?.toLowerCase();
  let list = [...projects].sort(byCreation);
  if (search !== undefined && search !== "") {
    list = list.filter((p) => p.name.toLowerCase().includes(search) || p.id.includes(search));
  }
  if (query.cursor !== undefined && query.cursor !== "") {
    const anchor = ctx.store.projects.get(query.cursor);
    if (!anchor) {
      throw badRequest(
        `invalid cursor ${JSON.stringify(query.cursor)}: not a project id from a previous page`,
      );
    }
    list = list.filter((p) => byCreation(p, anchor) > 0);
  }
  const page = list.slice(0, query.limit ?? 10);
  const last = page.at(-1)?.id ?? (query.cursor || undefined);
  return { page, ...(last === undefined ? {} : { pagination: { cursor: last } }) };
}

/** Registers the project routes. */
export function projectRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const now = () => ctx.clock.now();

  route(app, "GET /projects", async (request) => {
    const query = request.query;
    const deleted = query.recoverable === true;
    let projects = listableProjects(store, principalOf(request), query.org_id, deleted);
    if (deleted) projects = projects.filter((p) => recoverable(p, now()));
    const { page, pagination } = pageOf(ctx, projects, query);
    return {
      projects: page.map((p) => renderProjectListItem(p, store)),
      ...(pagination ? { pagination } : {}),
      applications: {},
      integrations: {},
    };
  });

  // Projects shared with the user of a personal key (`POST /projects/{id}/permissions`); other keys have no user to share with.
  route(app, "GET /projects/shared", async (request) => {
    const { key, user } = principalOf(request);
    const shared = key.kind === "personal" && user !== undefined ? projectsSharedWith(store, user.email) : [];
    const { page, pagination } = pageOf(ctx, shared, request.query);
    return {
      projects: page.map((p) => renderProjectListItem(p, store)),
      ...(pagination ? { pagination } : {}),
    };
  });

  // Every region is open to every account here; an org_id must be one of the key's organizations.
  route(app, "GET /regions", async (request) => {
    const principal = principalOf(request);
    const orgId = request.query.org_id;
    if (
      orgId !== undefined &&
      principal.key.org_id !== orgId &&
      store.membershipOf(orgId, principal.key.user_id) === undefined
    ) {
      throw forbidden(`you are not a member of organization ${orgId}`);
    }
    return { regions: REGIONS.map(renderRegion) };
  });

  route(app, "GET /projects/{project_id}", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id);
    return { project: renderProject(project, now()) };
  });

  route(app, "POST /projects", async (request, reply) => {
    const principal = principalOf(request);
    const spec = request.body.project;
    const input: NewProject = { source: "api" };
    if (spec.name !== undefined) input.name = spec.name;
    if (spec.region_id !== undefined) {
      if (!REGIONS.some((r) => r.region_id === spec.region_id))
        throw badRequest(`project.region_id ${JSON.stringify(spec.region_id)} is not a known region`);
      input.regionId = spec.region_id;
    }
    if (spec.pg_version !== undefined) input.pgVersion = spec.pg_version;
    checkProvisioner(spec.provisioner, "project.");
    if (spec.provisioner !== undefined) input.provisioner = spec.provisioner;
    // The deprecated top-level sizes, overridden by default_endpoint_settings.
    const sizes = computeSettings(DEFAULT_COMPUTE, spec, "project.");
    input.defaultCompute = computeSettings(
      sizes,
      spec.default_endpoint_settings ?? {},
      "project.default_endpoint_settings.",
    );
    if (spec.history_retention_seconds !== undefined)
      input.historyRetentionSeconds = spec.history_retention_seconds;
    checkAllowedIps(spec.settings, "project.");
    checkMaintenanceWindow(spec.settings, "project.");
    if (spec.settings !== undefined) input.settings = spec.settings;
    const branch = spec.branch;
    if (branch) {
      if (branch.name !== undefined) input.branchName = branch.name;
      if (branch.role_name !== undefined) {
        checkRoleName(branch.role_name, "project.branch.role_name");
        input.roleName = branch.role_name;
      }
      if (branch.database_name !== undefined) {
        checkDatabaseName(branch.database_name, "project.branch.database_name");
        input.databaseName = branch.database_name;
      }
      if (branch.annotations !== undefined) input.annotation = branch.annotations;
    }
    const orgId = spec.org_id;
    const { key } = principal;
    if (key.kind === "project") throw forbidden("a project-scoped API key cannot create projects");
    if (key.kind === "organization") {
      if (orgId !== undefined && orgId !== key.org_id) {
        throw forbidden(`this organization API key acts only on organization ${key.org_id ?? ""}`);
      }
      input.orgId = key.org_id as string;
    } else if (orgId !== undefined) {
      if (!store.orgs.has(orgId)) throw notFound(`organization ${orgId} not found`);
      if (store.membershipOf(orgId, key.user_id) === undefined)
        throw forbidden(`you are not a member of organization ${orgId}`);
      input.orgId = orgId;
    } else {
      input.ownerUserId = key.user_id;
    }
    input.creatorUserId = key.user_id;
    const created = createProject(ctx, input);
    await ctx.data?.sync();
    const at = now();
    return reply.code(201).send({
      project: renderProject(created.project, at),
      connection_uris: [renderConnectionUri(created.endpoint, created.branch, store, ctx.data)],
      roles: renderRoles(created.branch, true),
      databases: renderDatabases(created.branch),
      operations: created.operations.map((op) => ctx.engine.view(op)),
      branch: renderBranch(created.branch, store, at),
      endpoints: [renderEndpoint(created.endpoint, store, at)],
    });
  });

  route(app, "PATCH /projects/{project_id}", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id);
    const spec = request.body.project;
    const compute =
      spec.default_endpoint_settings === undefined
        ? undefined
        : computeSettings(
            projectCompute(project),
            spec.default_endpoint_settings,
            "project.default_endpoint_settings.",
          );
    checkAllowedIps(spec.settings, "project.");
    checkMaintenanceWindow(spec.settings, "project.");
    if (
      spec.settings?.enable_logical_replication === false &&
      project.settings?.enable_logical_replication === true
    ) {
      throw badRequest(
        "project.settings.enable_logical_replication: logical replication cannot be disabled once enabled",
      );
    }
    if (spec.settings?.hipaa === false && project.settings?.hipaa === true) {
      throw badRequest("project.settings.hipaa: HIPAA compliance cannot be disabled once enabled");
    }
    // Every check is done: now change the project.
    updateProject(ctx, project, {
      name: spec.name,
      defaultCompute: compute,
      historyRetentionSeconds: spec.history_retention_seconds,
      settings: spec.settings,
    });
    return { project: renderProject(project, now()), operations: [] };
  });

  route(app, "DELETE /projects/{project_id}", async (request) => {
    const principal = principalOf(request);
    const project = accessProject(store, principal, request.params.project_id);
    if (principal.key.kind === "project")
      throw forbidden("a project-scoped API key cannot delete its project");
    if (!ownsOrBelongs(store, principal, project))
      throw forbidden(`project ${project.id} is shared with you: only its owner can delete it`);
    deleteProject(ctx, project);
    return { project: renderProject(project, now()) };
  });

  route(app, "POST /projects/{project_id}/recover", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id, true);
    if (!recoverable(project, now())) {
      throw notFound(`project ${project.id} was deleted more than 7 days ago and cannot be recovered`);
    }
    recoverProject(ctx, project);
    const at = now();
    return {
      project: renderProject(project, at),
      branches: store.liveBranches(project.id).map((b) => renderBranch(b, store, at)),
    };
  });

  route(app, "GET /projects/{project_id}/connection_uri", async (request) => {
    const project = accessProject(store, principalOf(request), request.params.project_id);
    const query = request.query;
    const branchId = query.branch_id ?? project.default_branch_id;
    const branch = store.liveBranch(project.id, branchId);
    if (!branch) {
      throw notFound(`branch ${branchId} not found in project ${project.id}`);
    }
    const endpoints = store.branchEndpoints(branch.id);
    const endpoint =
      query.endpoint_id === undefined
        ? endpoints.find((e) => e.type === "read_write")
        : endpoints.find((e) => e.id === query.endpoint_id);
    if (!endpoint) {
      throw notFound(
        query.endpoint_id === undefined
          ? `branch ${branch.id} has no read_write endpoint`
          : `endpoint ${query.endpoint_id} not found on branch ${branch.id}`,
      );
    }
    const role = branch.roles.find((r) => r.name === query.role_name);
    if (!role) throw notFound(`role ${String(query.role_name)} not found on branch ${branch.id}`);
    if (!branch.databases.some((d) => d.name === query.database_name)) {
      throw notFound(`database ${String(query.database_name)} not found on branch ${branch.id}`);
    }
    await ctx.data?.sync();
    return {
      uri: connectionUri(
        endpoint,
        store,
        role,
        query.database_name as string,
        query.pooled === true,
        ctx.data,
      ),
    };
  });
}
