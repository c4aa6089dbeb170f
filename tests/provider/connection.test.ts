import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { type BranchCreateResponse, createClient, resetRegistry } from "../../provider/client";
import { connectionOf } from "../../provider/resources/connection";
import { useEmulator } from "./support";

// A branch's connection strings: from a create's response where it has them, else read.

describe("connection strings of a branch", () => {
  const harness = useEmulator();
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  let created: BranchCreateResponse;

  before(async () => {
    resetRegistry();
    created = await client().createBranch(DEMO.projectId, {
      branch: { name: "connections" },
      endpoints: [{ type: "read_write" }],
    });
    await client().waitForOperations(DEMO.projectId, created.operations);
  });

  function where() {
    return {
      projectId: DEMO.projectId,
      branchId: created.branch.id,
      endpointId: created.endpoints[0]?.id ?? null,
    };
  }

  async function requestsOf(fn: () => Promise<unknown>): Promise<string[]> {
    harness.emulator.control.clearRequests();
    await fn();
    return harness.emulator.control.requests().map((r) => r.route);
  }

  it("reads roles, databases and both strings without a create's response, and the create's gives the same strings with one read", async () => {
    let read: Awaited<ReturnType<typeof connectionOf>> | undefined;
    const routes = await requestsOf(async () => {
      read = await connectionOf(client(), where());
    });
    assert.deepEqual(routes.sort(), [
      "GET /projects/{project_id}/branches/{branch_id}/databases",
      "GET /projects/{project_id}/branches/{branch_id}/roles",
      "GET /projects/{project_id}/connection_uri",
      "GET /projects/{project_id}/connection_uri",
    ]);
    let given: typeof read;
    const fewer = await requestsOf(async () => {
      given = await connectionOf(client(), where(), created);
    });
    assert.deepEqual(fewer, ["GET /projects/{project_id}/connection_uri"], "only the pooled one");
    assert.deepEqual(given, read);
    assert.match(read?.connectionUri ?? "", /^postgresql:\/\//);
  });

  it("reads the direct string when the response's is for another role, database or endpoint", async () => {
    const uri = created.connection_uris?.[0];
    assert.ok(uri, "the create's response has a connection URI");
    const params = uri.connection_parameters ?? {};
    for (const other of [
      { ...params, role: "someone_else" },
      { ...params, database: "other_db" },
      { ...params, host: `ep-other-endpoint.${String(params["host"]).split(".").slice(1).join(".")}` },
    ]) {
      const routes = await requestsOf(() =>
        connectionOf(client(), where(), {
          ...created,
          connection_uris: [{ connection_uri: "postgresql://wrong@nowhere/x", connection_parameters: other }],
        }).then((c) => assert.notEqual(c.connectionUri, "postgresql://wrong@nowhere/x")),
      );
      assert.deepEqual(routes, [
        "GET /projects/{project_id}/connection_uri",
        "GET /projects/{project_id}/connection_uri",
      ]);
    }
  });
});
