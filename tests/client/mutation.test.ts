import assert from "node:assert/strict";
import sinon from "sinon";
import {
  type BranchCreateResponse,
  type ClientEvent,
  createClient,
  isOperationFailed,
  isOperationTimeout,
  resetRegistry,
  type TransportRequest,
  type TransportResponse,
} from "../../provider/client";
import { branch, fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";
const LOCKED = {
  code: "",
  message: "project already has running conflicting operations, scheduling of new ones is prohibited",
};

const line = (c: { request: TransportRequest }) =>
  `${c.request.method} ${c.request.path}${c.request.query.limit ? `?limit=${c.request.query.limit}` : ""}`;

describe("client mutations (fake timers)", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    resetRegistry();
    clock = sinon.useFakeTimers({ now: 0 });
  });
  afterEach(() => sinon.restore());

  async function settle<T>(promise: Promise<T>): Promise<T | unknown> {
    const caught = promise.catch((e: unknown) => e);
    await clock.runAllAsync();
    return caught;
  }

  it("after the 423 retries are spent, waits for the project's unfinished operations and sends again", async () => {
    let posts = 0;
    let lockPolls = 0;
    const events: ClientEvent[] = [];
    const { transport, calls } = fakeTransport((request): TransportResponse => {
      if (request.method === "POST") {
        posts++;
        if (posts <= 6) return json(423, LOCKED);
        return json(201, { branch: branch(), operations: [operation({ id: "mine", status: "finished" })] });
      }
      if (request.path === "/projects/p1/operations") {
        return json(200, {
          operations: [
            operation({ id: "maintenance", action: "check_availability", status: "running" }),
            operation({ id: "old", status: "finished" }),
          ],
          pagination: { cursor: "x" },
        });
      }
      lockPolls++;
      return json(200, {
        operation: operation({ id: "maintenance", status: lockPolls >= 2 ? "finished" : "running" }),
      });
    });
    const client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: API,
      transport,
      onEvent: (e) => events.push(e),
    });
    const result = (await settle(
      client.createBranch("p1", { branch: { name: "preview-1" } }),
    )) as BranchCreateResponse;
    assert.equal(result.branch.id, "br-damp-glitter-adqd4hk5");
    assert.deepEqual(calls.map(line), [
      ...Array(6).fill("POST /projects/p1/branches"),
      "GET /projects/p1/operations?limit=100",
      "GET /projects/p1/operations/maintenance",
      "GET /projects/p1/operations/maintenance",
      "POST /projects/p1/branches",
    ]);
    assert.ok(events.some((e) => e.type === "locked-wait" && e.pendingOperationIds.join() === "maintenance"));
  });

  it("attaches the request's response when an operation it started fails", async () => {
    const { transport } = fakeTransport((request) =>
      request.method === "POST"
        ? json(201, { branch: branch(), operations: [operation({ id: "c1", status: "running" })] })
        : json(200, { operation: operation({ id: "c1", status: "error", error: "no capacity" }) }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const error = await settle(client.createBranch("p1", {}));
    assert.ok(isOperationFailed(error));
    assert.equal((error.response as BranchCreateResponse).branch.id, "br-damp-glitter-adqd4hk5");
  });

  it("attaches the request's response when the wait times out", async () => {
    const { transport } = fakeTransport((request) =>
      request.method === "DELETE"
        ? json(200, { branch: branch(), operations: [operation({ id: "d1", action: "delete_timeline" })] })
        : json(200, { operation: operation({ id: "d1", status: "running" }) }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const error = await settle(client.deleteBranch("p1", "br-1", { deadline: 3_000 }));
    assert.ok(isOperationTimeout(error));
    assert.deepEqual(error.pendingOperationIds, ["d1"]);
    assert.ok(error.response);
  });

  it("resolves right after the request with wait: false", async () => {
    const { transport, calls } = fakeTransport(() =>
      json(200, { branch: branch({ name: "renamed" }), operations: [operation({ status: "running" })] }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const result = await client.updateBranch("p1", "br-1", { name: "renamed" }, { wait: false });
    assert.equal(result.branch.name, "renamed");
    assert.deepEqual(calls.map(line), ["PATCH /projects/p1/branches/br-1"]);
    assert.deepEqual(calls[0]?.request.json, { branch: { name: "renamed" } });
  });

  it("returns null for a 204 from delete (already gone)", async () => {
    const { transport } = fakeTransport(() => ({ status: 204, headers: {}, body: "" }));
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    assert.equal(await client.deleteBranch("p1", "br-1"), null);
  });

  it("gives up without sending when the deadline passes while queued behind another change", async () => {
    const { transport, calls } = fakeTransport((request) =>
      request.method === "POST"
        ? json(201, { branch: branch(), operations: [operation({ id: "long", status: "running" })] })
        : json(200, {
            operation: operation({ id: "long", status: Date.now() >= 5_000 ? "finished" : "running" }),
          }),
    );
    const client = createClient({ apiKey: SECRET_KEY, apiUrl: API, transport });
    const first = settle(client.createBranch("p1", {}));
    const second = await settle(client.createBranch("p1", {}, { deadline: 1_000 }));
    await first;
    assert.ok(isOperationTimeout(second));
    assert.match(second.message, /queued behind earlier changes/);
    assert.equal(calls.filter((c) => c.request.method === "POST").length, 1);
  });
});
