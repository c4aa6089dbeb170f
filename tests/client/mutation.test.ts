import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import {
  type BranchCreateResponse,
  type ClientEvent,
  createClient,
  DEFAULT_RETRY_POLICY,
  isOperationFailed,
  isOperationTimeout,
  resetRegistry,
  type TransportRequest,
} from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";
import { branch, fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";
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

describe("client mutations against the emulator", () => {
  const harness = useEmulatorClient();

  it("after the 423 retries are spent, waits for the project's unfinished operations and sends again", async () => {
    const control = harness.emulator.control;
    const maintenance = control.startPlatformOperation(DEMO.projectId, "check_availability", 300);
    const events: ClientEvent[] = [];
    const client = harness.client({ retry: { lockedBaseMs: 1 }, onEvent: (e) => events.push(e) });
    const made = await client.createBranch(DEMO.projectId, { branch: { name: "after-maintenance" } });
    assert.equal(control.snapshot().branches.find((b) => b.id === made.branch.id)?.name, "after-maintenance");
    const posts = control.requests({ method: "POST" }).map((r) => r.status);
    // Every retry the policy allows met the lock; the next POST waited for the operation to end, so it
    // was the last one: a POST sent into the lock again would have been refused too.
    const locked = DEFAULT_RETRY_POLICY.lockedAttempts + 1;
    assert.equal(posts.filter((status) => status === 423).length, locked, `POST answers: ${posts}`);
    assert.deepEqual([posts.length, posts.at(-1)], [locked + 1, 201]);
    assert.ok(
      events.some((e) => e.type === "locked-wait" && e.pendingOperationIds.includes(maintenance.id)),
      "the wait named the operation holding the lock",
    );
  });
});
