import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { isApiError, isNotFound } from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";

// The object families the Project, Endpoint, Role and Database resources and getConnectionUri call,
// against the emulator: the body sent as the service stores it, the answer parsed, the started
// operations ended before a call resolves, an object already gone read as null, and no password in
// a message.

const P = DEMO.projectId;

describe("client object families against the emulator", () => {
  const harness = useEmulatorClient();
  const client = () => harness.client();
  const control = () => harness.emulator.control;
  const dumpState = () => control().dumpState();
  afterEach(() => sinon.restore());

  /** Asserts every operation in `ids` has ended. */
  function ended(ids: readonly string[], what: string): void {
    assert.ok(ids.length > 0, `${what} started operations`);
    for (const op of dumpState().operations.filter((o) => ids.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before ${what} resolved`);
  }

  /** A fresh branch of the demo project, for roles, databases and computes. */
  async function scratchBranch(name: string): Promise<string> {
    const made = await client().createBranch(P, { branch: { name, parent_id: DEMO.branchId } });
    control().clearRequests();
    return made.branch.id;
  }

  describe("projects", () => {
    it("creates a project, sends the API's body as given, and waits for the operations it started", async () => {
      const made = await client().createProject({
        project: { name: "shop", region_id: "aws-eu-central-1", pg_version: 16 },
      });
      const stored = dumpState().projects.find((p) => p.id === made.project.id);
      assert.deepEqual(
        [stored?.name, stored?.region_id, stored?.pg_version],
        ["shop", "aws-eu-central-1", 16],
      );
      assert.equal(made.branch.default, true);
      assert.match(made.roles[0]?.password ?? "", /.{8,}/);
      assert.match(made.connection_uris?.[0]?.connection_uri ?? "", /^postgres(ql)?:\/\//);
      ended(
        made.operations.map((op) => op.id),
        "createProject",
      );
      assert.equal(control().requests({ method: "POST" }).length, 1);
    });

    it("keeps the created project in the error when its operations fail, so it can be recorded", async () => {
      control().scriptOperations({ count: 1 }, { kind: "cancelled" });
      const err = await client()
        .createProject({ project: { name: "half-made" } })
        .then(
          () => assert.fail("expected a rejection"),
          (e: unknown) => e,
        );
      assert.ok(isApiError(err));
      const id = (err.response as { project: { id: string } }).project.id;
      assert.equal(dumpState().projects.find((p) => p.name === "half-made")?.id, id);
    });

    it("reads, updates and deletes a project; a delete of a project already gone is null", async () => {
      const { project } = await client().createProject({ project: { name: "short-lived" } });
      assert.equal((await client().getProject(project.id)).name, "short-lived");
      const renamed = await client().updateProject(project.id, { project: { name: "renamed" } });
      assert.equal(renamed.project.name, "renamed");
      assert.equal((await client().deleteProject(project.id))?.project.id, project.id);
      assert.notEqual(dumpState().projects.find((p) => p.id === project.id)?.deleted_at_ms, undefined);
      control().failNext("DELETE /projects/{project_id}", { status: 204, body: "" });
      assert.equal(await client().deleteProject(project.id), null);
    });

    it("reads a connection URI with only the parameters given", async () => {
      const uri = await client().getConnectionUri(P, {
        databaseName: "neondb",
        roleName: "neondb_owner",
        pooled: true,
      });
      assert.match(
        uri,
        new RegExp(`^postgresql://neondb_owner:[^@]+@${DEMO.endpointId}-pooler\\.[^/]+/neondb`),
      );
      const query = new URLSearchParams(control().requests()[0]?.query);
      assert.deepEqual(Object.fromEntries(query), {
        database_name: "neondb",
        role_name: "neondb_owner",
        pooled: "true",
      });
    });
  });

  describe("compute endpoints", () => {
    it("creates an endpoint with its settings and waits for start_compute", async () => {
      const branchId = await scratchBranch("compute-create");
      const made = await client().createEndpoint(P, {
        endpoint: {
          branch_id: branchId,
          type: "read_only",
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
        },
      });
      assert.deepEqual(
        [made.endpoint.autoscaling_limit_min_cu, made.endpoint.autoscaling_limit_max_cu],
        [0.25, 2],
      );
      const stored = dumpState().endpoints.find((e) => e.id === made.endpoint.id);
      assert.deepEqual([stored?.type, stored?.compute?.autoscaling_limit_max_cu], ["read_only", 2]);
      ended(
        made.operations.map((op) => op.id),
        "createEndpoint",
      );
      assert.equal(control().requests({ method: "POST" }).length, 1);
    });

    it("reads, lists, updates in place and deletes endpoints; one already gone is null", async () => {
      const branchId = await scratchBranch("compute-cycle");
      const { endpoint } = await client().createEndpoint(P, {
        endpoint: { branch_id: branchId, type: "read_only" },
      });
      assert.equal((await client().getEndpoint(P, endpoint.id)).branch_id, branchId);
      assert.ok((await client().listEndpoints(P)).some((e) => e.id === endpoint.id));
      const updated = await client().updateEndpoint(P, endpoint.id, {
        endpoint: { suspend_timeout_seconds: 600 },
      });
      assert.equal(updated.endpoint.suspend_timeout_seconds, 600);
      assert.equal(
        dumpState().endpoints.find((e) => e.id === endpoint.id)?.compute?.suspend_timeout_seconds,
        600,
      );
      assert.equal((await client().deleteEndpoint(P, endpoint.id))?.endpoint.id, endpoint.id);
      assert.equal(
        dumpState().endpoints.some((e) => e.id === endpoint.id),
        false,
      );
      control().failNext("DELETE /projects/{project_id}/endpoints/{endpoint_id}", { status: 204, body: "" });
      assert.equal(await client().deleteEndpoint(P, endpoint.id), null);
    });
  });

  describe("roles", () => {
    it("creates a role, returns its one-time password, and encodes the name as one path segment", async () => {
      const branchId = await scratchBranch("roles-create");
      const made = await client().createRole(P, branchId, { role: { name: "app" } });
      const stored = dumpState()
        .branches.find((b) => b.id === branchId)
        ?.roles.find((r) => r.name === "app");
      assert.equal(made.role.password, stored?.password);
      await assert.rejects(client().getRole(P, branchId, "a/b"), isNotFound);
      assert.equal(harness.log().at(-1), `GET /projects/${P}/branches/${branchId}/roles/a%2Fb`);
    });

    it("lists, resets, reveals and deletes roles; a role already gone is null", async () => {
      const branchId = await scratchBranch("roles-cycle");
      const made = await client().createRole(P, branchId, { role: { name: "app" } });
      assert.ok((await client().listRoles(P, branchId)).some((r) => r.name === "app"));
      const reset = await client().resetRolePassword(P, branchId, "app");
      assert.notEqual(reset.role.password, made.role.password);
      assert.equal(await client().revealRolePassword(P, branchId, "app"), reset.role.password);
      await client().deleteRole(P, branchId, "app");
      assert.equal(
        dumpState()
          .branches.find((b) => b.id === branchId)
          ?.roles.some((r) => r.name === "app"),
        false,
      );
      control().failNext("DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
        status: 204,
        body: "",
      });
      assert.equal(await client().deleteRole(P, branchId, "app"), null);
    });

    it("keeps the password out of the message when the answer does not match the expected shape", async () => {
      const branchId = await scratchBranch("roles-shape");
      const password = "AbC123dEf456";
      control().failNext("POST /projects/{project_id}/branches/{branch_id}/roles", {
        status: 201,
        body: { role: { password }, operations: [] },
      });
      const err = await client()
        .createRole(P, branchId, { role: { name: "app" } })
        .then(
          () => assert.fail("expected a rejection"),
          (e: Error) => e,
        );
      assert.match(err.message, /role\.name/);
      assert.ok(!err.message.includes(password));
      assert.ok(!JSON.stringify(err).includes(password));
    });
  });

  describe("databases", () => {
    it("creates, reads, lists, updates and deletes databases", async () => {
      const branchId = await scratchBranch("databases-cycle");
      await client().createRole(P, branchId, { role: { name: "app" } });
      await client().createRole(P, branchId, { role: { name: "owner" } });
      const stored = () => dumpState().branches.find((b) => b.id === branchId)?.databases ?? [];
      const made = await client().createDatabase(P, branchId, {
        database: { name: "appdb", owner_name: "app" },
      });
      assert.equal(made.database.owner_name, "app");
      assert.equal(stored().find((d) => d.name === "appdb")?.owner_name, "app");
      assert.equal((await client().getDatabase(P, branchId, "appdb")).id, made.database.id);
      assert.ok((await client().listDatabases(P, branchId)).some((d) => d.id === made.database.id));
      const updated = await client().updateDatabase(P, branchId, "appdb", {
        database: { owner_name: "owner" },
      });
      assert.equal(updated.database.owner_name, "owner");
      assert.equal(stored().find((d) => d.name === "appdb")?.owner_name, "owner");
      assert.equal((await client().deleteDatabase(P, branchId, "appdb"))?.database.name, "appdb");
      assert.equal(
        stored().some((d) => d.name === "appdb"),
        false,
      );
    });

    it("throws the not-found error for a database that does not exist", async () => {
      await assert.rejects(client().getDatabase(P, DEMO.branchId, "missing"), (e: unknown) => isNotFound(e));
    });
  });

  describe("account", () => {
    it("reads the current user, their organizations and one organization", async () => {
      const user = dumpState().users.find((u) => u.id === DEMO.userId);
      assert.equal((await client().getCurrentUser()).email, user?.email);
      assert.deepEqual(
        (await client().listMyOrganizations()).map((o) => o.id),
        [DEMO.orgId],
      );
      const org = dumpState().organizations.find((o) => o.id === DEMO.orgId);
      assert.equal((await client().getOrganization(DEMO.orgId)).name, org?.name);
    });
  });
});
