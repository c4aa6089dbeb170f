import assert from "node:assert/strict";
import sinon from "sinon";
import {
  createClient,
  isInvalidArgument,
  isPageLimit,
  type Operation,
  resetRegistry,
  type TransportRequest,
} from "../../provider/client";
import { fakeTransport, json, operation, project, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Operations newest first, `total` of them, paged by created_at like the API. */
function operationsApi(total: number) {
  const ops = Array.from({ length: total }, (_, i) =>
    operation({ id: `op-${i}`, created_at: `2025-01-01T00:00:00.${String(999_999 - i).padStart(6, "0")}Z` }),
  );
  return fakeTransport((request: TransportRequest) => {
    const limit = Number(request.query.limit);
    const cursor = request.query.cursor;
    const from = cursor === undefined ? 0 : ops.findIndex((op) => op.created_at === cursor) + 1;
    const page = ops.slice(from, from + limit);
    const last = page[page.length - 1];
    return json(200, { operations: page, pagination: { cursor: last?.created_at ?? cursor ?? "" } });
  });
}

describe("client pagination", () => {
  beforeEach(() => resetRegistry());
  afterEach(() => sinon.restore());

  it("walks operations newest first, passing limit and the last created_at as cursor, and stops on a short page", async () => {
    const { transport, calls } = operationsApi(5);
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const ops = await collect(client.listOperations("p1", { pageSize: 2 }));
    assert.deepEqual(
      ops.map((op: Operation) => op.id),
      ["op-0", "op-1", "op-2", "op-3", "op-4"],
    );
    assert.deepEqual(
      calls.map((c) => c.request.query),
      [
        { limit: "2" },
        { limit: "2", cursor: "2025-01-01T00:00:00.999998Z" },
        { limit: "2", cursor: "2025-01-01T00:00:00.999996Z" },
      ],
    );
  });

  it("stops on an empty page", async () => {
    const { transport, calls } = operationsApi(4);
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal((await collect(client.listOperations("p1", { pageSize: 2 }))).length, 4);
    assert.equal(calls.length, 3);
  });

  it("reads 10,000 operations in 11 requests of 1000", async () => {
    const { transport, calls } = operationsApi(10_000);
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    let count = 0;
    for await (const _ of client.listOperations("p1")) count++;
    assert.equal(count, 10_000);
    assert.equal(calls.length, 11);
  });

  it("stops when a full page has no cursor", async () => {
    const { transport, calls } = fakeTransport(() => json(200, { operations: [operation(), operation()] }));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal((await collect(client.listOperations("p1", { pageSize: 2 }))).length, 2);
    assert.equal(calls.length, 1);
  });

  it("stops when the cursor repeats", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(200, { operations: [operation(), operation()], pagination: { cursor: "same" } }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal((await collect(client.listOperations("p1", { pageSize: 2 }))).length, 4);
    assert.equal(calls.length, 2);
  });

  it("throws a clear error past the hard page cap", async () => {
    let n = 0;
    const { transport, calls } = fakeTransport(() =>
      json(200, { operations: [operation()], pagination: { cursor: `c${++n}` } }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    await assert.rejects(collect(client.listOperations("p1", { pageSize: 1, maxPages: 5 })), (e: unknown) => {
      assert.ok(isPageLimit(e));
      assert.match(e.message, /operations of project p1/);
      assert.match(e.message, /5 pages/);
      return true;
    });
    assert.equal(calls.length, 5);
  });

  it("stops after maxItems without reading further pages", async () => {
    const { transport, calls } = operationsApi(10);
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal((await collect(client.listOperations("p1", { pageSize: 2, maxItems: 3 }))).length, 3);
    assert.equal(calls.length, 2);
  });

  it("refuses page sizes outside the API's bounds", async () => {
    const client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: API,
      transport: fakeTransport(() => json(200, {})).transport,
    });
    for (const pageSize of [0, 1001, 2.5]) {
      assert.throws(() => client.listOperations("p1", { pageSize }), isInvalidArgument);
    }
    for (const limit of [0, 401]) assert.throws(() => client.listProjects({ limit }), isInvalidArgument);
  });

  it("lists projects with search, org_id and limit, and surfaces unavailable_project_ids", async () => {
    const { transport, calls } = fakeTransport((request) =>
      request.query.cursor === undefined
        ? json(200, {
            projects: [project("a-1"), project("a-2")],
            pagination: { cursor: "a-2" },
            unavailable_project_ids: ["gone-1"],
            applications: {},
            integrations: {},
          })
        : json(200, {
            projects: [project("a-3")],
            pagination: { cursor: "a-3" },
            unavailable_project_ids: ["gone-2"],
          }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const listing = client.listProjects({ search: "a", orgId: "org-1", limit: 2 });
    const projects = await collect(listing);
    assert.deepEqual(
      projects.map((p) => p.id),
      ["a-1", "a-2", "a-3"],
    );
    assert.deepEqual(listing.unavailableProjectIds(), ["gone-1", "gone-2"]);
    assert.deepEqual(calls[0]?.request.query, { limit: "2", search: "a", org_id: "org-1" });
    assert.deepEqual(calls[1]?.request.query, { limit: "2", cursor: "a-2", search: "a", org_id: "org-1" });
  });

  it("stops listing projects on a short page even though the last page still carries a cursor", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(200, { projects: [project("a-1")], pagination: { cursor: "a-1" } }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal((await collect(client.listProjects({ limit: 10 }))).length, 1);
    assert.equal(calls.length, 1);
  });
});
