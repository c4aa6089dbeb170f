/** Projects: the listing (every page, with the ids the API could not load). */
import type { ClientContext } from "../context";
import { checkPageSize, DEFAULT_MAX_PAGES, paginate } from "../paginate";
import { apiRoute } from "../path";
import { apiRequest } from "../request";
import { type Project, ProjectsPageSchema } from "../schemas";

/** Query of `listProjects`. `limit` is the page size (1..400). */
export interface ListProjectsQuery {
  search?: string | undefined;
  orgId?: string | undefined;
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

/** `GET /projects`, all pages. Each `for await` starts a fresh listing (and resolves the key then). */
export function listProjects(context: () => ClientContext, query: ListProjectsQuery = {}): ProjectListing {
  const limit = checkPageSize("listProjects limit", query.limit ?? 100, 1, 400);
  let unavailable = new Set<string>();
  return {
    unavailableProjectIds: () => [...unavailable],
    [Symbol.asyncIterator]: () => {
      unavailable = new Set<string>();
      const seen = unavailable;
      const ctx = context();
      const where = query.orgId ? `projects of organization ${query.orgId}` : "projects";
      return paginate({
        what: query.search ? `${where} matching "${query.search}"` : where,
        limit,
        maxPages: query.maxPages ?? DEFAULT_MAX_PAGES,
        maxItems: query.maxItems,
        fetchPage: ({ cursor, limit: pageSize }) =>
          apiRequest(ctx.request, {
            method: "GET",
            route: apiRoute("/projects"),
            query: { limit: pageSize, cursor, search: query.search, org_id: query.orgId },
            schema: ProjectsPageSchema,
          }),
        items: (page) => page.projects,
        nextCursor: (page) => page.pagination?.cursor,
        onPage: (page) => {
          for (const id of page.unavailable_project_ids ?? []) seen.add(id);
        },
      })[Symbol.asyncIterator]();
    },
  };
}
