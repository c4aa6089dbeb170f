import assert from "node:assert/strict";
import { DEMO, type RunningEmulator, type SeedFile } from "../../emulator";
import { api, type Json, start } from "./helpers";

// Cursor pagination: operations (cursor = created_at with microseconds, a cursor on every page)
// and projects (cursor = last project id).

const QUIET = "quiet-field-40000001";

function seed(): SeedFile {
  return {
    users: [{ id: DEMO.userId, name: "demo", email: "demo@example.com" }],
    projects: [
      {
        id: QUIET,
        name: "quiet",
        owner_user_id: DEMO.userId,
        default_branch: { id: "br-quiet-main-a0000001", name: "main" },
      },
    ],
    api_keys: [{ id: 1, kind: "personal", name: "k", token: DEMO.personalKey, user_id: DEMO.userId }],
  };
}

describe("pagination", () => {
  let emu: RunningEmulator;
  let demo: ReturnType<typeof api>;

  beforeEach(async () => {
    emu = await start({ seed: seed(), limits: false });
    demo = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("pages 2,500 operations with limit 1000: three pages, then an empty page, each with a cursor", async () => {
    emu.control.addOperations(QUIET, 2500);
    const sizes: number[] = [];
    const ids = new Set<string>();
    const stamps: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const query = cursor === undefined ? "limit=1000" : `limit=1000&cursor=${encodeURIComponent(cursor)}`;
      const reply = await demo.get(`/projects/${QUIET}/operations?${query}`);
      assert.equal(reply.status, 200);
      const ops = reply.body.operations as Json[];
      sizes.push(ops.length);
      for (const op of ops) {
        ids.add(op.id);
        stamps.push(op.created_at);
      }
      assert.equal(typeof reply.body.pagination.cursor, "string", "every page carries a cursor");
      if (ops.length > 0)
        assert.equal(
          reply.body.pagination.cursor,
          ops.at(-1).created_at,
          "the cursor is the last created_at",
        );
      if (ops.length === 0) break;
      cursor = reply.body.pagination.cursor;
    }
    assert.deepEqual(sizes, [1000, 1000, 500, 0]);
    assert.equal(ids.size, 2500, "no operation twice, none missed");
    assert.deepEqual([...stamps].sort().reverse(), stamps, "newest first across pages");
  });

  it("defaults the operation page size to 10 and pages the newest work first", async () => {
    emu.control.addOperations(QUIET, 25);
    const created = await demo.post(`/projects/${QUIET}/branches`, {});
    const first = await demo.get(`/projects/${QUIET}/operations`);
    assert.equal(first.body.operations.length, 10);
    assert.equal(first.body.operations[0].id, created.body.operations[0].id);
  });

  it("answers an empty first page with a cursor when a project has no operations", async () => {
    const reply = await demo.get(`/projects/${QUIET}/operations`);
    assert.deepEqual(reply.body.operations, []);
    assert.equal(typeof reply.body.pagination.cursor, "string");
  });

  it("adds 100,000 operations quickly and pages them with 101 requests", async function () {
    this.timeout(60_000);
    const began = Date.now();
    emu.control.addOperations(QUIET, 100_000);
    assert.ok(Date.now() - began < 5000, "bulk creation is fast");
    let cursor: string | undefined;
    let total = 0;
    let requests = 0;
    for (;;) {
      const query = cursor === undefined ? "limit=1000" : `limit=1000&cursor=${encodeURIComponent(cursor)}`;
      const reply = await demo.get(`/projects/${QUIET}/operations?${query}`);
      requests++;
      if (reply.body.operations.length === 0) break;
      total += reply.body.operations.length;
      cursor = reply.body.pagination.cursor;
    }
    assert.equal(total, 100_000);
    assert.equal(requests, 101);
  });

  it("pages projects by id cursor, limit 1..400 (default 10), the last page still carrying a cursor", async () => {
    for (let i = 0; i < 24; i++) {
      emu.control.advance(1);
      assert.equal((await demo.post("/projects", { project: { name: `p${i}` } })).status, 201);
    }
    const sizes: number[] = [];
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 6; page++) {
      const reply = await demo.get(`/projects${cursor === undefined ? "" : `?cursor=${cursor}`}`);
      const projects = reply.body.projects as Json[];
      sizes.push(projects.length);
      seen.push(...projects.map((p) => p.id));
      if (projects.length === 0) break;
      assert.equal(reply.body.pagination.cursor, projects.at(-1).id);
      cursor = reply.body.pagination.cursor;
    }
    assert.deepEqual(sizes, [10, 10, 5, 0]);
    assert.equal(new Set(seen).size, 25);
    assert.equal((await demo.get("/projects?limit=400")).body.projects.length, 25);
    assert.equal((await demo.get("/projects?limit=401")).status, 400);
    assert.equal((await demo.get("/projects?cursor=no-such-project-1")).status, 400);
  });

  it("filters projects by search on name or id", async () => {
    await demo.post("/projects", { project: { name: "Alpha service" } });
    await demo.post("/projects", { project: { name: "beta" } });
    const names = (await demo.get("/projects?search=alpha")).body.projects.map((p: Json) => p.name);
    assert.deepEqual(names, ["Alpha service"]);
    assert.equal((await demo.get(`/projects?search=${QUIET.slice(0, 8)}`)).body.projects.length, 1);
  });
});
