import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { isInvalidArgument, isPageLimit } from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";
import { operation, project } from "./support/fixtures";

// Pagination against the emulator: its operation and project listings page by page, and its
// scripted answers for the pages a service may send but the emulator never does (a full page
// without a cursor, a repeated cursor, pages without end).

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const P = DEMO.projectId;
const OPERATIONS = "GET /projects/{project_id}/operations";

describe("client pagination against the emulator", () => {
  const harness = useEmulatorClient({}, { reseed: true });
  const control = () => harness.emulator.control;
  const client = () => harness.client();
  const pages = () => control().requests({ route: OPERATIONS });
  afterEach(() => sinon.restore());

  /** The project's operations newest first, as the service holds them, after adding `count`. */
  function operationsNewestFirst(count: number): string[] {
    control().addOperations(P, count);
    return control()
      .dumpState()
      .operations.filter((op) => op.project_id === P)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
      .map((op) => op.id);
  }

  it("walks operations newest first, passing limit and the last created_at as cursor, one request per page", async () => {
    const all = operationsNewestFirst(5);
    const ops = await collect(client().listOperations(P, { pageSize: 2 }));
    assert.deepEqual(
      ops.map((op) => op.id),
      all,
    );
    const queries = pages().map((r) => new URLSearchParams(r.query));
    assert.equal(queries.length, Math.floor(all.length / 2) + 1, "a short or empty page ends the walk");
    queries.forEach((query, i) => {
      assert.equal(query.get("limit"), "2");
      assert.equal(
        query.get("cursor"),
        i === 0 ? null : ops[2 * i - 1]?.created_at,
        `page ${i + 1}'s cursor`,
      );
    });
  });

  it("reads 10,000 operations in 11 requests of 1000", async () => {
    const held = operationsNewestFirst(0).length;
    const all = operationsNewestFirst(10_000 - held);
    let count = 0;
    for await (const _ of client().listOperations(P)) count++;
    assert.equal(count, all.length);
    assert.equal(pages().length, 11);
  });

  it("stops after maxItems without reading further pages", async () => {
    operationsNewestFirst(10);
    assert.equal((await collect(client().listOperations(P, { pageSize: 2, maxItems: 3 }))).length, 3);
    assert.equal(pages().length, 2);
  });

  it("stops when a full page has no cursor", async () => {
    operationsNewestFirst(10);
    control().failNext(OPERATIONS, { status: 200, body: { operations: [operation(), operation()] } });
    assert.equal((await collect(client().listOperations(P, { pageSize: 2 }))).length, 2);
    assert.equal(pages().length, 1);
  });

  it("stops when the cursor repeats", async () => {
    operationsNewestFirst(10);
    const page = { operations: [operation(), operation()], pagination: { cursor: "same" } };
    control().failNext(OPERATIONS, { status: 200, body: page }, 2);
    assert.equal((await collect(client().listOperations(P, { pageSize: 2 }))).length, 4);
    assert.equal(pages().length, 2);
  });

  it("throws a clear error past the hard page cap", async () => {
    for (let n = 1; n <= 6; n++)
      control().failNext(OPERATIONS, {
        status: 200,
        body: { operations: [operation()], pagination: { cursor: `c${n}` } },
      });
    await assert.rejects(collect(client().listOperations(P, { pageSize: 1, maxPages: 5 })), (e: unknown) => {
      assert.ok(isPageLimit(e));
      assert.match(e.message, new RegExp(`operations of project ${P}`));
      assert.match(e.message, /5 pages/);
      return true;
    });
    assert.equal(pages().length, 5);
  });

  it("refuses page sizes outside the API's bounds, before any request", async () => {
    for (const pageSize of [0, 1001, 2.5]) {
      assert.throws(() => client().listOperations(P, { pageSize }), isInvalidArgument);
    }
    for (const limit of [0, 401]) assert.throws(() => client().listProjects({ limit }), isInvalidArgument);
    assert.deepEqual(harness.log(), []);
  });

  it("lists projects with search, org_id and limit, page by page", async () => {
    const orgClient = harness.client();
    for (const name of ["match-1", "match-2", "match-3", "other"])
      await orgClient.createProject({ project: { name, org_id: DEMO.orgId } });
    control().clearRequests();
    const listing = orgClient.listProjects({ search: "match", orgId: DEMO.orgId, limit: 2 });
    const projects = await collect(listing);
    assert.deepEqual(projects.map((p) => p.name).sort(), ["match-1", "match-2", "match-3"]);
    assert.deepEqual(listing.unavailableProjectIds(), []);
    const queries = control()
      .requests({ route: "GET /projects" })
      .map((r) => Object.fromEntries(new URLSearchParams(r.query)));
    assert.ok(queries.length >= 2 && queries.length <= 3, `${queries.length} pages of 2 for 3 projects`);
    for (const query of queries)
      assert.deepEqual([query.limit, query.search, query.org_id], ["2", "match", DEMO.orgId]);
    assert.ok(
      queries.slice(1).every((query) => query.cursor !== undefined),
      "later pages carry the cursor",
    );
  });

  it("surfaces unavailable_project_ids of every page", async () => {
    const page = (projects: unknown[], ids: string[]) => ({
      status: 200,
      body: { projects, pagination: { cursor: "a-1" }, unavailable_project_ids: ids },
    });
    control().failNext("GET /projects", page([project("a-1")], ["gone-1"]));
    control().failNext("GET /projects", page([], ["gone-2"]));
    const listing = client().listProjects({ limit: 1 });
    assert.deepEqual(
      (await collect(listing)).map((p) => p.id),
      ["a-1"],
    );
    assert.deepEqual(listing.unavailableProjectIds(), ["gone-1", "gone-2"]);
  });

  it("stops listing projects on a short page even though the last page still carries a cursor", async () => {
    const projects = await collect(client().listProjects({ limit: 10 }));
    assert.ok(projects.length < 10);
    assert.equal(control().requests({ route: "GET /projects" }).length, 1);
  });
});
