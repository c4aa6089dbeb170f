import assert from "node:assert/strict";
import sinon from "sinon";
import {
  type CloudDbClient,
  createClient,
  isApiError,
  isNotFound,
  resetRegistry,
} from "../../provider/client";
import { type FakeApi, startFakeApi } from "./support/fakeApi";
import { branch, database, endpoint, operation, project, role, SECRET_KEY } from "./support/fixtures";

// The object families the Project, Endpoint, Role and Database resources and getConnectionUri call,
// against a local HTTP server: the route and body sent, the answer parsed, the started operations
// awaited, a 204 read as already gone, and no password or key in a message.

const P = "hidden-river-50598307";
const B = "br-damp-glitter-adqd4hk5";
const PASSWORD = "AbC123dEf456";

describe("client object families against a local HTTP server", () => {
  let api: FakeApi;
  let client: CloudDbClient;
  beforeEach(async () => {
    resetRegistry();
    api = await startFakeApi();
    client = createClient({ apiKey: SECRET_KEY, apiUrl: api.url, pollIntervalMs: { first: 5, max: 10 } });
  });
  afterEach(async () => {
    sinon.restore();
    await api.stop();
  });

  /** Answers operation polls with `finished`. */
  function operationsFinish(): void {
    api.route("GET", "/projects/:project_id/operations/:operation_id", (_req, params) => ({
      json: {
        operation: operation({ id: params.operation_id, project_id: params.project_id, status: "finished" }),
      },
    }));
  }

  describe("projects", () => {
    it("creates a project, sends the API's body as given, and waits for the operations it started", async () => {
      const started = operation({ project_id: P, action: "start_compute" });
      api.route("POST", "/projects", {
        status: 201,
        json: {
          project: project(P, { history_retention_seconds: 86400 }),
          branch: branch({ project_id: P, parent_id: null, default: true }),
          endpoints: [endpoint()],
          roles: [role({ password: PASSWORD })],
          databases: [database()],
          operations: [started],
          connection_uris: [
            { connection_uri: `postgresql://app:${PASSWORD}@host/appdb`, connection_parameters: {} },
          ],
        },
      });
      operationsFinish();
      const made = await client.createProject({
        project: { name: "shop", region_id: "aws-us-east-2", pg_version: 17 },
      });
      assert.equal(made.project.id, P);
      assert.equal(made.project.history_retention_seconds, 86400);
      assert.equal(made.branch.default, true);
      assert.equal(made.roles[0]?.password, PASSWORD);
      assert.deepEqual(api.requests[0]?.body, {
        project: { name: "shop", region_id: "aws-us-east-2", pg_version: 17 },
      });
      assert.deepEqual(api.log(), ["POST /projects", `GET /projects/${P}/operations/${started.id}`]);
    });

    it("keeps the created project in the error when its operations fail, so it can be recorded", async () => {
      const started = operation({ project_id: P, action: "start_compute" });
      api.route("POST", "/projects", {
        status: 201,
        json: { project: project(P), branch: branch({ project_id: P }), operations: [started] },
      });
      api.route("GET", "/projects/:project_id/operations/:operation_id", {
        json: { operation: { ...started, status: "cancelled" } },
      });
      const err = await client.createProject({ project: {} }).then(
        () => assert.fail("expected a rejection"),
        (e: unknown) => e,
      );
      assert.ok(isApiError(err));
      assert.equal((err.response as { project: { id: string } }).project.id, P);
    });

    it("reads, updates and deletes a project; a delete of a project already gone is null", async () => {
      api.route("GET", "/projects/:project_id", { json: { project: project(P, { org_id: "org-1" }) } });
      api.route("PATCH", "/projects/:project_id", (req) => ({
        json: {
          project: project(P, { name: (req.body as { project: { name: string } }).project.name }),
          operations: [],
        },
      }));
      api.script("DELETE", "/projects/:project_id", [{ json: { project: project(P) } }, { status: 204 }]);
      assert.equal((await client.getProject(P)).org_id, "org-1");
      assert.equal((await client.updateProject(P, { project: { name: "renamed" } })).project.name, "renamed");
      assert.equal((await client.deleteProject(P))?.project.id, P);
      assert.equal(await client.deleteProject(P), null);
    });

    it("reads a connection URI with only the parameters given", async () => {
      api.route("GET", "/projects/:project_id/connection_uri", {
        json: { uri: "postgresql://app:pw@ep-x-pooler.host/appdb" },
      });
      const uri = await client.getConnectionUri(P, { databaseName: "appdb", roleName: "app", pooled: true });
      assert.equal(uri, "postgresql://app:pw@ep-x-pooler.host/appdb");
      const query = Object.fromEntries(api.requests[0]?.query ?? []);
      assert.deepEqual(query, { database_name: "appdb", role_name: "app", pooled: "true" });
    });
  });

  describe("compute endpoints", () => {
    it("creates an endpoint with its settings and waits for start_compute", async () => {
      const started = operation({ project_id: P, action: "start_compute" });
      api.route("POST", "/projects/:project_id/endpoints", {
        status: 201,
        json: {
          endpoint: endpoint({ autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 }),
          operations: [started],
        },
      });
      operationsFinish();
      const made = await client.createEndpoint(P, {
        endpoint: {
          branch_id: B,
          type: "read_only",
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
        },
      });
      assert.deepEqual(
        [made.endpoint.autoscaling_limit_min_cu, made.endpoint.autoscaling_limit_max_cu],
        [0.25, 2],
      );
      assert.deepEqual(api.log(), [
        `POST /projects/${P}/endpoints`,
        `GET /projects/${P}/operations/${started.id}`,
      ]);
    });

    it("reads, lists, updates in place and deletes endpoints", async () => {
      const ep = endpoint({ suspend_timeout_seconds: 300, pooler_enabled: true, some_new_field: { x: 1 } });
      api.route("GET", "/projects/:project_id/endpoints/:endpoint_id", { json: { endpoint: ep } });
      api.route("GET", "/projects/:project_id/endpoints", { json: { endpoints: [ep] } });
      api.route("PATCH", "/projects/:project_id/endpoints/:endpoint_id", {
        json: { endpoint: { ...ep, suspend_timeout_seconds: 60 }, operations: [] },
      });
      api.route("DELETE", "/projects/:project_id/endpoints/:endpoint_id", { status: 204 });
      assert.equal((await client.getEndpoint(P, ep.id)).pooler_enabled, true);
      assert.equal((await client.listEndpoints(P)).length, 1);
      const updated = await client.updateEndpoint(P, ep.id, { endpoint: { suspend_timeout_seconds: 60 } });
      assert.equal(updated.endpoint.suspend_timeout_seconds, 60);
      assert.deepEqual(api.requests[2]?.body, { endpoint: { suspend_timeout_seconds: 60 } });
      assert.equal(await client.deleteEndpoint(P, ep.id), null);
    });
  });

  describe("roles", () => {
    it("creates a role, returns its one-time password, and encodes the name as one path segment", async () => {
      api.route("POST", "/projects/:project_id/branches/:branch_id/roles", {
        status: 201,
        json: { role: role({ password: PASSWORD }), operations: [] },
      });
      api.route("GET", "/projects/:project_id/branches/:branch_id/roles/:role_name", (_req, params) => ({
        json: { role: role({ name: decodeURIComponent(params.role_name ?? "") }) },
      }));
      const made = await client.createRole(P, B, { role: { name: "app" } });
      assert.equal(made.role.password, PASSWORD);
      assert.equal((await client.getRole(P, B, "a/b")).name, "a/b");
      assert.equal(api.log()[1], `GET /projects/${P}/branches/${B}/roles/a%2Fb`);
    });

    it("lists, resets, reveals and deletes roles; a role already gone is null", async () => {
      api.route("GET", "/projects/:project_id/branches/:branch_id/roles", {
        json: { roles: [role(), role({ name: "owner" })] },
      });
      api.route("POST", "/projects/:project_id/branches/:branch_id/roles/:role_name/reset_password", {
        json: { role: role({ password: "NewPass789" }), operations: [] },
      });
      api.route("GET", "/projects/:project_id/branches/:branch_id/roles/:role_name/reveal_password", {
        json: { password: PASSWORD },
      });
      api.route("DELETE", "/projects/:project_id/branches/:branch_id/roles/:role_name", { status: 204 });
      assert.deepEqual(
        (await client.listRoles(P, B)).map((r) => r.name),
        ["app", "owner"],
      );
      assert.equal((await client.resetRolePassword(P, B, "app")).role.password, "NewPass789");
      assert.equal(await client.revealRolePassword(P, B, "app"), PASSWORD);
      assert.equal(await client.deleteRole(P, B, "app"), null);
    });

    it("keeps the password out of the message when the answer does not match the expected shape", async () => {
      api.route("POST", "/projects/:project_id/branches/:branch_id/roles", {
        status: 201,
        json: { role: { password: PASSWORD }, operations: [] },
      });
      const err = await client.createRole(P, B, { role: { name: "app" } }).then(
        () => assert.fail("expected a rejection"),
        (e: Error) => e,
      );
      assert.match(err.message, /role\.name/);
      assert.ok(!err.message.includes(PASSWORD));
      assert.ok(!JSON.stringify(err).includes(PASSWORD));
    });
  });

  describe("databases", () => {
    it("creates, reads, lists, updates and deletes databases", async () => {
      api.route("POST", "/projects/:project_id/branches/:branch_id/databases", {
        status: 201,
        json: { database: database(), operations: [] },
      });
      api.route("GET", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
        json: { database: database() },
      });
      api.route("GET", "/projects/:project_id/branches/:branch_id/databases", {
        json: { databases: [database()] },
      });
      api.route("PATCH", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
        json: { database: database({ owner_name: "owner" }), operations: [] },
      });
      api.route("DELETE", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
        json: { database: database(), operations: [] },
      });
      const made = await client.createDatabase(P, B, { database: { name: "appdb", owner_name: "app" } });
      assert.deepEqual(api.requests[0]?.body, { database: { name: "appdb", owner_name: "app" } });
      assert.equal(made.database.owner_name, "app");
      assert.equal((await client.getDatabase(P, B, "appdb")).id, 7);
      assert.equal((await client.listDatabases(P, B)).length, 1);
      assert.equal(
        (await client.updateDatabase(P, B, "appdb", { database: { owner_name: "owner" } })).database
          .owner_name,
        "owner",
      );
      assert.equal((await client.deleteDatabase(P, B, "appdb"))?.database.name, "appdb");
    });

    it("throws the not-found error for a database that does not exist", async () => {
      api.route("GET", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
        status: 404,
        json: { code: "", message: "database not found" },
      });
      await assert.rejects(client.getDatabase(P, B, "missing"), (e: unknown) => isNotFound(e));
    });
  });

  describe("account", () => {
    it("reads the current user, their organizations and one organization", async () => {
      api.route("GET", "/users/me", {
        json: { id: "u1", email: "dev@example.com", name: "Dev", plan: "free", projects_limit: 10 },
      });
      api.route("GET", "/users/me/organizations", {
        json: {
          organizations: [
            { id: "org-1", name: "Acme", handle: "acme", plan: "scale", managed_by: "console" },
          ],
        },
      });
      api.route("GET", "/organizations/:org_id", { json: { id: "org-1", name: "Acme", handle: "acme" } });
      assert.equal((await client.getCurrentUser()).email, "dev@example.com");
      assert.deepEqual(
        (await client.listMyOrganizations()).map((o) => o.id),
        ["org-1"],
      );
      assert.equal((await client.getOrganization("org-1")).name, "Acme");
    });
  });
});
