import type { FastifyInstance } from "fastify";
import { accessProject, listableProjects } from "../auth";
import type { EmulatorContext } from "../context";
import { badRequest, forbidden, notFound } from "../errors";
import { createProject, type NewProject } from "../mutations";
import {
  renderBranch,
  renderConnectionUri,
  renderDatabases,
  renderEndpoint,
  renderProject,
  renderProjectListItem,
  renderRoles,
} from "../render";
import type { ProjectRecord } from "../state";
import {
  bodyObject,
  optionalId,
  optionalObject,
  optionalString,
  pathId,
  queryInt,
  queryString,
} from "../validate";
import { principalOf } from "./principal";

// Projects: list (cursor = last project id), get, create.

/** Regions the emulator accepts for new projects. */
export const REGIONS = [
  "aws-us-east-1",
  "aws-us-east-2",
  "aws-us-west-2",
  "aws-eu-central-1",
  "aws-eu-west-2",
  "aws-ap-southeast-1",
  "aws-ap-southeast-2",
  "aws-sa-east-1",
  "azure-eastus2",
  "azure-westus3",
  "azure-gwc",
];

const byCreation = (a: ProjectRecord, b: ProjectRecord) =>
  a.created_at_ms - b.created_at_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Registers the project routes. */
export function projectRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.get("/projects", async (request) => {
    const limit = queryInt(request.query, "limit", 1, 400, 10);
    const cursor = queryString(request.query, "cursor");
    const search = queryString(request.query, "search")?.toLowerCase();
    const orgId = queryString(request.query, "org_id");
    let projects = listableProjects(store, principalOf(request), orgId).sort(byCreation);
    if (search !== undefined) {
      projects = projects.filter((p) => p.name.toLowerCase().includes(search) || p.id.includes(search));
    }
    if (cursor !== undefined) {
      const anchor = store.projects.get(cursor);
      if (!anchor)
        throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: not a project id from a previous page`);
      projects = projects.filter((p) => byCreation(p, anchor) > 0);
    }
    const page = projects.slice(0, limit);
    const last = page.at(-1)?.id ?? cursor;
    const body: Record<string, unknown> = {
      projects: page.map((p) => renderProjectListItem(p, store)),
      applications: {},
      integrations: {},
    };
    if (last !== undefined) body["pagination"] = { cursor: last };
    return body;
  });

  app.get("/projects/:project_id", async (request) => {
    const project = accessProject(store, principalOf(request), pathId(request.params, "project_id"));
    return { project: renderProject(project, ctx.clock.now()) };
  });

  app.post("/projects", async (request, reply) => {
    const principal = principalOf(request);
    const body = bodyObject(request.body);
    const spec = optionalObject(body, "project");
    if (!spec) throw badRequest("project is required");
    const where = "project.";
    const input: NewProject = { source: "api" };
    const name = optionalString(spec, "name", { min: 1, max: 256, where });
    if (name !== undefined) input.name = name;
    const regionId = optionalString(spec, "region_id", { where });
    if (regionId !== undefined) {
      if (!REGIONS.includes(regionId))
        throw badRequest(`project.region_id ${JSON.stringify(regionId)} is not a known region`);
      input.regionId = regionId;
    }
    const pg = spec["pg_version"];
    if (pg !== undefined) {
      if (typeof pg !== "number" || !Number.isInteger(pg) || pg < 14 || pg > 18) {
        throw badRequest("project.pg_version must be an integer from 14 to 18");
      }
      input.pgVersion = pg;
    }
    const branch = optionalObject(spec, "branch", where);
    if (branch) {
      const where2 = "project.branch.";
      const branchName = optionalString(branch, "name", { min: 1, max: 256, where: where2 });
      const roleName = optionalString(branch, "role_name", { min: 1, max: 63, where: where2 });
      const databaseName = optionalString(branch, "database_name", { min: 1, max: 63, where: where2 });
      if (branchName !== undefined) input.branchName = branchName;
      if (roleName !== undefined) input.roleName = roleName;
      if (databaseName !== undefined) input.databaseName = databaseName;
    }
    const orgId = optionalId(spec, "org_id", where);
    const { key } = principal;
    if (key.kind === "project") throw forbidden("a project-scoped API key cannot create projects");
    if (key.kind === "organization") {
      if (orgId !== undefined && orgId !== key.org_id) {
        throw forbidden(`this organization API key acts only on organization ${key.org_id ?? ""}`);
      }
      input.orgId = key.org_id as string;
    } else if (orgId !== undefined) {
      if (!store.orgs.has(orgId)) throw notFound(`organization ${orgId} not found`);
      if (store.roleOf(orgId, key.user_id) === undefined)
        throw forbidden(`you are not a member of organization ${orgId}`);
      input.orgId = orgId;
    } else {
      input.ownerUserId = key.user_id;
    }
    input.creatorUserId = key.user_id;
    const created = createProject(ctx, input);
    const now = ctx.clock.now();
    const roles = renderRoles(created.branch).map((r) => ({ ...r, password: created.password }));
    return reply.code(201).send({
      project: renderProject(created.project, now),
      connection_uris: [renderConnectionUri(created.endpoint, created.branch, store, created.password)],
      roles,
      databases: renderDatabases(created.branch),
      operations: created.operations.map((op) => ctx.engine.view(op)),
      branch: renderBranch(created.branch, store, now),
      endpoints: [renderEndpoint(created.endpoint, store, now)],
    });
  });
}
