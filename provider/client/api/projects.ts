/** Projects: the listing, one project's life, its moves between accounts, and connection strings. */
import { z } from "zod";
import type { ClientContext } from "../context";
import { type MutationOptions, sendMutation, sendMutationOrEmpty, waitForStarted } from "../mutation";
import { checkPageSize, DEFAULT_MAX_PAGES, pages, sendPage } from "../paginate";
import { send, sendOrEmpty } from "../request";
import type { Requests } from "../requests.gen";
import { iterableRoute } from "../route";
import {
  ConnectionUriResponseSchema,
  type Project,
  type ProjectCreateResponse,
  ProjectCreateResponseSchema,
  type ProjectDetail,
  type ProjectRecoverResponse,
  ProjectRecoverResponseSchema,
  type ProjectResponse,
  ProjectResponseSchema,
  ProjectsPageSchema,
  type ProjectTransferRequest,
  ProjectTransferRequestSchema,
  type ProjectUpdateResponse,
  ProjectUpdateResponseSchema,
  type Region,
  RegionsResponseSchema,
} from "../schemas";

/** Query of `listProjects`. `limit` is the page size (1..400). */
export interface ListProjectsQuery {
  search?: string | undefined;
  orgId?: string | undefined;
  /** Only deleted projects that can still be recovered (7 days after their deletion). */
  recoverable?: boolean | undefined;
  /** Page size, 1..400 (default 100). */
  limit?: number | undefined;
  /** Stop after this many projects. */
  maxItems?: number | undefined;
  /** Hard page cap (default 1000). */
  maxPages?: number | undefined;
}

/** Projects as an async iterable; `unavailableProjectIds()` lists ids the API could not load (the list is partial then). */
export interface ProjectListing extends AsyncIterable<Project> {
  /** Ids from `unavailable_project_ids` of the pages read so far by the latest iteration. */
  unavailableProjectIds(): string[];
}

/**
 * `GET /projects`, every page; read `unavailableProjectIds()` after iterating (a non-empty list means
 * partial). Each `for await` starts a fresh listing (and resolves the key then).
 */
export const listProjects = iterableRoute(
  (context: () => ClientContext, query: ListProjectsQuery = {}): ProjectListing => {
    const limit = checkPageSize("listProjects limit", query.limit ?? 100, 1, 400);
    let unavailable = new Set<string>();
    const listing = pages(context, (ctx) => {
      unavailable = new Set<string>();
      const seen = unavailable;
      const projects = query.recoverable === true ? "recoverable projects" : "projects";
      const where = query.orgId ? `${projects} of organization ${query.orgId}` : projects;
      return {
        what: query.search ? `${where} matching "${query.search}"` : where,
        limit,
        maxPages: query.maxPages ?? DEFAULT_MAX_PAGES,
        maxItems: query.maxItems,
        fetchPage: (page) =>
          sendPage(ctx.request, "GET /projects", page, {
            query: { search: query.search, org_id: query.orgId, recoverable: query.recoverable },
            schema: ProjectsPageSchema,
          }),
        items: (page) => page.projects,
        nextCursor: (page) => page.pagination?.cursor,
        onPage: (page) => {
          for (const id of page.unavailable_project_ids ?? []) seen.add(id);
        },
      };
    });
    return {
      unavailableProjectIds: () => [...unavailable],
      [Symbol.asyncIterator]: () => listing[Symbol.asyncIterator](),
    };
  },
);

/**
 * `POST /projects` (201): the project with its default branch, compute, role and database. Waits
 * for the operations that start them unless `wait: false`; a failed wait carries the answer in the
 * error's `response`, so the caller can record the project.
 */
export async function createProject(
  ctx: ClientContext,
  body: Requests["POST /projects"]["Body"],
  options: MutationOptions = {},
): Promise<ProjectCreateResponse> {
  const deadline = options.deadline ?? ctx.deadline;
  const made = await send(ctx.request, "POST /projects", {
    body,
    schema: ProjectCreateResponseSchema,
    deadline,
  });
  return waitForStarted(ctx, made.project.id, made, { ...options, deadline });
}

/** `GET /projects/{project_id}`. */
export async function getProject(ctx: ClientContext, projectId: string): Promise<ProjectDetail> {
  const body = await send(ctx.request, "GET /projects/{project_id}", {
    params: { project_id: projectId },
    schema: ProjectResponseSchema,
  });
  return body.project;
}

/** `PATCH /projects/{project_id}`: name, history retention, default endpoint settings, settings. Queued per project. */
export function updateProject(
  ctx: ClientContext,
  projectId: string,
  body: Requests["PATCH /projects/{project_id}"]["Body"],
  options: MutationOptions = {},
): Promise<ProjectUpdateResponse> {
  return sendMutation(
    ctx,
    "PATCH /projects/{project_id}",
    { params: { project_id: projectId }, body, schema: ProjectUpdateResponseSchema },
    options,
  );
}

/** `DELETE /projects/{project_id}`: deletes the project and everything in it, for good. Queued per project. */
export function deleteProject(
  ctx: ClientContext,
  projectId: string,
  options: MutationOptions = {},
): Promise<ProjectResponse | null> {
  return sendMutationOrEmpty(
    ctx,
    "DELETE /projects/{project_id}",
    { params: { project_id: projectId }, schema: ProjectResponseSchema },
    options,
  );
}

/**
 * `POST /projects/{project_id}/recover`: brings back a project deleted less than 7 days ago, with its
 * branches and computes; 404 for a live project, or one deleted longer ago.
 */
export function recoverProject(ctx: ClientContext, projectId: string): Promise<ProjectRecoverResponse> {
  return send(ctx.request, "POST /projects/{project_id}/recover", {
    params: { project_id: projectId },
    schema: ProjectRecoverResponseSchema,
  });
}

/**
 * `POST /projects/{project_id}/transfer_requests` (201): a request to move the project to another
 * account, valid `ttlSeconds` (the service's default: 24 hours). Only who may give the project away
 * makes one: an admin of its organization (or the organization's key), or a personal project's owner.
 */
export function createProjectTransferRequest(
  ctx: ClientContext,
  projectId: string,
  ttlSeconds?: number,
): Promise<ProjectTransferRequest> {
  return send(ctx.request, "POST /projects/{project_id}/transfer_requests", {
    params: { project_id: projectId },
    body: ttlSeconds === undefined ? {} : { ttl_seconds: ttlSeconds },
    schema: ProjectTransferRequestSchema,
  });
}

/** The acceptance's 204 has no body. */
const NO_BODY = z.unknown();

/**
 * `PUT /projects/{project_id}/transfer_requests/{request_id}` (204): accepts a transfer request; the
 * project moves to organization `orgId` (the caller must be a member, or use its key), or, left
 * out, to the caller's own account. The project keeps its id, branches and computes.
 */
export async function acceptProjectTransferRequest(
  ctx: ClientContext,
  projectId: string,
  requestId: string,
  orgId?: string,
): Promise<void> {
  await sendOrEmpty(ctx.request, "PUT /projects/{project_id}/transfer_requests/{request_id}", {
    params: { project_id: projectId, request_id: requestId },
    body: orgId === undefined ? {} : { org_id: orgId },
    schema: NO_BODY,
  });
}

/** What `getConnectionUri` connects to; left out, the API picks the default branch and its read_write compute. */
export interface ConnectionUriQuery {
  databaseName: string;
  roleName: string;
  branchId?: string | undefined;
  endpointId?: string | undefined;
  /** The pooled host (`-pooler` in its first label). */
  pooled?: boolean | undefined;
}

/** `GET /projects/{project_id}/connection_uri`: a connection string, password included: treat it as a secret. */
export async function getConnectionUri(
  ctx: ClientContext,
  projectId: string,
  query: ConnectionUriQuery,
): Promise<string> {
  const body = await send(ctx.request, "GET /projects/{project_id}/connection_uri", {
    params: { project_id: projectId },
    query: {
      database_name: query.databaseName,
      role_name: query.roleName,
      branch_id: query.branchId,
      endpoint_id: query.endpointId,
      pooled: query.pooled,
    },
    schema: ConnectionUriResponseSchema,
  });
  return body.uri;
}

/** `GET /regions`: the regions projects can be created in (those open to `orgId`, when given). */
export async function listRegions(
  ctx: ClientContext,
  query: { orgId?: string | undefined } = {},
): Promise<Region[]> {
  const body = await send(ctx.request, "GET /regions", {
    query: { org_id: query.orgId },
    schema: RegionsResponseSchema,
  });
  return body.regions;
}
