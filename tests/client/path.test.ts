import assert from "node:assert/strict";
import sinon from "sinon";
import { apiRoute, isInvalidArgument } from "../../provider/client";
import { namedRoute } from "../../provider/client/path";

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
});
