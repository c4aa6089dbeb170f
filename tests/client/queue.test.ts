import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import {
  type ClientEvent,
  type CloudDbClient,
  createClient,
  isApiError,
  isOperationTimeout,
  resetRegistry,
  type TransportRequest,
} from "../../provider/client";
import { ProjectQueues } from "../../provider/client/queue";
import { useEmulatorClient } from "./support/emulator";
import { branch, fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("client per-project queue", () => {
  afterEach(() => sinon.restore());

  it("runs one project's tasks one at a time, in arrival order", async () => {
    const queues = new ProjectQueues();
    const log: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((gate, i) =>
      queues.run("p1", async () => {
        log.push(`start ${i}`);
        await gate.promise;
        log.push(`end ${i}`);
      }),
    );
    await tick();
    assert.deepEqual(log, ["start 0"]);
    assert.equal(queues.pending("p1"), 3);
    gates[2]?.resolve();
    gates[1]?.resolve();
    await tick();
    assert.deepEqual(log, ["start 0"]);
    gates[0]?.resolve();
    await Promise.all(runs);
    assert.deepEqual(log, ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
    await tick();
    assert.equal(queues.pending("p1"), 0);
  });

  it("runs different projects concurrently", async () => {
    const queues = new ProjectQueues();
    const log: string[] = [];
    const gateA = deferred();
    const a = queues.run("p1", async () => {
      log.push("start p1");
      await gateA.promise;
    });
    const b = queues.run("p2", async () => {
      log.push("start p2");
    });
    await b;
    assert.deepEqual(log, ["start p1", "start p2"]);
    gateA.resolve();
    await a;
  });

  it("keeps going after a task fails, and hands the failure to its caller", async () => {
    const queues = new ProjectQueues();
    const failed = queues.run("p1", async () => {
      throw new Error("boom");
    });
    const next = queues.run("p1", async () => "ok");
    await assert.rejects(failed, /boom/);
    assert.equal(await next, "ok");
  });
});

describe("client mutations under the queue (fake timers)", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    resetRegistry();
    clock = sinon.useFakeTimers({ now: 0 });
  });
  afterEach(() => sinon.restore());

  /** A project where each branch creation starts one operation that finishes 1 s later. */
  function api() {
    const started = new Map<string, number>();
    let n = 0;
    return fakeTransport((request: TransportRequest) => {
      const path = request.path;
      if (request.method === "POST") {
        const projectId = path.split("/")[2] as string;
        const op = operation({ id: `op-${++n}`, project_id: projectId, status: "running" });
        started.set(op.id, Date.now());
        return json(201, { branch: branch({ project_id: projectId }), endpoints: [], operations: [op] });
      }
      const opId = path.split("/")[4] as string;
      const finished = Date.now() - (started.get(opId) ?? 0) >= 1_000;
      return json(200, { operation: operation({ id: opId, status: finished ? "finished" : "running" }) });
    });
  }

  const line = (c: { at: number; request: TransportRequest }) =>
    `${c.at} ${c.request.method} ${c.request.path}`;

  it("holds a project until the operations of the previous change are finished", async () => {
    const { transport, calls } = api();
    const events: ClientEvent[] = [];
    const client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: API,
      transport,
      pollIntervalMs: { first: 250, max: 1_000 },
      onEvent: (e) => events.push(e),
    });
    const both = Promise.all([client.createBranch("p1", {}), client.createBranch("p1", {})]);
    await clock.runAllAsync();
    await both;
    const posts = calls.filter((c) => c.request.method === "POST").map((c) => c.at);
    assert.equal(posts[0], 0);
    // The second POST waits for op-1 (finished at 1 s, seen at the poll at 1.75 s: 250 + 500 + 1000).
    assert.equal(posts[1], 1_750);
    assert.deepEqual(calls.map(line).slice(0, 4), [
      "0 POST /projects/p1/branches",
      "250 GET /projects/p1/operations/op-1",
      "750 GET /projects/p1/operations/op-1",
      "1750 GET /projects/p1/operations/op-1",
    ]);
    assert.ok(events.some((e) => e.type === "queued" && e.projectId === "p1" && e.ahead === 1));
  });
});

describe("client mutations under the queue, against the emulator", () => {
  // A stuck operation holds its project for good: each test starts from the seed again.
  const harness = useEmulatorClient({}, { reseed: true });
  const control = () => harness.emulator.control;
  const live = (name: string) => harness.liveBranches(name).length > 0;

  /**
   * Starts a branch creation in `projectId` whose operation never ends, so it gives up at its
   * deadline (`deadlineMs` from now); resolves once it was sent, with its outcome and whether it has
   * settled yet.
   */
  async function stuckChange(client: CloudDbClient, projectId: string, deadlineMs = 600) {
    control().scriptOperations({ action: "create_branch", projectId, count: 1 }, { kind: "stuck" });
    let settled = false;
    const outcome = client
      .createBranch(projectId, { branch: { name: "stuck" } }, { deadline: Date.now() + deadlineMs })
      .catch((e: unknown) => e)
      .finally(() => {
        settled = true;
      });
    while (!live("stuck")) await new Promise((r) => setTimeout(r, 5));
    return { outcome, settled: () => settled };
  }

  it("does not hold different projects for each other", async () => {
    const client = harness.client();
    // Long enough that the other project's change ends first however loaded the machine is.
    const held = await stuckChange(client, DEMO.projectId, 3000);
    await client.createBranch(DEMO.orgProjectId, { branch: { name: "elsewhere" } });
    assert.ok(live("elsewhere"));
    assert.equal(held.settled(), false, "the other project's change was made while the first still waits");
    assert.ok(isOperationTimeout(await held.outcome));
  });

  it("sends concurrently when the queue is turned off", async () => {
    const client = harness.client({ queue: false, retry: { lockedBaseMs: 1 } });
    const held = await stuckChange(client, DEMO.projectId);
    const second = await client
      .createBranch(DEMO.projectId, { branch: { name: "unqueued" } }, { deadline: Date.now() + 300 })
      .catch((e: unknown) => e);
    // The service refuses it while the first change's operation runs: it was sent, not held.
    assert.ok(isApiError(second));
    const posts = control().requests({ method: "POST" });
    assert.ok(posts.length >= 2, `${posts.length} POSTs`);
    assert.ok(posts.slice(1).every((r) => r.status === 423));
    assert.ok(isOperationTimeout(await held.outcome));
  });
});
