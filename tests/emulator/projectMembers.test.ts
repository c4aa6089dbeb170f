import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNeonClient } from "@neon/sdk";
import { DEMO, demoSeed, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// A project's members and their roles (docs/api-rules.md §20): what each member holds on an
// organization's project and where it comes from, an explicit role set and removed, who may do it,
// the confirmation a change of one's own role needs, and @neon/sdk's own client on these routes.

const P = `/projects/${DEMO.orgProjectId}`;

/** The project's members by email. */
async function members(client: ReturnType<typeof api>): Promise<Record<string, Json>> {
  const listed = await client.get(`${P}/members`);
  assert.equal(listed.status, 200, listed.text);
  return Object.fromEntries((listed.body.project_members as Json[]).map((m) => [m.email, m]));
}

describe("emulator: project members and their roles", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("lists the organization's members with their organization role, its default, and what they hold", async () => {
    emu = await start();
    const listed = await members(api(emu, DEMO.personalKey));
    assert.deepEqual(
      Object.values(listed).map((m) => [
        m.email,
        m.org_role,
        m.org_default_project_permission,
        m.effective_project_permission,
        m.grant_source,
      ]),
      [
        ["casey@example.com", "member", "EDITOR", "EDITOR", "org_role_default"],
        ["demo@example.com", "admin", "ADMIN", "ADMIN", "org_admin_override"],
      ],
    );
    assert.equal(listed["casey@example.com"].project_role, undefined, "no explicit role yet");
    assert.equal(
      (await api(emu, DEMO.personalKey).get(`/projects/${DEMO.projectId}/members`)).status,
      404,
      "a personal project has no members",
    );
  });

  it("sets an explicit role, which the member then holds, and removing it falls back to the default (again: a no-op)", async () => {
    emu = await start();
    const admin = api(emu, DEMO.orgKey);
    const casey = (await members(admin))["casey@example.com"];
    const role = `${P}/members/${casey.member_id}/role`;
    const set = await admin.put(role, { role: "viewer" });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(
      [
        set.body.project_id,
        set.body.project_role,
        set.body.explicit_project_permission,
        set.body.effective_project_permission,
      ],
      [DEMO.orgProjectId, "viewer", "VIEWER", "VIEWER"],
    );
    assert.equal(set.body.credential_rotation_recommended, true, "EDITOR down to VIEWER");
    const listed = (await members(admin))["casey@example.com"];
    assert.deepEqual([listed.project_role, listed.grant_source], ["viewer", "explicit"]);
    const raised = await admin.put(role, { role: "admin" });
    assert.equal(raised.body.credential_rotation_recommended, false, "nothing was lowered");
    for (const _ of [1, 2]) {
      const removed = await admin.delete(role);
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual(
        [removed.body.project_role, removed.body.effective_project_permission],
        [undefined, "EDITOR"],
      );
    }
    assert.equal((await members(admin))["casey@example.com"].grant_source, "org_role_default");
    assert.equal((await admin.put(`${P}/members/not-a-member/role`, { role: "viewer" })).status, 404);
    assert.equal((await admin.put(role, { role: "owner" })).status, 400, "a role the SDK does not list");
  });

  it("keeps an organization admin at ADMIN whatever the explicit role", async () => {
    emu = await start();
    const admin = api(emu, DEMO.orgKey);
    const demo = (await members(admin))["demo@example.com"];
    const set = await admin.put(`${P}/members/${demo.member_id}/role`, { role: "viewer" });
    assert.deepEqual([set.body.project_role, set.body.effective_project_permission], ["viewer", "ADMIN"]);
    assert.equal((await members(admin))["demo@example.com"].grant_source, "org_admin_override");
  });

  it("lets organization admins, the organization's key and the project's admins change roles; not a plain member or a project-scoped key", async () => {
    emu = await start();
    const casey = api(emu, DEMO.memberPersonalKey);
    const demoId = (await members(casey))["demo@example.com"].member_id;
    const caseyId = (await members(casey))["casey@example.com"].member_id;
    const refused = await casey.put(`${P}/members/${demoId}/role`, { role: "viewer" });
    assert.equal(refused.status, 403);
    assert.match(
      refused.body.message,
      /only organization admins and the project's admins can change members' roles/,
    );
    const scoped = await api(emu, DEMO.projectKey).put(`${P}/members/${caseyId}/role`, { role: "viewer" });
    assert.equal(scoped.status, 403);
    assert.match(scoped.body.message, /project-scoped API key/);
    assert.equal((await api(emu, DEMO.projectKey).get(`${P}/members`)).status, 200, "it reads them");
    assert.equal(
      (await api(emu, DEMO.personalKey).put(`${P}/members/${caseyId}/role`, { role: "admin" })).status,
      200,
    );
    assert.equal(
      (await casey.put(`${P}/members/${demoId}/role`, { role: "editor" })).status,
      200,
      "casey is the project's admin now",
    );
  });

  it("asks a member lowering their own role to confirm it, and one removing their own ADMIN to confirm the lockout", async () => {
    emu = await start();
    const casey = api(emu, DEMO.memberPersonalKey);
    const caseyId = (await members(casey))["casey@example.com"].member_id;
    const role = `${P}/members/${caseyId}/role`;
    await api(emu, DEMO.personalKey).put(role, { role: "admin" });
    const lockout = await casey.delete(role);
    assert.equal(lockout.status, 409);
    assert.match(lockout.body.message, /without ADMIN: repeat with confirm_self_lockout=true/);
    const demotion = await casey.put(role, { role: "editor" });
    assert.equal(demotion.status, 409);
    assert.match(
      demotion.body.message,
      /lowers your own permission on the project from ADMIN to EDITOR: repeat with confirm_self_demotion=true/,
    );
    assert.equal((await casey.put(role, { role: "admin" })).status, 200, "the same role is no demotion");
    const confirmed = await casey.put(`${role}?confirm_self_demotion=true`, { role: "editor" });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.effective_project_permission, "EDITOR");
    assert.equal((await casey.put(role, { role: "admin" })).status, 403, "no longer the project's admin");
    await api(emu, DEMO.personalKey).put(role, { role: "admin" });
    assert.equal((await casey.delete(`${role}?confirm_self_lockout=true`)).status, 200);
  });

  it("shows unassigned members to the project's admins only, and forgets a leaving member's role", async () => {
    const seed = demoSeed();
    for (const org of seed.organizations ?? []) org.member_project_permission = "none";
    emu = await start({ seed });
    const admin = api(emu, DEMO.personalKey);
    const casey = (await members(admin))["casey@example.com"];
    assert.deepEqual(
      [casey.org_default_project_permission, casey.effective_project_permission, casey.grant_source],
      [undefined, undefined, "unassigned"],
    );
    assert.deepEqual(Object.keys(await members(api(emu, DEMO.memberPersonalKey))), ["demo@example.com"]);
    await admin.put(`${P}/members/${casey.member_id}/role`, { role: "editor" });
    assert.deepEqual(Object.keys(await members(api(emu, DEMO.memberPersonalKey))).sort(), [
      "casey@example.com",
      "demo@example.com",
    ]);
    emu.control.removeMember(DEMO.orgId, DEMO.memberUserId);
    emu.control.addMember(DEMO.orgId, DEMO.memberUserId, "member");
    assert.equal(
      (await members(admin))["casey@example.com"].grant_source,
      "unassigned",
      "the role left with them",
    );
  });

  it("keeps the explicit roles and the organization's default across a restart with a state file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clouddb-project-members-"));
    try {
      const seed = demoSeed();
      for (const org of seed.organizations ?? []) org.member_project_permission = "VIEWER";
      const file = join(dir, "state.json");
      emu = await start({ stateFile: file, seed });
      const admin = api(emu, DEMO.personalKey);
      const caseyId = (await members(admin))["casey@example.com"].member_id;
      await admin.put(`${P}/members/${caseyId}/role`, { role: "admin" });
      await emu.stop();
      emu = await start({ stateFile: file, seed: "empty" });
      const after = await members(api(emu, DEMO.personalKey));
      assert.deepEqual(
        [after["casey@example.com"].project_role, after["casey@example.com"].org_default_project_permission],
        ["admin", "VIEWER"],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serves @neon/sdk's own client: members.list, setRole and removeRole", async () => {
    emu = await start();
    const neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
    const listed = await neon.projects.members.list({ projectId: DEMO.orgProjectId, limit: 1 }).all();
    assert.deepEqual(
      listed.map((m) => m.email),
      ["casey@example.com", "demo@example.com"],
      "two pages of one",
    );
    const caseyId = listed[0]?.member_id ?? "";
    const set = await neon.projects.members.setRole({
      projectId: DEMO.orgProjectId,
      memberId: caseyId,
      role: "viewer",
    });
    assert.equal(set.effective_project_permission, "VIEWER");
    const demoId = listed[1]?.member_id ?? "";
    const self = await neon.projects.members.setRole({
      projectId: DEMO.orgProjectId,
      memberId: demoId,
      role: "viewer",
      confirmSelfDemotion: true,
    });
    assert.equal(self.effective_project_permission, "ADMIN", "an organization admin keeps ADMIN");
    const removed = await neon.projects.members.removeRole({
      projectId: DEMO.orgProjectId,
      memberId: caseyId,
    });
    assert.deepEqual([removed.project_role, removed.effective_project_permission], [undefined, "EDITOR"]);
    assert.deepEqual(
      emu.control
        .requests()
        .filter((r) => r.path.endsWith("/role"))
        .map((r) => [r.method, r.path, r.query]),
      [
        ["PUT", `${P}/members/${caseyId}/role`, ""],
        ["PUT", `${P}/members/${demoId}/role`, "confirm_self_demotion=true"],
        ["DELETE", `${P}/members/${caseyId}/role`, ""],
      ],
    );
  });
});
