import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, call, type Json, start } from "./helpers";

// Branch rules: unique names (409), validation (400/422), refusals (configurable 4xx), 204 when gone.

const P = `/projects/${DEMO.projectId}`;

describe("branches", () => {
  let emu: RunningEmulator;
  let demo: ReturnType<typeof api>;

  beforeEach(async () => {
    emu = await start({ opDurationMs: 0 });
    demo = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("answers 201 with branch, endpoints, operations, roles, databases and connection URIs", async () => {
    const reply = await demo.post(`${P}/branches`, {
      branch: { name: "feature" },
      endpoints: [{ type: "read_write" }],
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.branch.name, "feature");
    assert.equal(reply.body.branch.parent_id, DEMO.branchId, "the parent defaults to the default branch");
    assert.match(reply.body.branch.id, /^br-[a-z]+-[a-z]+-[a-z0-9]{8}$/);
    assert.match(reply.body.endpoints[0].id, /^ep-[a-z]+-[a-z]+-[a-z0-9]{8}$/);
    assert.deepEqual(
      reply.body.roles.map((r: Json) => r.name),
      ["neondb_owner"],
    );
    assert.deepEqual(
      reply.body.databases.map((d: Json) => d.name),
      ["neondb"],
    );
    assert.equal(reply.body.connection_uris.length, 1);
  });

  it("creates only a create_branch operation and no connection URIs without endpoints", async () => {
    const reply = await demo.post(`${P}/branches`, { branch: { name: "bare" } });
    assert.deepEqual(
      reply.body.operations.map((o: Json) => o.action),
      ["create_branch"],
    );
    assert.deepEqual(reply.body.endpoints, []);
    assert.equal(reply.body.connection_uris, undefined);
  });

  it("names an unnamed branch after its id", async () => {
    const reply = await call(emu.url, "POST", `${P}/branches`, {
      key: DEMO.personalKey,
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.branch.name, reply.body.branch.id);
  });

  it("refuses a duplicate name with 409 BRANCH_ALREADY_EXISTS, on create and on rename", async () => {
    assert.equal((await demo.post(`${P}/branches`, { branch: { name: "dup" } })).status, 201);
    const again = await demo.post(`${P}/branches`, { branch: { name: "dup" } });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, "BRANCH_ALREADY_EXISTS");
    const other = await demo.post(`${P}/branches`, { branch: { name: "other" } });
    const rename = await demo.patch(`${P}/branches/${other.body.branch.id}`, { branch: { name: "dup" } });
    assert.equal(rename.status, 409);
    assert.equal(rename.body.code, "BRANCH_ALREADY_EXISTS");
    assert.equal(
      (await demo.post(`/projects/${DEMO.orgProjectId}/branches`, { branch: { name: "dup" } })).status,
      201,
      "names are unique per project",
    );
  });

  it("frees a name when its branch is deleted", async () => {
    const made = await demo.post(`${P}/branches`, { branch: { name: "reuse" } });
    assert.equal((await demo.delete(`${P}/branches/${made.body.branch.id}`)).status, 200);
    assert.equal((await demo.post(`${P}/branches`, { branch: { name: "reuse" } })).status, 201);
  });

  const invalid: Array<[string, unknown, number, RegExp]> = [
    ["a name over 256 characters", { branch: { name: "n".repeat(257) } }, 400, /at most 256/],
    ["an empty name", { branch: { name: "" } }, 400, /must not be empty/],
    ["a non-string name", { branch: { name: 5 } }, 400, /must be a string/],
    ["an unknown endpoint type", { endpoints: [{ type: "read_mostly" }] }, 400, /read_only, read_write/],
    [
      "a second read_write endpoint",
      { endpoints: [{ type: "read_write" }, { type: "read_write" }] },
      400,
      /only one read_write/,
    ],
    ["endpoints that are not an array", { endpoints: { type: "read_write" } }, 400, /must be an array/],
    [
      "an unknown parent",
      { branch: { parent_id: "br-missing-parent-a0000000" } },
      422,
      /parent branch br-missing-parent-a0000000 not found/,
    ],
    ["a body that is not an object", [1, 2], 400, /JSON object/],
  ];
  for (const [what, body, status, message] of invalid) {
    it(`refuses ${what} with ${status} and a clear message`, async () => {
      const reply = await demo.post(`${P}/branches`, body);
      assert.equal(reply.status, status);
      assert.match(reply.body.message, message);
    });
  }

  it("refuses malformed JSON with 400", async () => {
    const reply = await call(emu.url, "POST", `${P}/branches`, {
      key: DEMO.personalKey,
      rawBody: '{"branch":',
    });
    assert.equal(reply.status, 400);
    assert.match(reply.body.message, /malformed JSON/);
  });

  it("refuses to delete the default branch (422 by default), saying which and why", async () => {
    const reply = await demo.delete(`${P}/branches/${DEMO.branchId}`);
    assert.equal(reply.status, 422);
    assert.match(reply.body.message, new RegExp(`${DEMO.branchId} is the project's default branch`));
  });

  it("refuses to delete a branch with children until they are gone", async () => {
    const parent = await demo.post(`${P}/branches`, { branch: { name: "parent" } });
    const child = await demo.post(`${P}/branches`, {
      branch: { name: "child", parent_id: parent.body.branch.id },
    });
    const refused = await demo.delete(`${P}/branches/${parent.body.branch.id}`);
    assert.equal(refused.status, 422);
    assert.match(
      refused.body.message,
      new RegExp(`has child branches \\(${child.body.branch.id}\\); delete them first`),
    );
    assert.equal((await demo.delete(`${P}/branches/${child.body.branch.id}`)).status, 200);
    assert.equal((await demo.delete(`${P}/branches/${parent.body.branch.id}`)).status, 200);
  });

  it("uses the configured refusal status", async () => {
    await emu.stop();
    emu = await start({ opDurationMs: 0, refusalStatus: 409 });
    demo = api(emu, DEMO.personalKey);
    assert.equal((await demo.delete(`${P}/branches/${DEMO.branchId}`)).status, 409);
  });

  it("deletes with suspend_compute per endpoint and delete_timeline, then answers 204 and 404 on reads", async () => {
    const made = await demo.post(`${P}/branches`, { endpoints: [{ type: "read_write" }] });
    const id = made.body.branch.id;
    const deleted = await demo.delete(`${P}/branches/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(
      deleted.body.operations.map((o: Json) => [o.action, o.endpoint_id]),
      [
        ["suspend_compute", made.body.endpoints[0].id],
        ["delete_timeline", undefined],
      ],
    );
    const again = await demo.delete(`${P}/branches/${id}`);
    assert.equal(again.status, 204);
    assert.equal(again.text, "");
    assert.equal((await demo.get(`${P}/branches/${id}`)).status, 404);
    assert.ok(!(await demo.get(`${P}/branches`)).body.branches.some((b: Json) => b.id === id));
  });

  it("answers 204 for a branch that never existed, as the official document says", async () => {
    assert.equal((await demo.delete(`${P}/branches/br-never-was-a0000000`)).status, 204);
  });

  it("renames and protects with PATCH, returning no operations", async () => {
    const made = await demo.post(`${P}/branches`, { branch: { name: "old" } });
    const reply = await demo.patch(`${P}/branches/${made.body.branch.id}`, {
      branch: { name: "new", protected: true },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.branch.name, "new");
    assert.equal(reply.body.branch.protected, true);
    assert.deepEqual(reply.body.operations, []);
    assert.equal((await demo.patch(`${P}/branches/${made.body.branch.id}`, {})).status, 400);
  });

  it("lists live branches, newest update first, and finds them by search", async () => {
    await demo.post(`${P}/branches`, { branch: { name: "searchable-one" }, annotation_value: { pr: "42" } });
    emu.control.advance(1000);
    await demo.post(`${P}/branches`, { branch: { name: "other" } });
    const list = await demo.get(`${P}/branches`);
    assert.deepEqual(
      list.body.branches.map((b: Json) => b.name),
      ["other", "searchable-one", "main"],
    );
    const found = await demo.get(`${P}/branches?search=searchable`);
    assert.deepEqual(
      found.body.branches.map((b: Json) => b.name),
      ["searchable-one"],
    );
    const annotated = found.body.branches[0].id;
    assert.deepEqual(found.body.annotations[annotated].value, { pr: "42" });
  });
});
