import assert from "node:assert/strict";
import sinon from "sinon";
import { type CloudDbClient, createClient, resetRegistry } from "../../provider/client";
import { packageVersion } from "../../provider/client/version";
import { type FakeApi, startFakeApi } from "./support/fakeApi";
import { branch, endpoint, operation, project, SECRET_KEY } from "./support/fixtures";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("client API functions against a local HTTP server", () => {
  let api: FakeApi;
  let client: CloudDbClient;
  beforeEach(async () => {
    resetRegistry();
    api = await startFakeApi();
    client = createClient({ apiKey: SECRET_KEY, apiUrl: api.url, pollIntervalMs: { first: 5, max: 20 } });
  });
  afterEach(async () => {
    sinon.restore();
    await api.stop();
  });

  it("sends Bearer auth, JSON headers, our User-Agent and an X-Request-ID", async () => {
    api.route("POST", "/api_keys", {
      json: {
        id: 1,
        key: "napi_newsecret",
        name: "ci",
        created_at: "2025-01-01T00:00:00Z",
        created_by: "u-1",
      },
    });
    await client.createApiKey({ keyName: "ci" });
    const headers = api.requests[0]?.headers ?? {};
    assert.equal(headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(headers.accept, "application/json");
    assert.match(String(headers["content-type"]), /^application\/json/);
    assert.equal(headers["user-agent"], `pulumi-clouddb/${packageVersion()}`);
    assert.equal(packageVersion(), "0.1.0");
    assert.match(String(headers["x-request-id"]), /^[0-9a-f-]{36}$/);
  });

  it("createApiKey posts key_name and returns the one-time secret", async () => {
    api.route("POST", "/api_keys", {
      json: {
        id: 165432,
        key: "napi_newsecret",
        name: "ci",
        created_at: "2025-01-01T00:00:00Z",
        created_by: "u-1",
      },
    });
    const created = await client.createApiKey({ keyName: "ci" });
    assert.deepEqual(api.requests[0]?.body, { key_name: "ci" });
    assert.equal(created.id, 165432);
    assert.equal(created.key, "napi_newsecret");
    assert.equal(created.created_by, "u-1");
  });

  it("listApiKeys reads the bare array with created_by objects and a null last_used_at", async () => {
    api.route("GET", "/api_keys", {
      json: [
        {
          id: 1,
          name: "ci",
          created_at: "2025-01-01T00:00:00Z",
          created_by: { id: "u-1", name: "Ada", image: "" },
          last_used_at: null,
          last_used_from_addr: "",
        },
      ],
    });
    const keys = await client.listApiKeys();
    assert.equal(keys.length, 1);
    assert.deepEqual(keys[0]?.created_by, { id: "u-1", name: "Ada", image: "" });
    assert.equal(keys[0]?.last_used_at, undefined);
  });

  it("revokeApiKey deletes /api_keys/{key_id}", async () => {
    api.route("DELETE", "/api_keys/:key_id", (_r, p) => ({
      json: {
        id: Number(p.key_id),
        name: "ci",
        created_at: "2025-01-01T00:00:00Z",
        created_by: "u-1",
        last_used_at: "2025-01-02T00:00:00Z",
        last_used_from_addr: "192.0.2.1",
        revoked: true,
      },
    }));
    const revoked = await client.revokeApiKey(42);
    assert.deepEqual(api.log(), ["DELETE /api_keys/42"]);
    assert.equal(revoked.revoked, true);
    assert.equal(revoked.id, 42);
  });

  it("createOrgApiKey sends project_id for a project-scoped key", async () => {
    api.route("POST", "/organizations/:org_id/api_keys", (r) => ({
      json: {
        id: 7,
        key: "napi_orgsecret",
        name: "scoped",
        created_at: "2025-01-01T00:00:00Z",
        created_by: "u-1",
        ...(r.body as object),
      },
    }));
    const created = await client.createOrgApiKey("org-morning-bread-81040908", {
      keyName: "scoped",
      projectId: "p-1",
    });
    assert.deepEqual(api.log(), ["POST /organizations/org-morning-bread-81040908/api_keys"]);
    assert.deepEqual(api.requests[0]?.body, { key_name: "scoped", project_id: "p-1" });
    assert.equal(created.project_id, "p-1");
    await client.createOrgApiKey("org-1", { keyName: "org-wide" });
    assert.deepEqual(api.requests[1]?.body, { key_name: "org-wide" });
  });

  it("listOrgApiKeys and revokeOrgApiKey use the organization paths", async () => {
    api.route("GET", "/organizations/:org_id/api_keys", {
      json: [
        {
          id: 7,
          name: "scoped",
          created_at: "2025-01-01T00:00:00Z",
          created_by: { id: "u", name: "n", image: "" },
          last_used_from_addr: "",
          project_id: "p-1",
        },
      ],
    });
    api.route("DELETE", "/organizations/:org_id/api_keys/:key_id", {
      json: {
        id: 7,
        name: "scoped",
        created_at: "x",
        created_by: "u",
        last_used_from_addr: "",
        revoked: true,
        project_id: "p-1",
      },
    });
    const keys = await client.listOrgApiKeys("org-1");
    assert.equal(keys[0]?.project_id, "p-1");
    const revoked = await client.revokeOrgApiKey("org-1", 7);
    assert.equal(revoked.revoked, true);
    assert.deepEqual(api.log(), [
      "GET /organizations/org-1/api_keys",
      "DELETE /organizations/org-1/api_keys/7",
    ]);
  });

  it("listProjects pages through GET /projects", async () => {
    api.route("GET", "/projects", (r) =>
      r.query.get("cursor") === null
        ? {
            json: {
              projects: [project("p-1"), project("p-2")],
              pagination: { cursor: "p-2" },
              applications: {},
              integrations: {},
            },
          }
        : { json: { projects: [], pagination: { cursor: "p-2" } } },
    );
    const projects = await collect(client.listProjects({ limit: 2 }));
    assert.deepEqual(
      projects.map((p) => p.id),
      ["p-1", "p-2"],
    );
    assert.equal(api.requests[1]?.query.get("cursor"), "p-2");
  });

  it("createBranch posts the API body, returns 201's parts and waits for the operations it started", async () => {
    let polls = 0;
    api.route("POST", "/projects/:project_id/branches", {
      status: 201,
      json: {
        branch: branch(),
        endpoints: [endpoint()],
        operations: [
          operation({ id: "op-create", action: "create_branch", status: "finished" }),
          operation({
            id: "op-start",
            action: "start_compute",
            status: "scheduling",
            endpoint_id: "ep-silent-smoke-806639",
          }),
        ],
        roles: [{ branch_id: "br-damp-glitter-adqd4hk5", name: "app", protected: false }],
        databases: [{ id: 1, branch_id: "br-damp-glitter-adqd4hk5", name: "app", owner_name: "app" }],
        connection_uris: [{ connection_uri: "postgres://app:pw@host/app", connection_parameters: {} }],
      },
    });
    api.route("GET", "/projects/:project_id/operations/:operation_id", (_r, p) => ({
      json: { operation: operation({ id: p.operation_id, status: ++polls >= 2 ? "finished" : "running" }) },
    }));
    const progress: string[] = [];
    const body = { branch: { name: "preview-1", parent_id: "br-main" }, endpoints: [{ type: "read_write" }] };
    const created = await client.createBranch("hidden-river-50598307", body, {
      onProgress: (op) => progress.push(`${op.id}:${op.status}`),
    });
    assert.deepEqual(api.requests[0]?.body, body);
    assert.equal(created.branch.id, "br-damp-glitter-adqd4hk5");
    assert.equal(created.endpoints[0]?.type, "read_write");
    assert.equal(created.roles[0]?.name, "app");
    assert.equal(created.databases[0]?.name, "app");
    assert.equal(created.connection_uris?.length, 1);
    assert.deepEqual(api.log(), [
      "POST /projects/hidden-river-50598307/branches",
      "GET /projects/hidden-river-50598307/operations/op-start",
      "GET /projects/hidden-river-50598307/operations/op-start",
    ]);
    assert.deepEqual(progress, [
      "op-create:finished",
      "op-start:scheduling",
      "op-start:running",
      "op-start:finished",
    ]);
  });

  it("getBranch reads {branch, annotation}", async () => {
    api.route("GET", "/projects/:project_id/branches/:branch_id", {
      json: { branch: branch({ default: true }), annotation: { value: {} } },
    });
    const got = await client.getBranch("hidden-river-50598307", "br-damp-glitter-adqd4hk5");
    assert.equal(got.branch.default, true);
    assert.deepEqual(api.log(), ["GET /projects/hidden-river-50598307/branches/br-damp-glitter-adqd4hk5"]);
  });

  it("encodes ids so they cannot change the path on the wire", async () => {
    api.route("GET", "/projects/:project_id/branches/:branch_id", { json: { branch: branch() } });
    await client.getBranch("p1", "../../api_keys");
    assert.deepEqual(api.log(), ["GET /projects/p1/branches/..%2F..%2Fapi_keys"]);
  });

  it("updateBranch patches {branch: {name}}", async () => {
    api.route("PATCH", "/projects/:project_id/branches/:branch_id", (r) => ({
      json: {
        branch: branch({ name: (r.body as { branch: { name: string } }).branch.name }),
        operations: [],
      },
    }));
    const updated = await client.updateBranch("p1", "br-1", { name: "renamed" });
    assert.deepEqual(api.requests[0]?.body, { branch: { name: "renamed" } });
    assert.equal(updated.branch.name, "renamed");
  });

  it("updateBranch sends only the fields given, and null to remove an expiry", async () => {
    api.route("PATCH", "/projects/:project_id/branches/:branch_id", {
      json: { branch: branch(), operations: [] },
    });
    await client.updateBranch("p1", "br-1", { protected: true, expires_at: null });
    assert.deepEqual(api.requests[0]?.body, { branch: { protected: true, expires_at: null } });
  });

  it("restoreBranch posts the source to .../restore and waits for the operations it started", async () => {
    api.route("POST", "/projects/:project_id/branches/:branch_id/restore", {
      json: {
        branch: branch(),
        operations: [operation({ id: "op-r", action: "create_branch", status: "running" })],
      },
    });
    api.route("GET", "/projects/:project_id/operations/:operation_id", {
      json: { operation: operation({ id: "op-r", action: "create_branch", status: "finished" }) },
    });
    const restored = await client.restoreBranch("p1", "br-1", { source_branch_id: "br-parent" });
    assert.deepEqual(api.requests[0]?.body, { source_branch_id: "br-parent" });
    assert.deepEqual(api.log(), [
      "POST /projects/p1/branches/br-1/restore",
      "GET /projects/p1/operations/op-r",
    ]);
    assert.equal(restored.branch.id, branch().id);
  });

  it("deleteBranch returns the body of a 200 and null for a 204", async () => {
    api.script("DELETE", "/projects/:project_id/branches/:branch_id", [
      {
        json: {
          branch: branch(),
          operations: [operation({ action: "suspend_compute", status: "finished" })],
        },
      },
      { status: 204 },
    ]);
    const first = await client.deleteBranch("p1", "br-1");
    assert.equal(first?.operations[0]?.action, "suspend_compute");
    assert.equal(await client.deleteBranch("p1", "br-1"), null);
  });

  it("listOperations, getOperation and waitForOperations read the operations resource", async () => {
    api.route("GET", "/projects/:project_id/operations", {
      json: {
        operations: [operation({ id: "o1", status: "running" })],
        pagination: { cursor: "2025-01-01T00:00:00.123456Z" },
      },
    });
    api.route("GET", "/projects/:project_id/operations/:operation_id", (_r, p) => ({
      json: { operation: operation({ id: p.operation_id, status: "finished" }) },
    }));
    const ops = await collect(client.listOperations("p1", { pageSize: 10 }));
    assert.equal(api.requests[0]?.query.get("limit"), "10");
    assert.equal((await client.getOperation("p1", "o1")).status, "finished");
    const waited = await client.waitForOperations("p1", ops);
    assert.equal(waited[0]?.status, "finished");
  });
});
