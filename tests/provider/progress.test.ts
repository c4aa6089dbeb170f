import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { type ClientEvent, createClient } from "../../provider/client";
import { forgetProgress, progressListener } from "../../provider/resources/host/progress";
import { clientFromSettings } from "../../provider/resources/host/settings";
import { OP_MS, useEmulator } from "./support";

// Waiting on an operation that takes more than two seconds prints one line per state change: which
// operation, on which object, how long so far. Pulumi shows the provider's stdout lines as the stack's info messages, in a terminal and in CI.

function operationEvent(
  status: string,
  overrides: Partial<ClientEvent & { type: "operation" }> = {},
): ClientEvent {
  return {
    type: "operation",
    projectId: "p-1",
    operationId: "op-1",
    branchId: "br-1",
    endpointId: undefined,
    action: "create_branch",
    status,
    failuresCount: 0,
    note: undefined,
    ...overrides,
  };
}

describe("progress of operation waits", () => {
  const harness = useEmulator({ opDurationMs: OP_MS * 3 });
  beforeEach(() => forgetProgress());

  it("writes nothing for an operation that ends quickly, then one line per state change past two seconds", () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const listen = progressListener(
      (line) => lines.push(line),
      () => now,
    );
    listen(operationEvent("scheduling", { operationId: "op-quick" }));
    now += 900;
    listen(operationEvent("finished", { operationId: "op-quick" }));
    listen(operationEvent("scheduling"));
    now += 900;
    listen(operationEvent("running"));
    now += 1200;
    listen(operationEvent("running"));
    listen(operationEvent("running"));
    listen(operationEvent("failed", { failuresCount: 1 }));
    now += 3000;
    listen(operationEvent("failed", { failuresCount: 1 }));
    listen(operationEvent("failed", { failuresCount: 2 }));
    listen(operationEvent("finished"));
    listen(operationEvent("running"));
    listen(operationEvent("running", { operationId: "op-2", action: "start_compute", endpointId: "ep-1" }));
    now += 2500;
    listen(operationEvent("running", { operationId: "op-2", action: "start_compute", endpointId: "ep-1" }));
    listen(operationEvent("running", { operationId: "op-3", action: "delete_project", branchId: undefined }));
    now += 2500;
    listen(
      operationEvent("finished", { operationId: "op-3", action: "delete_project", branchId: undefined }),
    );
    listen({ type: "queued", projectId: "p-1", ahead: 2 });
    assert.deepEqual(lines, [
      "create_branch op-1 on br-1: running (2s)",
      "create_branch op-1 on br-1: failed, 1 failure(s) so far (2s)",
      "create_branch op-1 on br-1: failed, 2 failure(s) so far (5s)",
      "create_branch op-1 on br-1: finished (5s)",
      "start_compute op-2 on ep-1 of br-1: running (2s)",
      "delete_project op-3 on project p-1: finished (2s)",
    ]);
  });

  it("says once that a busy project is being waited out", () => {
    const lines: string[] = [];
    const listen = progressListener((line) => lines.push(line));
    const busy: ClientEvent = { type: "locked-wait", projectId: "p-1", pendingOperationIds: ["op-9"] };
    listen(busy);
    listen(busy);
    assert.deepEqual(lines, ["project p-1 is busy: waiting for 1 operation(s) to finish (op-9)"]);
  });

  it("reports each operation of a real create once per state, also when two waits watch it", async () => {
    const lines: string[] = [];
    // Each event a second after the last, so these quick operations count as slow ones.
    let clock = 0;
    const client = clientFromSettings({
      onEvent: progressListener(
        (line) => lines.push(line),
        () => (clock += 1000),
      ),
    });
    const projectId = "winter-boat-25988145";
    const made = await client.createBranch(projectId, {
      branch: { name: "progress" },
      endpoints: [{ type: "read_write" }],
    });
    const again = await client.waitForOperations(projectId, made.operations, { deadline: Date.now() + 5000 });
    assert.equal(again.length, 2);
    const branchId = made.branch.id;
    for (const op of made.operations) {
      const mine = lines.filter((l) => l.startsWith(`${op.action} ${op.id} on `));
      assert.ok(mine.length >= 1, `${op.action}: ${lines.join("\n")}`);
      assert.match(mine.at(-1) ?? "", /: finished \(\d+s\)$/);
      assert.equal(
        new Set(mine.map((l) => l.replace(/ \(\d+s\)$/, ""))).size,
        mine.length,
        `no state twice: ${mine.join("\n")}`,
      );
      const object = op.endpoint_id ? `${op.endpoint_id} of ${branchId}` : branchId;
      assert.ok(
        mine.every((l) => l.includes(` on ${object}: `)),
        mine.join("\n"),
      );
    }
    assert.ok(harness.log().some((l) => l.startsWith(`GET /projects/${projectId}/operations/`)));
  });

  it("writes one line for a long wait on a rate-limited route, however many requests and retries wait in it", async () => {
    const lines: string[] = [];
    const { control, url } = harness.emulator;
    const route = "POST /organizations/:org_id/api_keys";
    const client = createClient({
      apiKey: DEMO.personalKey,
      apiUrl: url,
      // The jitter at the top of each window: about 1 s, then 2 s, so a second retry ends a wait past 2 s.
      retry: { rateLimitedBaseMs: 1_000 },
      random: () => 0.99,
      // Without the throttle's own slowing down, the wait is the retries' alone.
      throttle: false,
      onEvent: progressListener((line) => lines.push(line)),
    });
    const makeKey = (name: string) =>
      client.createOrgApiKey(DEMO.orgId, { keyName: name, projectId: DEMO.orgProjectId });

    control.clearRequests();
    control.failNext(route, { status: 429, retryAfter: 0 }, 1);
    await makeKey("progress-short");
    assert.deepEqual(lines, [], "a wait under two seconds is not reported");

    control.failNext(route, { status: 429, retryAfter: 0 }, 8);
    const made = await Promise.all([1, 2, 3, 4].map((i) => makeKey(`progress-long-${i}`)));
    assert.equal(made.length, 4);
    const refused = control.requests().filter((r) => r.status === 429).length;
    assert.equal(refused, 9, "every scripted 429 was answered");
    assert.deepEqual(lines, [
      "waiting for the API's rate limit on POST /organizations/{org_id}/api_keys (other clients share it)...",
    ]);
  });
});
