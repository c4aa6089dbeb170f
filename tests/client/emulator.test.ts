import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { type CloudDbClient, createClient, isNotFound, resetRegistry } from "../../provider/client";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("client against the emulator (happy path)", () => {
  let emulator: RunningEmulator;
  let client: CloudDbClient;
  beforeEach(async () => {
    resetRegistry();
    emulator = await startEmulator({ seed: "demo", opDurationMs: 30 });
    client = createClient({
      apiKey: DEMO.personalKey,
      apiUrl: emulator.url,
      pollIntervalMs: { first: 10, max: 40 },
    });
  });
  afterEach(async () => {
    sinon.restore();
    await emulator.stop();
  });

  it("creates, lists and revokes a personal key", async () => {
    const created = await client.createApiKey({ keyName: "ci" });
    assert.match(created.key, /^napi_[a-z0-9]{64}$/);
    assert.ok((await client.listApiKeys()).some((k) => k.id === created.id));
    const revoked = await client.revokeApiKey(created.id);
    assert.equal(revoked.revoked, true);
    assert.ok(!(await client.listApiKeys()).some((k) => k.id === created.id));
  });

  it("creates, lists and revokes a project-scoped organization key", async () => {
    const created = await client.createOrgApiKey(DEMO.orgId, {
      keyName: "scoped",
      projectId: DEMO.orgProjectId,
    });
    assert.equal(created.project_id, DEMO.orgProjectId);
    const listed = await client.listOrgApiKeys(DEMO.orgId);
    assert.equal(listed.find((k) => k.id === created.id)?.project_id, DEMO.orgProjectId);
    assert.equal((await client.revokeOrgApiKey(DEMO.orgId, created.id)).revoked, true);
  });

  it("lists projects", async () => {
    const projects = await collect(client.listProjects());
    assert.ok(projects.some((p) => p.id === DEMO.projectId));
  });

  it("creates, reads, renames and deletes a branch, waiting for its operations", async () => {
    const created = await client.createBranch(DEMO.projectId, {
      branch: { name: "preview-client", parent_id: DEMO.branchId },
      endpoints: [{ type: "read_write" }],
    });
    const id = created.branch.id;
    assert.deepEqual(created.operations.map((op) => op.action).sort(), ["create_branch", "start_compute"]);
    for (const op of created.operations) {
      assert.equal((await client.getOperation(DEMO.projectId, op.id)).status, "finished");
    }
    assert.equal((await client.getBranch(DEMO.projectId, id)).branch.name, "preview-client");
    const computes = await client.listBranchEndpoints(DEMO.projectId, id);
    assert.deepEqual(
      computes.map((e) => [e.id, e.type, e.current_state]),
      [[created.endpoints[0]!.id, "read_write", "active"]],
    );
    assert.equal((await client.updateBranch(DEMO.projectId, id, { name: "renamed" })).branch.name, "renamed");
    const ops = await collect(client.listOperations(DEMO.projectId, { maxItems: 5 }));
    assert.ok(ops.length > 0);
    await client.deleteBranch(DEMO.projectId, id);
    await assert.rejects(client.getBranch(DEMO.projectId, id), isNotFound);
  });

  it("creates parallel branches in one project without a single 423", async () => {
    const names = ["p-a", "p-b", "p-c", "p-d"];
    const created = await Promise.all(
      names.map((name) => client.createBranch(DEMO.projectId, { branch: { name } })),
    );
    assert.deepEqual(
      created.map((c) => c.branch.name),
      names,
    );
    assert.equal(emulator.control.requests({ status: 423 }).length, 0);
    assert.equal(emulator.control.requests({ route: "POST /projects/{project_id}/branches" }).length, 4);
  });
});
