import assert from "node:assert/strict";
import { createApiClient, EndpointType } from "@neondatabase/api-client";
import { DEMO, type RunningEmulator } from "../../emulator";
import { start } from "./helpers";

// The official client (@neondatabase/api-client, axios) cannot tell the emulator from the service
// on the routes we use.

describe("the official API client against the emulator", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start({ opDurationMs: 100 });
  });
  after(() => emu.stop());

  it("lists projects, branches a project, and reads its operations", async () => {
    const client = createApiClient({ apiKey: DEMO.personalKey, baseURL: emu.url });
    const projects = await client.listProjects({});
    assert.deepEqual(
      projects.data.projects.map((p) => p.id),
      [DEMO.projectId],
    );
    const created = await client.createProjectBranch(DEMO.projectId, {
      branch: { name: "from-official-client" },
      endpoints: [{ type: EndpointType.ReadWrite }],
    });
    assert.equal(created.status, 201);
    const opId = created.data.operations[0]?.id as string;
    emu.control.advance(1000);
    const op = await client.getProjectOperation(DEMO.projectId, opId);
    assert.equal(op.data.operation.status, "finished");
    const page = await client.listProjectOperations({ projectId: DEMO.projectId, limit: 2 });
    assert.equal(page.data.operations.length, 2);
    assert.ok(page.data.pagination?.cursor);
    const deleted = await client.deleteProjectBranch({
      projectId: DEMO.projectId,
      branchId: created.data.branch.id,
    });
    assert.equal(deleted.status, 200);
  });

  it("creates and revokes keys, and surfaces errors with their status", async () => {
    const client = createApiClient({ apiKey: DEMO.personalKey, baseURL: emu.url });
    const key = await client.createApiKey({ key_name: "official" });
    assert.match(key.data.key, /^napi_/);
    const scoped = await client.createOrgApiKey(DEMO.orgId, {
      key_name: "scoped",
      project_id: DEMO.orgProjectId,
    });
    assert.equal(scoped.data.project_id, DEMO.orgProjectId);
    const revoked = await client.revokeApiKey(key.data.id);
    assert.equal(revoked.data.revoked, true);
    await assert.rejects(
      createApiClient({ apiKey: key.data.key, baseURL: emu.url }).listProjects({}),
      (error: { response?: { status: number } }) => error.response?.status === 401,
    );
  });
});
