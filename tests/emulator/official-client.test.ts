import assert from "node:assert/strict";
import { createApiClient, EndpointType, MemberRole } from "@neondatabase/api-client";
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

  it("runs an organization: its members' roles, a removal, invitations and the spending limit", async () => {
    const admin = createApiClient({ apiKey: DEMO.orgKey, baseURL: emu.url });
    const members = await admin.getOrganizationMembers({
      orgId: DEMO.orgId,
      sort_by: "role",
      sort_order: "asc",
    });
    assert.deepEqual(
      members.data.members.map((m) => [m.user.email, m.member.role]),
      [
        ["demo@example.com", "admin"],
        ["casey@example.com", "member"],
      ],
    );
    const casey = members.data.members[1]?.member.id as string;
    const promoted = await admin.updateOrganizationMember(DEMO.orgId, casey, { role: MemberRole.Admin });
    assert.equal(promoted.data.role, "admin");
    assert.equal((await admin.getOrganizationMember(DEMO.orgId, casey)).data.role, "admin");
    assert.equal((await admin.removeOrganizationMember(DEMO.orgId, casey)).status, 200);
    await assert.rejects(
      admin.getOrganizationMember(DEMO.orgId, casey),
      (error: { response?: { status: number } }) => error.response?.status === 404,
    );

    const invited = await admin.createOrganizationInvitations(DEMO.orgId, {
      invitations: [{ email: "casey@example.com", role: MemberRole.Member }],
    });
    assert.equal(invited.data.invitations[0]?.email, "casey@example.com");
    assert.deepEqual(
      (await admin.getOrganizationInvitations(DEMO.orgId)).data.invitations.map((i) => i.role),
      ["member"],
    );
    await assert.rejects(
      createApiClient({ apiKey: DEMO.memberPersonalKey, baseURL: emu.url }).setOrganizationSpendingLimit(
        DEMO.orgId,
        { spending_limit_cents: 100 },
      ),
      (error: { response?: { status: number } }) => error.response?.status === 403,
      "casey is back as a member, who cannot set the limit",
    );
    await admin.setOrganizationSpendingLimit(DEMO.orgId, { spending_limit_cents: 25_000 });
    assert.equal((await admin.getOrganizationSpendingLimit(DEMO.orgId)).data.spending_limit_cents, 25_000);
    assert.equal((await admin.deleteOrganizationSpendingLimit(DEMO.orgId)).status, 200);
    assert.equal((await admin.getOrganizationSpendingLimit(DEMO.orgId)).data.spending_limit_cents, null);
  });
});
