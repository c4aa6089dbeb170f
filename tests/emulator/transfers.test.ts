import assert from "node:assert/strict";
import { DEMO, demoSeed, type RunningEmulator, type SeedFile } from "../../emulator";
import { api, call, type Json, SECOND_ORG_ID, start, withSecondOrg } from "./helpers";

// Moving a project between accounts (docs/api-rules.md §21): a transfer request made by whoever may
// give the project away and accepted, before it expires, by an account that may own projects; the
// direct move between organizations. The project keeps its id, branches and computes.

/** The second organization's admin, with a personal key, and the organization's own key. */
const OTHER = {
  userId: "0c4a7f2e-3b1d-4e5f-9a8b-7c6d5e4f3a21",
  orgId: SECOND_ORG_ID,
  key: `napi_${"q7".repeat(32)}`,
  orgKey: `napi_${"r8".repeat(32)}`,
};

/** The demo account, and a second organization whose admin is an outsider and of which the demo user is a member. */
function seed(): SeedFile {
  const s = withSecondOrg(demoSeed(), { [OTHER.userId]: "admin", [DEMO.userId]: "member" });
  s.users?.push({ id: OTHER.userId, name: "outsider", email: "outsider@example.com" });
  s.api_keys?.push(
    { id: 170001, kind: "personal", name: "outsider", token: OTHER.key, user_id: OTHER.userId },
    {
      id: 170002,
      kind: "organization",
      name: "second",
      token: OTHER.orgKey,
      user_id: OTHER.userId,
      org_id: OTHER.orgId,
    },
  );
  return s;
}

describe("emulator: project transfers", () => {
  let emu: RunningEmulator;
  const O = `/projects/${DEMO.orgProjectId}`;
  const as = (key: string) => api(emu, key);
  const accept = (key: string, projectId: string, requestId: string, body: Json = {}) =>
    call(emu.url, "PUT", `/projects/${projectId}/transfer_requests/${requestId}`, { key, body });
  const request = async (key: string, projectId: string, body: Json = {}) => {
    const made = await as(key).post(`/projects/${projectId}/transfer_requests`, body);
    assert.equal(made.status, 201, made.text);
    return made.body.id as string;
  };
  const ownerOf = async (projectId: string) =>
    (await as(DEMO.personalKey).get(`/projects/${projectId}`)).body.project.org_id ?? null;

  beforeEach(async () => {
    emu = await start({ seed: seed(), opDurationMs: 0 });
  });
  afterEach(() => emu.stop());

  it("moves an organization's project to another organization in place, its branches and computes kept", async () => {
    const branchesBefore = (await as(DEMO.personalKey).get(`${O}/branches`)).body.branches.map(
      (b: Json) => b.id,
    );
    const made = await as(DEMO.personalKey).post(`${O}/transfer_requests`, { ttl_seconds: 600 });
    assert.equal(made.status, 201);
    assert.equal(made.body.project_id, DEMO.orgProjectId);
    assert.equal(Date.parse(made.body.expires_at) - Date.parse(made.body.created_at), 600_000);
    const accepted = await accept(DEMO.personalKey, DEMO.orgProjectId, made.body.id, { org_id: OTHER.orgId });
    assert.equal(accepted.status, 204, accepted.text);
    assert.equal(await ownerOf(DEMO.orgProjectId), OTHER.orgId);
    const after = await as(OTHER.orgKey).get(`${O}/branches`);
    assert.deepEqual(
      after.body.branches.map((b: Json) => b.id),
      branchesBefore,
    );
    const endpoints = await as(OTHER.orgKey).get(`${O}/endpoints`);
    assert.deepEqual(
      endpoints.body.endpoints.map((e: Json) => e.id),
      [DEMO.orgEndpointId],
    );
    assert.equal((await as(DEMO.orgKey).get(O)).status, 403, "the old organization's key loses it");
    assert.equal((await as(DEMO.projectKey).get(O)).status, 401, "its project-scoped keys stop for good");
  });

  it("expires a request after 24 hours unless it says otherwise, and refuses it then with 410", async () => {
    const id = await request(DEMO.personalKey, DEMO.orgProjectId);
    emu.control.advance(86_400_000);
    const late = await accept(DEMO.personalKey, DEMO.orgProjectId, id, { org_id: OTHER.orgId });
    assert.equal(late.status, 410);
    assert.match(
      late.body.message,
      /^transfer request .* expired at .*: ask the project's owner for a new one$/,
    );
    assert.equal(await ownerOf(DEMO.orgProjectId), DEMO.orgId);
  });

  it("uses a request once, and never after the project changed hands", async () => {
    const first = await request(DEMO.personalKey, DEMO.orgProjectId);
    const second = await request(DEMO.personalKey, DEMO.orgProjectId);
    assert.equal(
      (await accept(DEMO.personalKey, DEMO.orgProjectId, first, { org_id: OTHER.orgId })).status,
      204,
    );
    const again = await accept(DEMO.personalKey, DEMO.orgProjectId, first, { org_id: OTHER.orgId });
    assert.equal(again.status, 409);
    assert.match(again.body.message, /was already accepted/);
    const stale = await accept(DEMO.personalKey, DEMO.orgProjectId, second, { org_id: DEMO.orgId });
    assert.equal(stale.status, 409);
    assert.match(stale.body.message, /changed hands since transfer request .* was made/);
  });

  it("moves a personal project into an organization and back to the accepting user's account", async () => {
    const P = DEMO.projectId;
    const into = await request(DEMO.personalKey, P);
    assert.equal((await accept(DEMO.personalKey, P, into, { org_id: DEMO.orgId })).status, 204);
    assert.equal(await ownerOf(P), DEMO.orgId);
    const back = await request(DEMO.orgKey, P);
    assert.equal(
      (await accept(DEMO.personalKey, P, back)).status,
      204,
      "no org_id: the caller's own account",
    );
    assert.equal(await ownerOf(P), null);
    const listed = await as(DEMO.personalKey).get("/projects");
    assert.ok(listed.body.projects.some((p: Json) => p.id === P));
  });

  it("lets only who may give the project away make a request (403)", async () => {
    const refused = [
      [DEMO.projectKey, O, /a project-scoped API key cannot transfer project/],
      [DEMO.memberPersonalKey, O, /only organization admins can transfer the organization's projects/],
      [OTHER.orgKey, O, /acts only on projects of organization/],
    ] as const;
    for (const [key, path, message] of refused) {
      const reply = await as(key).post(`${path}/transfer_requests`, {});
      assert.equal(reply.status, 403, `${path} ${reply.text}`);
      assert.match(reply.body.message, message);
    }
    await as(DEMO.personalKey).post(`/projects/${DEMO.projectId}/permissions`, {
      email: "outsider@example.com",
    });
    const shared = await as(OTHER.key).post(`/projects/${DEMO.projectId}/transfer_requests`, {});
    assert.equal(shared.status, 403);
    assert.match(shared.body.message, /only its owner can transfer it/);
    const zero = await as(DEMO.personalKey).post(`${O}/transfer_requests`, { ttl_seconds: 0 });
    assert.equal(zero.status, 400);
  });

  it("lets only an account that may own the project accept, into an organization it acts in", async () => {
    const id = await request(DEMO.personalKey, DEMO.orgProjectId);
    const cases = [
      [DEMO.projectKey, { org_id: OTHER.orgId }, 403, /a project-scoped API key cannot receive a project/],
      [DEMO.orgKey, { org_id: OTHER.orgId }, 403, /acts only on organization/],
      [DEMO.memberPersonalKey, { org_id: OTHER.orgId }, 403, /not a member of organization/],
      [DEMO.personalKey, { org_id: "org-no-such-org-00000000" }, 404, /organization .* not found/],
      [DEMO.personalKey, { org_id: DEMO.orgId }, 400, /already belongs to organization/],
    ] as const;
    for (const [key, body, status, message] of cases) {
      const reply = await accept(key, DEMO.orgProjectId, id, body);
      assert.equal(reply.status, status, reply.text);
      assert.match(reply.body.message, message);
    }
    const unknown = await accept(DEMO.personalKey, DEMO.orgProjectId, "00000000-0000-4000-8000-000000000000");
    assert.equal(unknown.status, 404);
    assert.equal(await ownerOf(DEMO.orgProjectId), DEMO.orgId, "nothing moved");
    assert.equal((await accept(OTHER.orgKey, DEMO.orgProjectId, id)).status, 204, "the other org's own key");
    assert.equal((await as(OTHER.key).get(O)).status, 200);
  });

  it("moves projects between organizations directly for an admin of the source who is a member of the destination", async () => {
    const path = `/organizations/${DEMO.orgId}/projects/transfer`;
    const body = { destination_org_id: OTHER.orgId, project_ids: [DEMO.orgProjectId] };
    assert.equal((await as(DEMO.orgKey).post(path, body)).status, 403, "an organization key");
    assert.equal((await as(DEMO.memberPersonalKey).post(path, body)).status, 403, "a plain member");
    const wrong = await as(DEMO.personalKey).post(path, { ...body, project_ids: [DEMO.projectId] });
    assert.equal(wrong.status, 404);
    assert.match(wrong.body.message, /not found in organization/);
    const moved = await as(DEMO.personalKey).post(path, body);
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body, {});
    assert.equal(await ownerOf(DEMO.orgProjectId), OTHER.orgId);
  });
});
