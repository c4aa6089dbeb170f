import assert from "node:assert/strict";
import { DEMO, demoSeed, type RunningEmulator, type SeedFile } from "../../emulator";
import { api, call, type Reply, start } from "./helpers";

// Every cell of the permission table (docs/api-rules.md §6), allowed and refused. Each cell runs
// against a fresh emulator seeded with the demo account plus a second organization, so cells are
// independent. 401 = no valid key; 403 = a valid key outside its scope; 404 = no such object.

const OTHER = {
  userId: "0c4a7f2e-3b1d-4e5f-9a8b-7c6d5e4f3a21",
  orgId: "org-snowy-meadow-70312458",
  projectId: "patient-lake-11893452",
  branchId: "br-still-pond-a1b2c3d4",
  key: `napi_${"q7".repeat(32)}`,
  keyId: 170001,
};

function seed(): SeedFile {
  const s = demoSeed();
  s.users?.push({ id: OTHER.userId, name: "outsider", email: "outsider@example.com" });
  s.organizations?.push({
    id: OTHER.orgId,
    name: "Other Org",
    members: [{ user_id: OTHER.userId, role: "admin" }],
  });
  s.projects?.push({
    id: OTHER.projectId,
    name: "other",
    org_id: OTHER.orgId,
    default_branch: { id: OTHER.branchId, name: "main" },
  });
  s.api_keys?.push({
    id: OTHER.keyId,
    kind: "personal",
    name: "outsider",
    token: OTHER.key,
    user_id: OTHER.userId,
  });
  return s;
}

type Cell = [string, (emu: RunningEmulator) => Promise<Reply>, number];

const orgKeys = `/organizations/${DEMO.orgId}/api_keys`;
const as = (emu: RunningEmulator, key: string) => api(emu, key);
const newBranch = (emu: RunningEmulator, key: string, projectId: string) =>
  as(emu, key).post(`/projects/${projectId}/branches`, {
    branch: { name: `b-${Math.random().toString(36).slice(2)}` },
  });

/** A second project in the demo organization, made by the organization key. */
async function secondOrgProject(emu: RunningEmulator): Promise<string> {
  const reply = await as(emu, DEMO.orgKey).post("/projects", { project: { name: "second" } });
  assert.equal(reply.status, 201);
  return reply.body.project.id;
}

const cells: Cell[] = [
  // 401: authentication
  ["no Authorization header is refused", (e) => call(e.url, "GET", "/projects"), 401],
  [
    "a Basic Authorization header is refused",
    (e) => call(e.url, "GET", "/projects", { headers: { authorization: "Basic abc" } }),
    401,
  ],
  ["an unknown key is refused", (e) => as(e, `napi_${"0".repeat(64)}`).get("/projects"), 401],

  // personal key of the admin
  [
    "a personal key reads its user's personal project",
    (e) => as(e, DEMO.personalKey).get(`/projects/${DEMO.projectId}`),
    200,
  ],
  [
    "a personal key branches its user's personal project",
    (e) => newBranch(e, DEMO.personalKey, DEMO.projectId),
    201,
  ],
  [
    "a personal key acts on its organization's projects",
    (e) => newBranch(e, DEMO.personalKey, DEMO.orgProjectId),
    201,
  ],
  [
    "a personal key cannot see another user's personal project",
    (e) => as(e, DEMO.personalKey).get(`/projects/${DEMO.memberProjectId}`),
    403,
  ],
  [
    "a personal key cannot act on another organization's project",
    (e) => newBranch(e, DEMO.personalKey, OTHER.projectId),
    403,
  ],
  [
    "a personal key creates personal keys",
    (e) => as(e, DEMO.personalKey).post("/api_keys", { key_name: "k" }),
    200,
  ],
  ["a personal key lists its personal keys", (e) => as(e, DEMO.personalKey).get("/api_keys"), 200],
  ["a personal key creates projects", (e) => as(e, DEMO.personalKey).post("/projects", { project: {} }), 201],
  [
    "a personal key creates projects in a member organization",
    (e) => as(e, DEMO.memberPersonalKey).post("/projects", { project: { org_id: DEMO.orgId } }),
    201,
  ],
  [
    "a personal key cannot create projects in a foreign organization",
    (e) => as(e, DEMO.personalKey).post("/projects", { project: { org_id: OTHER.orgId } }),
    403,
  ],
  [
    "a personal key lists a member organization's projects with org_id",
    (e) => as(e, DEMO.memberPersonalKey).get(`/projects?org_id=${DEMO.orgId}`),
    200,
  ],
  [
    "a personal key cannot list a foreign organization's projects",
    (e) => as(e, DEMO.personalKey).get(`/projects?org_id=${OTHER.orgId}`),
    403,
  ],
  [
    "an admin creates organization keys",
    (e) => as(e, DEMO.personalKey).post(orgKeys, { key_name: "k" }),
    200,
  ],
  [
    "a member cannot create organization keys",
    (e) => as(e, DEMO.memberPersonalKey).post(orgKeys, { key_name: "k" }),
    403,
  ],
  [
    "a member creates project-scoped keys for organization projects",
    (e) => as(e, DEMO.memberPersonalKey).post(orgKeys, { key_name: "k", project_id: DEMO.orgProjectId }),
    200,
  ],
  [
    "a project-scoped key cannot be made for a personal project",
    (e) => as(e, DEMO.personalKey).post(orgKeys, { key_name: "k", project_id: DEMO.projectId }),
    403,
  ],
  [
    "a project-scoped key cannot be made for an unknown project",
    (e) => as(e, DEMO.personalKey).post(orgKeys, { key_name: "k", project_id: "no-such-project-1" }),
    404,
  ],
  [
    "a non-member cannot create keys in an organization",
    (e) => as(e, OTHER.key).post(orgKeys, { key_name: "k", project_id: DEMO.orgProjectId }),
    403,
  ],
  ["a member lists the organization's keys", (e) => as(e, DEMO.memberPersonalKey).get(orgKeys), 200],
  ["a non-member cannot list the organization's keys", (e) => as(e, OTHER.key).get(orgKeys), 403],
  [
    "a personal key revokes its user's own key",
    (e) => as(e, DEMO.personalKey).delete(`/api_keys/${DEMO.personalKeyId}`),
    200,
  ],
  [
    "a personal key cannot revoke another user's personal key",
    (e) => as(e, DEMO.personalKey).delete(`/api_keys/${DEMO.memberPersonalKeyId}`),
    403,
  ],
  [
    "an admin revokes organization keys",
    (e) => as(e, DEMO.personalKey).delete(`${orgKeys}/${DEMO.orgKeyId}`),
    200,
  ],
  [
    "an admin revokes project-scoped keys",
    (e) => as(e, DEMO.personalKey).delete(`${orgKeys}/${DEMO.projectKeyId}`),
    200,
  ],
  [
    "a member cannot revoke project-scoped keys",
    (e) => as(e, DEMO.memberPersonalKey).delete(`${orgKeys}/${DEMO.projectKeyId}`),
    403,
  ],
  [
    "organization keys are not revoked through /api_keys",
    (e) => as(e, DEMO.personalKey).delete(`/api_keys/${DEMO.orgKeyId}`),
    404,
  ],

  // organization key
  [
    "an organization key acts on every project of its organization",
    (e) => newBranch(e, DEMO.orgKey, DEMO.orgProjectId),
    201,
  ],
  [
    "an organization key acts on a second organization project",
    async (e) => newBranch(e, DEMO.orgKey, await secondOrgProject(e)),
    201,
  ],
  [
    "an organization key cannot act on a personal project",
    (e) => as(e, DEMO.orgKey).get(`/projects/${DEMO.projectId}`),
    403,
  ],
  [
    "an organization key cannot act on another organization",
    (e) => as(e, DEMO.orgKey).get(`/projects/${OTHER.projectId}`),
    403,
  ],
  [
    "an organization key creates projects in its organization",
    (e) => as(e, DEMO.orgKey).post("/projects", { project: {} }),
    201,
  ],
  [
    "an organization key cannot create projects elsewhere",
    (e) => as(e, DEMO.orgKey).post("/projects", { project: { org_id: OTHER.orgId } }),
    403,
  ],
  [
    "an organization key cannot create personal keys",
    (e) => as(e, DEMO.orgKey).post("/api_keys", { key_name: "k" }),
    403,
  ],
  [
    "an organization key cannot create organization keys",
    (e) => as(e, DEMO.orgKey).post(orgKeys, { key_name: "k" }),
    403,
  ],
  ["an organization key lists its organization's keys", (e) => as(e, DEMO.orgKey).get(orgKeys), 200],
  [
    "an organization key revokes its organization's keys",
    (e) => as(e, DEMO.orgKey).delete(`${orgKeys}/${DEMO.projectKeyId}`),
    200,
  ],
  ["an organization key cannot list personal keys", (e) => as(e, DEMO.orgKey).get("/api_keys"), 403],

  // project-scoped key
  [
    "a project-scoped key reads its project",
    (e) => as(e, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`),
    200,
  ],
  ["a project-scoped key branches its project", (e) => newBranch(e, DEMO.projectKey, DEMO.orgProjectId), 201],
  [
    "a project-scoped key reads its project's operations",
    (e) => as(e, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}/operations`),
    200,
  ],
  [
    "a project-scoped key cannot act on another project of its organization",
    async (e) => newBranch(e, DEMO.projectKey, await secondOrgProject(e)),
    403,
  ],
  [
    "a project-scoped key cannot act on a personal project",
    (e) => as(e, DEMO.projectKey).get(`/projects/${DEMO.projectId}`),
    403,
  ],
  [
    "a project-scoped key cannot create projects",
    (e) => as(e, DEMO.projectKey).post("/projects", { project: {} }),
    403,
  ],
  [
    "a project-scoped key cannot create personal keys",
    (e) => as(e, DEMO.projectKey).post("/api_keys", { key_name: "k" }),
    403,
  ],
  [
    "a project-scoped key cannot create organization keys",
    (e) => as(e, DEMO.projectKey).post(orgKeys, { key_name: "k", project_id: DEMO.orgProjectId }),
    403,
  ],
  ["a project-scoped key cannot list organization keys", (e) => as(e, DEMO.projectKey).get(orgKeys), 403],
  [
    "a project-scoped key cannot revoke keys",
    (e) => as(e, DEMO.projectKey).delete(`${orgKeys}/${DEMO.orgKeyId}`),
    403,
  ],
];

describe("permissions: every cell of the key-scope table", () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await start({ seed: seed(), opDurationMs: 0 });
  });
  afterEach(() => emu.stop());

  for (const [sentence, act, status] of cells) {
    it(`${sentence} (${status})`, async () => {
      const reply = await act(emu);
      assert.equal(reply.status, status, reply.text);
    });
  }

  it("lists only personal projects for a personal key, the organization's for an org key, one for a project key", async () => {
    const ids = async (key: string, query = "") =>
      (await as(emu, key).get(`/projects${query}`)).body.projects.map((p: { id: string }) => p.id);
    assert.deepEqual(await ids(DEMO.personalKey), [DEMO.projectId]);
    assert.deepEqual(await ids(DEMO.personalKey, `?org_id=${DEMO.orgId}`), [DEMO.orgProjectId]);
    assert.deepEqual(await ids(DEMO.orgKey), [DEMO.orgProjectId]);
    assert.deepEqual(await ids(DEMO.projectKey), [DEMO.orgProjectId]);
  });

  it("refuses a key with 401 from the moment it is revoked through the API", async () => {
    const made = await as(emu, DEMO.personalKey).post("/api_keys", { key_name: "short-lived" });
    assert.equal((await as(emu, made.body.key).get("/projects")).status, 200);
    assert.equal((await as(emu, DEMO.personalKey).delete(`/api_keys/${made.body.id}`)).status, 200);
    const after = await as(emu, made.body.key).get("/projects");
    assert.equal(after.status, 401);
    const listed = await as(emu, DEMO.personalKey).get("/api_keys");
    assert.ok(!listed.body.some((k: { id: number }) => k.id === made.body.id), "revoked keys leave the list");
  });

  it("refuses a key revoked in the console with 401", async () => {
    emu.control.revokeApiKey(DEMO.orgKeyId);
    assert.equal((await as(emu, DEMO.orgKey).get(`/projects/${DEMO.orgProjectId}`)).status, 401);
  });

  it("reports the key's real last use in the revocation response", async () => {
    await as(emu, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`);
    emu.control.advance(5000);
    const revoked = await as(emu, DEMO.personalKey).delete(`${orgKeys}/${DEMO.projectKeyId}`);
    assert.equal(revoked.body.last_used_from_addr, "127.0.0.1");
    assert.equal(
      revoked.body.last_used_at,
      new Date(emu.control.now() - 5000).toISOString().replace(/\.\d+Z$/, "Z"),
    );
  });

  it("stops a project-scoped key (401) when its project leaves the organization, for good", async () => {
    emu.control.transferProject(DEMO.orgProjectId, null, DEMO.userId);
    assert.equal((await as(emu, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`)).status, 401);
    assert.equal(
      (await as(emu, DEMO.personalKey).get(`/projects/${DEMO.orgProjectId}`)).status,
      200,
      "the new owner sees it",
    );
    assert.equal(
      (await as(emu, DEMO.memberPersonalKey).get(`/projects/${DEMO.orgProjectId}`)).status,
      403,
      "members lose it",
    );
    emu.control.transferProject(DEMO.orgProjectId, DEMO.orgId);
    assert.equal((await as(emu, DEMO.projectKey).get(`/projects/${DEMO.orgProjectId}`)).status, 401);
  });

  it("keeps a removed member's personal key valid but without the organization's projects", async () => {
    emu.control.removeMember(DEMO.orgId, DEMO.memberUserId);
    const key = as(emu, DEMO.memberPersonalKey);
    assert.equal((await key.get(`/projects/${DEMO.memberProjectId}`)).status, 200);
    assert.equal((await key.get(`/projects/${DEMO.orgProjectId}`)).status, 403);
    assert.equal((await key.get(`/projects?org_id=${DEMO.orgId}`)).status, 403);
    assert.equal((await key.post(orgKeys, { key_name: "k", project_id: DEMO.orgProjectId })).status, 403);
  });
});
