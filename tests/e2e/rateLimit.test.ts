// Two `pulumi up`s at once on one account, each creating project-scoped keys on the organization
// key route, without a shared limiter, while the API refuses that route with 429 for longer than a
// count of attempts would wait (other clients of the account using the limit up). A 429 is a wait,
// not a failure: both runs succeed and every key is made once.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { installPackedProject } from "./support/package";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack } from "./support/stack";

const KEY_ROUTE = "POST /organizations/{org_id}/api_keys";
const KEYS = 5;
/** 429s (Retry-After 1 s) the route answers before any key is made: each run, slowed to about one request a second, spends some 30 s on them. */
const STORM = 60;
/** The old bound: a request gave up after this many answers of 429. */
const OLD_ATTEMPTS = 7;

describe("e2e: two stacks at once wait out the shared rate limit", function () {
  this.timeout(10 * 60 * 1000);
  let project: string;
  let emulator: RunningEmulator;
  const stacks: E2eStack[] = [];

  const scenario = (stack: number) => ({
    keys: Array.from({ length: KEYS }, (_, i) => ({
      res: `k${i}`,
      name: `limited-${stack}-${i}`,
      orgId: DEMO.orgId,
      projectId: DEMO.orgProjectId,
    })),
  });

  before(async () => {
    project = installPackedProject(fixture("scenario"));
    emulator = await startEmulator({ seed: "demo" });
    for (const s of [0, 1]) {
      stacks.push(
        await programStack({
          workDir: project,
          emulator,
          stackName: `limited-${s}`,
          config: { scenario: JSON.stringify(scenario(s)) },
        }),
      );
    }
  });
  after(async () => {
    for (const e2e of stacks) await e2e.dispose();
    await emulator?.stop();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it("both ups exit 0 with every key created, after waiting out more 429s than the old attempt count", async () => {
    emulator.control.clearRequests();
    emulator.control.failNext("POST /organizations/:org_id/api_keys", { status: 429, retryAfter: 1 }, STORM);
    const results = await Promise.allSettled(stacks.map((e2e) => e2e.stack.up(collect(e2e.output))));
    results.forEach((result, s) => {
      assert.equal(result.status, "fulfilled", `stack ${s} failed:\n${stacks[s]?.output.join("\n")}`);
      if (result.status === "fulfilled") assert.equal(changesOf(result.value).create, KEYS + 1);
    });

    const live = emulator.control
      .dumpState()
      .apiKeys.filter((k) => k.name.startsWith("limited-") && !k.revoked)
      .map((k) => k.name.split(" ")[0]);
    assert.equal(new Set(live).size, 2 * KEYS, `every key once: ${live.join(", ")}`);

    const posts = emulator.control.requests().filter((r) => r.route === KEY_ROUTE);
    const refused = posts.filter((r) => r.status === 429);
    assert.ok(refused.length >= STORM, `the emulator answered ${refused.length} × 429`);
    // One logical request keeps its request id across retries: some waited past the old bound.
    const refusalsPerRequest = new Map<string, number>();
    for (const r of refused)
      refusalsPerRequest.set(r.requestId, (refusalsPerRequest.get(r.requestId) ?? 0) + 1);
    const most = Math.max(...refusalsPerRequest.values());
    assert.ok(most >= OLD_ATTEMPTS, `the longest wait saw ${most} answers of 429`);

    // Pulumi shows a provider's line while it runs, then once more in its summary of diagnostics.
    const line = `waiting for the API's rate limit on ${KEY_ROUTE} (other clients share it)...`;
    for (const e2e of stacks) {
      const text = e2e.output.join("");
      const summary = text.slice(text.indexOf("Diagnostics:"));
      assert.equal(summary.split(line).length - 1, 1, `one progress line for the run's wait:\n${text}`);
    }
  });
});
