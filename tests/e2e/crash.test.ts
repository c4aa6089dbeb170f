// A CI job killed mid-`up` or mid-`destroy` (SIGKILL to every Pulumi process), then the next run,
// unattended: the API holds exactly the objects the state records, no orphan and no duplicate.
// The only step besides the rerun is Pulumi's own `pulumi cancel` for the lock the killed run left.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import type { E2eStack } from "./support/stack";

const PROJECT = DEMO.orgProjectId;
const KEY_NAME = "crash-key";

// Auto-named and named branches (one with a compute), a child of the named one, and a key.
const RESOURCES: Declared[] = [
  { kind: "Branch", res: "auto", args: { projectId: PROJECT, endpoints: [{ type: "read_write" }] } },
  { kind: "Branch", res: "named", args: { projectId: PROJECT, name: "crash-named" } },
  { kind: "Branch", res: "child", args: { projectId: PROJECT, parentId: "@named.branchId" } },
  { kind: "ApiKey", res: "key", args: { name: KEY_NAME } },
];

describe("e2e: a killed up or destroy converges on the next unattended run", function () {
  this.timeout(5 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let seedBranches: Set<string>;

  /** Branch creates the API carried out (a POST refused with 423 while the killed run's operations end made nothing). */
  const branchPosts = () =>
    emulator.control
      .requests({ route: "POST /projects/{project_id}/branches" })
      .filter((r) => r.status === 201).length;
  const branchDeletes = () =>
    emulator.control.requests({ route: "DELETE /projects/{project_id}/branches/{branch_id}" }).length;

  /** Live objects this stack may have made, and the ids the state records. */
  function census() {
    const snap = emulator.control.dumpState();
    const branches = snap.branches
      .filter((b) => b.project_id === PROJECT && b.deleted_at_ms === undefined && !seedBranches.has(b.id))
      .map((b) => b.id);
    // The API's copy of a key's name carries the create key's mark after the name.
    const keys = snap.apiKeys
      .filter((k) => k.name.startsWith(`${KEY_NAME} #`) && !k.revoked)
      .map((k) => String(k.id));
    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
    };
    const ids = (type: string) =>
      (state.checkpoint.latest?.resources ?? [])
        .filter((r) => r.type === `pulumi-nodejs:dynamic/clouddb:${type}`)
        .map((r) => r.id as string);
    return { branches, keys, stateBranches: ids("Branch"), stateKeys: ids("ApiKey") };
  }

  /** Every live object is in the state exactly once, and every state entry is live. */
  function assertConverged(expected: { branches: number; keys: number }, run: CliRun) {
    const c = census();
    const detail = `${JSON.stringify(c)}\n${run.output}`;
    assert.equal(run.code, 0, detail);
    assert.deepEqual([...c.branches].sort(), [...c.stateBranches].sort(), `orphans or missing: ${detail}`);
    assert.deepEqual([...c.keys].sort(), [...c.stateKeys].sort(), `orphan keys or missing: ${detail}`);
    assert.equal(c.branches.length, expected.branches, detail);
    assert.equal(c.keys.length, expected.keys, detail);
  }

  /** The next pipeline run: Pulumi's lock removed by its own command, then the plain command. */
  async function nextRun(command: "up" | "destroy"): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"]);
  }

  before(async () => {
    // Operations take 2 s, so a kill lands while the provider waits on them.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 2000 });
    seedBranches = new Set(emulator.control.dumpState().branches.map((b) => b.id));
  });
  after(async () => emulator?.stop());

  beforeEach(async () => {
    emulator.control.clearRequests();
    e2e = await crashFixtureStack(emulator, "crash", {
      resources: RESOURCES,
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  afterEach(async () => {
    await nextRun("destroy");
    await e2e.dispose();
  });

  for (const posts of [1, 3]) {
    it(`killed while ${posts} branch create(s) wait on their operations: the next up takes them, makes no second`, async () => {
      const killed = await runCli(e2e, ["up", "--yes", "--skip-preview"], {
        killWhen: () => branchPosts() >= posts,
        killAfterMs: 300,
      });
      assert.equal(killed.code, "killed", killed.output);
      assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
      const up = await nextRun("up");
      assertConverged({ branches: 3, keys: 1 }, up);
      // Three branches, each made by one POST across both runs.
      assert.equal(branchPosts(), 3, up.output);
    });
  }

  it("killed while the destroy waits on a branch delete: the next destroy removes everything", async () => {
    assertConverged({ branches: 3, keys: 1 }, await runCli(e2e, ["up", "--yes", "--skip-preview"]));
    const killed = await runCli(e2e, ["destroy", "--yes", "--skip-preview"], {
      killWhen: () => branchDeletes() >= 1,
      killAfterMs: 300,
    });
    assert.equal(killed.code, "killed", killed.output);
    assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    assertConverged({ branches: 0, keys: 0 }, await nextRun("destroy"));
  });

  it("a name taken by a branch this stack did not make fails with what to do, and is never taken", async () => {
    const theirs = await fetch(`${emulator.url}/projects/${PROJECT}/branches`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ branch: { name: "crash-named" } }),
    }).then(async (r) => ((await r.json()) as { branch: { id: string } }).branch.id);
    seedBranches.add(theirs);
    const up = await runCli(e2e, ["up", "--yes", "--skip-preview"]);
    assert.notEqual(up.code, 0);
    assert.match(up.output, /a branch named "crash-named" already exists .* not created by this resource/);
    assert.match(up.output, /adoptExisting/);
    assert.ok(!census().stateBranches.includes(theirs), "the user's branch was taken");
  });
});
