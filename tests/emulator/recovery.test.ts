import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, type Json, start } from "./helpers";

// A deleted project stays recoverable for 7 days on the emulator's clock (docs/api-rules.md §22):
// listed by `GET /projects?recoverable=true`, brought back by `POST /projects/{id}/recover` with its
// branches and computes; past the window it is gone for good.

describe("emulator: project recovery", () => {
  let emu: RunningEmulator;
  const DAY = 86_400_000;
  const http = () => api(emu, DEMO.personalKey);
  const ids = (reply: { body: Json }, field: string) => reply.body[field].map((o: Json) => o.id);
  const P = `/projects/${DEMO.projectId}`;

  beforeEach(async () => {
    emu = await start({ opDurationMs: 0 });
  });
  afterEach(() => emu.stop());

  it("lists a deleted project as recoverable only, and recovers it with its branches and computes", async () => {
    const branches = ids(await http().get(`${P}/branches`), "branches");
    const endpoints = ids(await http().get(`${P}/endpoints`), "endpoints");
    assert.equal((await http().delete(P)).status, 200);
    assert.equal((await http().get(P)).status, 404);
    assert.ok(!ids(await http().get("/projects"), "projects").includes(DEMO.projectId));
    emu.control.advance(7 * DAY - 1000);
    assert.deepEqual(ids(await http().get("/projects?recoverable=true"), "projects"), [DEMO.projectId]);
    const recovered = await http().post(`${P}/recover`);
    assert.equal(recovered.status, 200, recovered.text);
    assert.equal(recovered.body.project.id, DEMO.projectId);
    assert.deepEqual(ids(recovered, "branches"), branches);
    assert.deepEqual(ids(await http().get(`${P}/endpoints`), "endpoints"), endpoints);
    assert.equal((await http().get(P)).status, 200);
    assert.deepEqual(ids(await http().get("/projects?recoverable=true"), "projects"), []);
  });

  it("forgets a project deleted more than 7 days ago: not listed, not recoverable (404)", async () => {
    await http().delete(P);
    emu.control.advance(7 * DAY + 1000);
    assert.deepEqual(ids(await http().get("/projects?recoverable=true"), "projects"), []);
    const late = await http().post(`${P}/recover`);
    assert.equal(late.status, 404);
    assert.equal(
      late.body.message,
      `project ${DEMO.projectId} was deleted more than 7 days ago and cannot be recovered`,
    );
    assert.equal((await http().get(P)).status, 404);
  });

  it("recovers only deleted projects, and only for a key that may act on them", async () => {
    const live = await http().post(`${P}/recover`);
    assert.equal(live.status, 404);
    assert.equal(live.body.message, `no deleted project ${DEMO.projectId} to recover`);
    await http().delete(P);
    assert.equal((await api(emu, DEMO.memberPersonalKey).post(`${P}/recover`)).status, 403);
  });
});
