import assert from "node:assert/strict";
import sinon from "sinon";
import { z } from "zod";
import { apiRoute, isInvalidArgument } from "../../provider/client";
import type { ProjectRouteName } from "../../provider/client/mutation";
import type { PagedRouteName, PageParts } from "../../provider/client/paginate";
import { namedRoute, type RouteName, type RouteParams } from "../../provider/client/path";
import type { RouteRequest } from "../../provider/client/request";

describe("client path parameters", () => {
  afterEach(() => sinon.restore());

  it("returns the concrete path and its template", () => {
    assert.deepEqual(
      apiRoute("/projects/{project_id}/branches/{branch_id}", { project_id: "p-1", branch_id: "br-2" }),
      {
        path: "/projects/p-1/branches/br-2",
        template: "/projects/{project_id}/branches/{branch_id}",
      },
    );
  });

  it("encodes an id so it can never add a segment, a query or a fragment", () => {
    const { path } = apiRoute("/projects/{project_id}/operations", { project_id: "a/b?c=d#e f" });
    assert.equal(path, "/projects/a%2Fb%3Fc%3Dd%23e%20f/operations");
    assert.equal(path.split("/").length, 4);
  });

  for (const bad of ["", ".", ".."]) {
    it(`refuses the id ${JSON.stringify(bad)}`, () => {
      assert.throws(() => apiRoute("/projects/{project_id}", { project_id: bad }), isInvalidArgument);
    });
  }

  it("accepts non-negative integer key ids only", () => {
    assert.equal(apiRoute("/api_keys/{key_id}", { key_id: 42 }).path, "/api_keys/42");
    for (const bad of [-1, 1.5, Number.NaN]) {
      assert.throws(() => apiRoute("/api_keys/{key_id}", { key_id: bad }), isInvalidArgument);
    }
  });

  it("refuses a missing parameter", () => {
    assert.throws(() => apiRoute("/projects/{project_id}", {}), isInvalidArgument);
  });
});

// A request is named by its route's documented name, which types its parts: what the compiler
// refuses in one (`npm run typecheck` checks the `@ts-expect-error` lines below: each must be an error).

const S = z.unknown();
/** A request to route `name` as `send` takes it. */
const request = <R extends RouteName>(_name: R, parts: RouteRequest<NoInfer<R>, typeof S>) => parts;
/** A page's request to route `name` as `sendPage` takes it. */
const page = <R extends PagedRouteName>(_name: R, parts: PageParts<NoInfer<R>, typeof S>) => parts;

/** The parameter names a template writes (`{project_id}`). */
type Named<T> = T extends `${string}{${infer P}}${infer Rest}` ? P | Named<Rest> : never;
/** The routes whose request type has other parameters than its template names: none. */
type Mismatched = {
  [R in RouteName]: string extends keyof RouteParams<R>
    ? [Named<R>] extends [never]
      ? never
      : R
    : [Named<R>] extends [keyof RouteParams<R>]
      ? [Exclude<keyof RouteParams<R>, Named<R>>] extends [never]
        ? never
        : R
      : R;
}[RouteName];

describe("client routes by their documented name", () => {
  it("take the method and template from the name, and fill the path by apiRoute's rules", () => {
    assert.deepEqual(
      namedRoute("PATCH /projects/{project_id}/branches/{branch_id}", {
        project_id: "a/b",
        branch_id: "br-2",
      }),
      {
        method: "PATCH",
        route: {
          path: "/projects/a%2Fb/branches/br-2",
          template: "/projects/{project_id}/branches/{branch_id}",
        },
      },
    );
    assert.deepEqual(namedRoute("GET /users/me"), {
      method: "GET",
      route: { path: "/users/me", template: "/users/me" },
    });
    assert.equal(namedRoute("DELETE /api_keys/{key_id}", { key_id: 7 }).route.path, "/api_keys/7");
    assert.throws(() => namedRoute("GET /projects/{project_id}", { project_id: ".." }), isInvalidArgument);
  });

  it("type each part of a request by the route", () => {
    const none: [Mismatched] extends [never] ? true : false = true;
    assert.equal(none, true);
    request("GET /organizations/{org_id}", { params: { org_id: "org-1" }, schema: S });
    request("GET /projects", { query: { limit: 1, search: "a" }, schema: S });
    request("POST /api_keys", { body: { key_name: "ci" }, schema: S });
    page("GET /projects", { query: { search: "a" }, schema: S });
    // @ts-expect-error a route the document does not name
    request("GET /organization/{org_id}", { params: { org_id: "org-1" }, schema: S });
    // @ts-expect-error a missing path parameter
    request("GET /organizations/{org_id}", { schema: S });
    // @ts-expect-error a misspelt path parameter
    request("GET /organizations/{org_id}", { params: { orgid: "org-1" }, schema: S });
    // @ts-expect-error a path parameter of another type (key ids are integers)
    request("DELETE /api_keys/{key_id}", { params: { key_id: "7" }, schema: S });
    // @ts-expect-error path parameters for a route without any
    request("GET /users/me", { params: { id: "me" }, schema: S });
    // @ts-expect-error a query parameter the route does not have
    request("GET /projects", { query: { limt: 1 }, schema: S });
    // @ts-expect-error a query for a route without one
    request("GET /users/me", { query: { limit: 1 }, schema: S });
    // @ts-expect-error a query without a parameter the route requires
    request("GET /consumption_history/v2/projects", { schema: S });
    // @ts-expect-error a body for a route without one
    request("GET /users/me", { body: {}, schema: S });
    // @ts-expect-error a body field of another type
    request("POST /api_keys", { body: { key_name: 7 }, schema: S });
    // @ts-expect-error a body field the route does not have
    request("POST /api_keys", { body: { key_name: "ci", scope: "all" }, schema: S });
    // @ts-expect-error a page's limit is the listing's
    page("GET /projects", { query: { limit: 1 }, schema: S });
    // @ts-expect-error a listing on a route without a cursor
    page("GET /projects/{project_id}/branches/{branch_id}/schema", {
      params: { project_id: "p-1", branch_id: "br-1" },
      query: { db_name: "app" },
      schema: S,
    });
    // @ts-expect-error a mutation is queued on its project: its route names one
    const personal: ProjectRouteName = "POST /api_keys";
    assert.equal(personal, "POST /api_keys");
  });
});
