import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import {
  type BranchCreateResponse,
  type ClientEvent,
  DEFAULT_RETRY_POLICY,
  isOperationFailed,
  isOperationTimeout,
} from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";

// Mutations against the emulator: the wait for the operations a change started (or for the ones
// holding a project's lock), what an error carries when that wait fails, and the project queue's
// deadline. Operations are scripted to fail or never end, so no test waits long.

const P = DEMO.projectId;

/** Settles `promise` to its value or its rejection. */
function settle<T>(promise: Promise<T>): Promise<T | unknown> {
  return promise.catch((e: unknown) => e);
}

describe("client mutations against the emulator", () => {
  // A stuck operation holds its project for good: each test starts from the seed again.
  const harness = useEmulatorClient({}, { reseed: true });
  const control = () => harness.emulator.control;
  const liveBranches = (name: string) => harness.liveBranches(name);

  it("after the 423 retries are spent, waits for the project's unfinished operations and sends again", async () => {
    // The maintenance lasts an hour of emulator time, so it outlives the retries however slowly the
    // machine runs them; it ends when the client starts waiting for it.
    const hour = 3_600_000;
    const maintenance = control().startPlatformOperation(P, "check_availability", hour);
    const events: ClientEvent[] = [];
    const onEvent = (e: ClientEvent) => {
      events.push(e);
      if (e.type === "locked-wait") control().advance(hour);
    };
    const client = harness.client({ retry: { lockedBaseMs: 1 }, onEvent });
    const made = await client.createBranch(P, { branch: { name: "after-maintenance" } });
    assert.deepEqual(
      liveBranches("after-maintenance").map((b) => b.id),
      [made.branch.id],
    );
    const posts = control()
      .requests({ method: "POST" })
      .map((r) => r.status);
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

  it("attaches the request's response when an operation it started fails", async () => {
    control().scriptOperations(
      { action: "create_branch", count: 1 },
      { kind: "error", message: "no capacity" },
    );
    const error = await settle(harness.client().createBranch(P, { branch: { name: "no-capacity" } }));
    assert.ok(isOperationFailed(error));
    const made = (error.response as BranchCreateResponse).branch;
    assert.deepEqual(
      liveBranches("no-capacity").map((b) => b.id),
      [made.id],
    );
  });

  it("attaches the request's response when the wait times out", async () => {
    const id = (await harness.client().createBranch(P, { branch: { name: "slow-delete" } })).branch.id;
    control().scriptOperations({ count: 1 }, { kind: "stuck" });
    const error = await settle(harness.client().deleteBranch(P, id, { deadline: Date.now() + 200 }));
    assert.ok(isOperationTimeout(error));
    const stuck = control()
      .dumpState()
      .operations.filter((op) => op.branch_id === id && op.status === "running");
    assert.deepEqual(
      error.pendingOperationIds,
      stuck.map((op) => op.id),
    );
    assert.ok(error.response);
  });

  it("resolves right after the request with wait: false", async () => {
    const id = (await harness.client().createBranch(P, { branch: { name: "before-rename" } })).branch.id;
    control().scriptOperations({ count: 1 }, { kind: "stuck" });
    control().clearRequests();
    const result = await harness.client().updateBranch(P, id, { name: "renamed" }, { wait: false });
    assert.equal(result.branch.name, "renamed");
    assert.deepEqual(harness.log(), [`PATCH /projects/${P}/branches/${id}`], "no operation was polled");
  });

  it("gives up without sending when the deadline passes while queued behind another change", async () => {
    control().scriptOperations({ action: "create_branch", count: 1 }, { kind: "stuck" });
    const client = harness.client();
    const first = settle(
      client.createBranch(P, { branch: { name: "long" } }, { deadline: Date.now() + 500 }),
    );
    const second = await settle(
      client.createBranch(P, { branch: { name: "queued" } }, { deadline: Date.now() + 100 }),
    );
    await first;
    assert.ok(isOperationTimeout(second));
    assert.match(second.message, /queued behind earlier changes/);
    assert.equal(control().requests({ method: "POST" }).length, 1, "the queued change was never sent");
    assert.deepEqual(liveBranches("queued"), []);
  });
});
