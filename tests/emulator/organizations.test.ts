import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { api, type Json, start } from "./helpers";

// An organization's governance beyond its statuses (contract.test.ts): what a removal and an
// invitation do to a user's reach, that the organization keeps an admin, and that members,
// invitations and the spending limit survive a restart with a state file (docs/api-rules.md §17).

const O = `/organizations/${DEMO.orgId}`;

/** The member id of the user with `email`. */
async function memberIdOf(client: ReturnType<typeof api>, email: string): Promise<string> {
  const members = (await client.get(`${O}/members`)).body.members as Json[];
  const found = members.find((m) => m.user.email === email);
  assert.ok(found, `${email} is a member`);
  return found.member.id;
}

describe("emulator: organization members, invitations and spending limit", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-org-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("takes the organization's projects from a removed member's personal key, and an invitation gives them back", async () => {
    const emu = await start();
    try {
      const admin = api(emu, DEMO.personalKey);
      const casey = api(emu, DEMO.memberPersonalKey);
      assert.equal((await casey.get(`/projects/${DEMO.orgProjectId}`)).status, 200);
      const id = await memberIdOf(admin, "casey@example.com");
      assert.equal((await admin.delete(`${O}/members/${id}`)).status, 200);
      assert.equal((await casey.get(`/projects/${DEMO.orgProjectId}`)).status, 403);
      const invited = await admin.post(`${O}/invitations`, {
        invitations: [{ email: "casey@example.com", role: "admin" }],
      });
      assert.equal(invited.status, 200);
      assert.equal((await casey.get(`/projects/${DEMO.orgProjectId}`)).status, 200);
      assert.equal((await casey.get(`${O}/members/${id}`)).body.role, "admin", "the same member id again");
    } finally {
      await emu.stop();
    }
  });

  it("keeps an admin: the last one can be demoted or removed only once another member is admin", async () => {
    const emu = await start();
    try {
      const admin = api(emu, DEMO.orgKey);
      const demo = `${O}/members/${await memberIdOf(admin, "demo@example.com")}`;
      const casey = `${O}/members/${await memberIdOf(admin, "casey@example.com")}`;
      const refused = await admin.patch(demo, { role: "member" });
      assert.equal(refused.status, 409);
      assert.match(refused.body.message, /last admin of organization/);
      assert.equal((await admin.delete(demo)).status, 409);
      assert.equal((await admin.patch(casey, { role: "admin" })).status, 200);
      assert.equal((await admin.delete(demo)).status, 200);
      assert.equal((await admin.delete(casey)).status, 409, "casey is now the last admin");
    } finally {
      await emu.stop();
    }
  });

  it("keeps a pending invitation until another for the same email takes its place", async () => {
    const emu = await start();
    try {
      const admin = api(emu, DEMO.personalKey);
      await admin.post(`${O}/invitations`, { invitations: [{ email: "new@example.com", role: "member" }] });
      await admin.post(`${O}/invitations`, { invitations: [{ email: "NEW@example.com", role: "admin" }] });
      const listed = (await admin.get(`${O}/invitations`)).body.invitations as Json[];
      assert.deepEqual(
        listed.map((i) => [i.email, i.role]),
        [["NEW@example.com", "admin"]],
      );
      assert.equal(
        ((await admin.get(`${O}/members`)).body.members as Json[]).length,
        2,
        "no account, no member",
      );
    } finally {
      await emu.stop();
    }
  });

  it("keeps members, invitations and the spending limit across a restart with a state file", async () => {
    const file = join(dir, "state.json");
    let emu = await start({ stateFile: file });
    let admin = api(emu, DEMO.personalKey);
    const casey = `${O}/members/${await memberIdOf(admin, "casey@example.com")}`;
    await admin.patch(casey, { role: "admin" });
    await admin.post(`${O}/invitations`, { invitations: [{ email: "new@example.com", role: "member" }] });
    await admin.put(`${O}/billing/spending_limit`, { spending_limit_cents: 12_345 });
    await emu.stop();

    emu = await start({ stateFile: file, seed: "empty" });
    try {
      admin = api(emu, DEMO.personalKey);
      assert.equal((await admin.get(casey)).body.role, "admin");
      assert.deepEqual(
        ((await admin.get(`${O}/invitations`)).body.invitations as Json[]).map((i) => i.email),
        ["new@example.com"],
      );
      assert.equal((await admin.get(`${O}/billing/spending_limit`)).body.spending_limit_cents, 12_345);
    } finally {
      await emu.stop();
    }
  });
});
