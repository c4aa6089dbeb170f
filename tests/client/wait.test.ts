import assert from "node:assert/strict";
import sinon from "sinon";
import {
  type ClientEvent,
  createClient,
  isOperationFailed,
  isOperationTimeout,
  type Operation,
  OperationSchema,
  resetRegistry,
  type TransportRequest,
} from "../../provider/client";
import { fakeTransport, json, operation, SECRET_KEY } from "./support/fixtures";

const API = "http://fake.invalid/api/v2";

/** A fake API where each operation walks through `timeline` (status per poll; the last repeats). */
function timelines(plans: Record<string, Array<Partial<Operation>>>) {
  const polls = new Map<string, number>();
  return fakeTransport((request: TransportRequest) => {
    const id = request.path.split("/")[4] as string;
    const n = polls.get(id) ?? 0;
    polls.set(id, n + 1);
    const plan = plans[id] ?? [{ status: "finished" }];
    const step = plan[Math.min(n, plan.length - 1)];
    return json(200, { operation: operation({ id, ...step }) });
  });
}

function op(id: string, status: string, extra: Record<string, unknown> = {}): Operation {
  return OperationSchema.parse(operation({ id, status, ...extra }));
}

describe("client operation waits (fake timers)", () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    resetRegistry();
    clock = sinon.useFakeTimers({ now: 0 });
  });
  afterEach(() => sinon.restore());

  function client(transport: ReturnType<typeof fakeTransport>["transport"], events: ClientEvent[] = []) {
    return createClient({ apiKey: SECRET_KEY, apiUrl: API, transport, onEvent: (e) => events.push(e) });
  }

  async function settle<T>(promise: Promise<T>): Promise<T | unknown> {
    const caught = promise.catch((e: unknown) => e);
    await clock.runAllAsync();
    return caught;
  }

  it("returns at once, without a request, when every operation is finished", async () => {
    const { transport, calls } = timelines({});
    const result = await client(transport).waitForOperations("p1", [
      op("a", "finished"),
      op("b", "finished"),
    ]);
    assert.deepEqual(
      result.map((o) => o.status),
      ["finished", "finished"],
    );
    assert.equal(calls.length, 0);
  });

  it("polls only unfinished operations, first after 250 ms, backing off to 5 s", async () => {
    const { transport, calls } = timelines({
      run: [
        { status: "running" },
        { status: "running" },
        { status: "running" },
        { status: "running" },
        { status: "running" },
        { status: "running" },
        { status: "finished" },
      ],
    });
    const result = await settle(
      client(transport).waitForOperations("p1", [op("done", "finished"), op("run", "running")]),
    );
    assert.deepEqual(
      (result as Operation[]).map((o) => o.status),
      ["finished", "finished"],
    );
    assert.ok(calls.every((c) => c.request.path === "/projects/p1/operations/run"));
    assert.deepEqual(
      calls.map((c) => c.at),
      [250, 750, 1_750, 3_750, 7_750, 12_750, 17_750],
    );
  });

  describe("with running times learned in the process", () => {
    /** A fake API whose operations run one after another, each `ms` long, from t = 0. */
    function sequential(ids: string[], ms: number) {
      return fakeTransport((request: TransportRequest) => {
        const id = request.path.split("/")[4] as string;
        const endsAt = (ids.indexOf(id) + 1) * ms;
        const done = Date.now() >= endsAt;
        const took = done ? { status: "finished", total_duration_ms: endsAt } : { status: "running" };
        return json(200, { operation: operation({ id, action: "create_branch", ...took }) });
      });
    }
    const running = (id: string) => op(id, "running", { action: "create_branch" });

    it("learns a running time, then polls when it should end and in short steps after", async () => {
      const first = sequential(["a"], 1_000);
      await settle(client(first.transport).waitForOperations("p1", [running("a")]));
      assert.deepEqual(
        first.calls.map((c) => c.at),
        [250, 750, 1_750],
        "nothing learned yet: backing off from 250 ms",
      );
      // The middle of 750..1750 is 1250 ms, but the API says it took 1000 ms: the next waits poll
      // at its end or a step before it.
      const polls: number[][] = [];
      for (let i = 0; i < 5; i++) {
        clock.setSystemTime(0);
        const next = sequential([`b${i}`], 1_000);
        await settle(client(next.transport).waitForOperations("p1", [running(`b${i}`)]));
        polls.push(next.calls.map((c) => c.at));
      }
      const last = polls.at(-1)!;
      assert.ok(last.length <= 2, `at most two polls once learned: ${JSON.stringify(polls)}`);
      assert.ok(last.at(-1)! - 1_000 <= 25, `found within a step of its end: ${JSON.stringify(polls)}`);
    });

    it("polls at least every 5 s when a learned time is longer (it counted time queued on a busy project)", async () => {
      // 30 s from creation to end: the operation queued behind others on the project.
      const queued = sequential(["q"], 30_000);
      await settle(client(queued.transport).waitForOperations("p1", [running("q")]));
      clock.setSystemTime(0);
      const { transport, calls } = sequential(["r"], 1_000);
      await settle(client(transport).waitForOperations("p1", [running("r")]));
      const times = calls.map((c) => c.at);
      assert.ok(times[0]! <= 5_000, `first poll within 5 s: ${times}`);
      assert.ok(
        times.every((t, i) => t - (times[i - 1] ?? 0) <= 5_000),
        `no pause over 5 s: ${times}`,
      );
    });

    it("polls the operation waited on first, then the next, each near its end", async () => {
      const warm = sequential(["w"], 500);
      await settle(client(warm.transport).waitForOperations("p1", [running("w")]));
      for (let i = 0; i < 3; i++) {
        clock.setSystemTime(0);
        const next = sequential([`x${i}`], 500);
        await settle(client(next.transport).waitForOperations("p1", [running(`x${i}`)]));
      }
      clock.setSystemTime(0);
      const { transport, calls } = sequential(["c", "d"], 500);
      await settle(client(transport).waitForOperations("p1", [running("c"), running("d")]));
      const paths = calls.map((c) => c.request.path.split("/")[4]);
      const firstD = paths.indexOf("d");
      assert.ok(firstD > 0 && paths.slice(0, firstD).every((id) => id === "c"), paths.join(","));
      assert.ok(
        calls.at(-1)!.at - 1_000 <= 100,
        `d found soon after its end at 1000: ${calls.map((c) => c.at)}`,
      );
    });
  });

  it("counts skipped as done and says so", async () => {
    const events: ClientEvent[] = [];
    const { transport } = timelines({ s: [{ status: "skipped" }] });
    const result = await settle(client(transport, events).waitForOperations("p1", [op("s", "scheduling")]));
    assert.equal((result as Operation[])[0]?.status, "skipped");
    const note = events.find((e) => e.type === "operation" && e.status === "skipped");
    assert.ok(note && note.type === "operation" && note.note?.includes("counted as done"));
  });

  it("keeps waiting on failed (the platform retries it) and reports failures_count", async () => {
    const progress: Array<[string, number]> = [];
    const events: ClientEvent[] = [];
    const { transport } = timelines({
      f: [
        { status: "failed", failures_count: 1 },
        { status: "failed", failures_count: 2 },
        { status: "running", failures_count: 2 },
        { status: "finished", failures_count: 2 },
      ],
    });
    const result = await settle(
      client(transport, events).waitForOperations("p1", [op("f", "running")], {
        onProgress: (o) => progress.push([o.status, o.failures_count]),
      }),
    );
    assert.equal((result as Operation[])[0]?.status, "finished");
    assert.deepEqual(progress, [
      ["running", 0],
      ["failed", 1],
      ["failed", 2],
      ["running", 2],
      ["finished", 2],
    ]);
    assert.ok(
      events.some(
        (e) => e.type === "operation" && e.status === "failed" && e.note?.includes("failed 2 time"),
      ),
    );
  });

  for (const status of ["cancelled", "error"]) {
    it(`throws OperationFailedError with action, id, status and the error when an operation ends ${status}`, async () => {
      const { transport } = timelines({
        x: [{ status: "running" }, { status, action: "start_compute", error: "compute failed to start" }],
      });
      const error = await settle(client(transport).waitForOperations("p1", [op("x", "running")]));
      assert.ok(isOperationFailed(error));
      assert.equal(error.operation.id, "x");
      assert.equal(error.operation.status, status);
      assert.equal(error.operation.action, "start_compute");
      assert.match(error.message, /start_compute x on project p1 ended with status/);
      assert.match(error.message, /compute failed to start/);
    });
  }

  it("keeps waiting through cancelling, then fails on cancelled", async () => {
    const { transport, calls } = timelines({
      c: [{ status: "cancelling" }, { status: "cancelling" }, { status: "cancelled" }],
    });
    const error = await settle(client(transport).waitForOperations("p1", [op("c", "running")]));
    assert.ok(isOperationFailed(error));
    assert.equal(calls.length, 3);
  });

  it("keeps waiting through scheduling, running and statuses it does not know", async () => {
    const progress: string[] = [];
    const { transport } = timelines({
      u: [
        { status: "running" },
        { status: "brand_new_status" },
        { status: "brand_new_status" },
        { status: "finished" },
      ],
    });
    const result = await settle(
      client(transport).waitForOperations("p1", [op("u", "scheduling")], {
        onProgress: (o) => progress.push(o.status),
      }),
    );
    assert.equal((result as Operation[])[0]?.status, "finished");
    assert.deepEqual(progress, ["scheduling", "running", "brand_new_status", "finished"]);
  });

  it("fails at once, without polling, on an operation that already ended in error", async () => {
    const { transport, calls } = timelines({});
    await assert.rejects(
      client(transport).waitForOperations("p1", [op("e", "error", { error: "boom" })]),
      isOperationFailed,
    );
    assert.equal(calls.length, 0);
  });

  it("gives OperationTimeoutError listing the pending operation ids at the deadline", async () => {
    const { transport, calls } = timelines({
      slow: [{ status: "running" }],
      quick: [{ status: "finished" }],
    });
    const error = await settle(
      client(transport).waitForOperations("p1", [op("slow", "running"), op("quick", "running")], {
        deadline: 2_000,
      }),
    );
    assert.ok(isOperationTimeout(error));
    assert.deepEqual(error.pendingOperationIds, ["slow"]);
    assert.match(error.message, /slow \(create_branch, running\)/);
    assert.ok(calls.every((c) => c.at <= 2_000));
    assert.equal(calls.at(-1)?.at, 2_000);
  });
});
