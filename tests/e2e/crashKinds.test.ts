// One stack of every kind but Branch (see crash.test.ts), its `up` killed during the create of each
// kind in turn and its `destroy` during a delete, each followed by the next unattended run: the
// API then holds exactly the objects the state records, each made once.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import type { E2eStack } from "./support/stack";

const PROJECT = DEMO.orgProjectId;
const KEY_NAME = "crash-kinds-key";

// Projects auto-named and named, and a key, start at once; then a chain on a new branch, so each
// create starts only after the one before it ended: compute, role (unnamed), database (unnamed).
const RESOURCES: Declared[] = [
  { kind: "Project", res: "auto", args: {} },
  { kind: "Project", res: "named", args: { name: "crash-kinds-named" } },
  { kind: "ApiKey", res: "key", args: { name: KEY_NAME } },
  { kind: "Branch", res: "host", args: { projectId: PROJECT } },
  { kind: "Endpoint", res: "compute", args: { projectId: PROJECT, branchId: "@host.branchId" } },
  { kind: "Role", res: "owner", args: { projectId: PROJECT, branchId: "@compute.branchId" } },
  {
    kind: "Database",
    res: "db",
    args: { projectId: PROJECT, branchId: "@owner.branchId", ownerName: "@owner.name" },
  },
];

const ROUTES = {
  projects: "POST /projects",
  endpoints: "POST /projects/{project_id}/endpoints",
  roles: "POST /projects/{project_id}/branches/{branch_id}/roles",
  databases: "POST /projects/{project_id}/branches/{branch_id}/databases",
  keys: "POST /api_keys",
} as const;

describe("e2e: every kind converges after a killed up or destroy", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  /** Creates the API carried out on `route` (a 423 or 409 made nothing). */
  const made = (route: string) =>
    emulator.control.requests({ route }).filter((r) => r.status === 201 || r.status === 200).length;
  const deletes = () => emulator.control.requests({ method: "DELETE" }).length;

  /** Live objects this stack may have made, by kind, and the ids the state records. */
  function census(seed: { projects: Set<string>; branches: Set<string> }) {
    const snap = emulator.control.dumpState();
    const branches = snap.branches.filter(
      (b) => b.project_id === PROJECT && b.deleted_at_ms === undefined && !seed.branches.has(b.id),
    );
    // A branch starts with its parent's roles and databases: those are not this stack's.
    const parent = snap.branches.find((b) => b.default && b.project_id === PROJECT);
    const inherited = new Set([...(parent?.roles ?? []), ...(parent?.databases ?? [])].map((o) => o.name));
    const live = {
      Project: snap.projects
        .filter((p) => p.deleted_at_ms === undefined && !seed.projects.has(p.id))
        .map((p) => p.id),
      Branch: branches.map((b) => b.id),
      Endpoint: snap.endpoints.filter((e) => branches.some((b) => b.id === e.branch_id)).map((e) => e.id),
      Role: branches.flatMap((b) =>
        b.roles.filter((r) => !inherited.has(r.name)).map((r) => `${b.id}/${r.name}`),
      ),
      Database: branches.flatMap((b) =>
        b.databases.filter((d) => !inherited.has(d.name)).map((d) => String(d.id)),
      ),
      ApiKey: snap.apiKeys.filter((k) => k.name.startsWith(KEY_NAME) && !k.revoked).map((k) => String(k.id)),
    };
    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
    };
    const recorded = Object.fromEntries(
      Object.keys(live).map((kind) => [
        kind,
        (state.checkpoint.latest?.resources ?? [])
          .filter((r) => r.type === `pulumi-nodejs:dynamic/clouddb:${kind}`)
          .map((r) => r.id as string),
      ]),
    );
    return { live, recorded };
  }

  /** Every live object is in the state exactly once, every state entry is live, `count` of each kind. */
  function assertConverged(seed: Parameters<typeof census>[0], count: number, run: CliRun) {
    const { live, recorded } = census(seed);
    const detail = `${JSON.stringify({ live, recorded })}\n${run.output}`;
    assert.equal(run.code, 0, detail);
    for (const [kind, ids] of Object.entries(live)) {
      assert.deepEqual(
        [...ids].sort(),
        [...(recorded[kind] ?? [])].sort(),
        `${kind}: orphans or missing: ${detail}`,
      );
      assert.equal(ids.length, kind === "Project" ? 2 * count : count, `${kind}: ${detail}`);
    }
  }

  /** The next pipeline run: Pulumi's lock removed by its own command, then the plain command. */
  async function nextRun(command: "up" | "destroy", kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
  }

  /** A kill 300 ms after `when` turns true: the create or delete then waits on its operations. */
  const killWhen = (when: () => boolean) => ({ killWhen: when, killAfterMs: 300 });

  before(async () => {
    // Operations take 2 s, so a kill lands while the provider waits on them.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 2000 });
    e2e = await crashFixtureStack(emulator, "crash-kinds", {
      resources: RESOURCES,
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    await nextRun("destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("kills up during the create of each kind in turn; the next up takes each object, makes none twice", async () => {
    const snap = emulator.control.dumpState();
    const seed = {
      projects: new Set(snap.projects.map((p) => p.id)),
      branches: new Set(snap.branches.map((b) => b.id)),
    };
    // The key's answer is held after the key is made: the kill lands before its token is received.
    emulator.control.failNext(ROUTES.keys, { holdMs: 60_000 });
    const keyMade = () => emulator.control.dumpState().apiKeys.some((k) => k.name.startsWith(KEY_NAME));
    const stages: [string, () => boolean][] = [
      ["projects and key", () => made(ROUTES.projects) >= 2 && keyMade()],
      ["compute", () => made(ROUTES.endpoints) >= 1],
      ["role", () => made(ROUTES.roles) >= 1],
      ["database", () => made(ROUTES.databases) >= 1],
    ];
    for (const [what, when] of stages) {
      const killed = await nextRun("up", killWhen(when));
      assert.equal(killed.code, "killed", `up was not killed during the ${what} create:\n${killed.output}`);
      assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    }
    assertConverged(seed, 1, await nextRun("up"));
    // Each object made by one create across all runs; the key twice: the first, whose token was
    // lost with the killed run (its answer never logged), revoked.
    const { keys: _held, ...creates } = ROUTES;
    assert.deepEqual(
      Object.fromEntries(Object.entries(creates).map(([kind, route]) => [kind, made(route)])),
      {
        projects: 2,
        endpoints: 1,
        roles: 1,
        databases: 1,
      },
    );
    const keys = emulator.control.dumpState().apiKeys.filter((k) => k.name.startsWith(KEY_NAME));
    assert.deepEqual(
      keys.map((k) => k.revoked),
      [true, false],
    );

    const before = deletes();
    const killed = await nextRun(
      "destroy",
      killWhen(() => deletes() > before),
    );
    assert.equal(killed.code, "killed", killed.output);
    assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    assertConverged(seed, 0, await nextRun("destroy"));
  });
});
