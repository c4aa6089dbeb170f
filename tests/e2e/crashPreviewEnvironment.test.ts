// The preview-environment example run by its own workflow, the `up` job cancelled (SIGKILL to the
// whole step) during each of its creates in turn; then the workflow's next run, as written and
// with no step of anyone's: it exits 0, and the API holds exactly the objects the stack records,
// each made once, with DATABASE_URL carrying the role's current password.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import type { KillPlan } from "./support/kill";
import { type Checkout, checkoutExample, type JobRun } from "./support/workflow";

const PROJECT = DEMO.orgProjectId;
const PULL_REQUEST = "31";
const BRANCH_NAME = `preview/pr-${PULL_REQUEST}`;
const ROUTES = {
  branches: "POST /projects/{project_id}/branches",
  roles: "POST /projects/{project_id}/branches/{branch_id}/roles",
  databases: "POST /projects/{project_id}/branches/{branch_id}/databases",
} as const;

describe("e2e: the preview-environment workflow converges after its up is killed during each create", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let checkout: Checkout;

  /** Answers on `route` with status `status`. */
  const answered = (route: string, status: (s: number) => boolean) =>
    emulator.control.requests({ route }).filter((r) => status(r.status)).length;
  /** Creates the API carried out on `route`. */
  const made = (route: string) => answered(route, (s) => s === 200 || s === 201);

  /** The pull request's live branches, and the roles and databases on them it made (not their parent's). */
  function onBranch() {
    const snap = emulator.control.dumpState();
    const branches = snap.branches.filter(
      (b) => b.project_id === PROJECT && b.name === BRANCH_NAME && b.deleted_at_ms === undefined,
    );
    // A branch starts with its parent's roles and databases: those are not the stack's.
    const parent = snap.branches.find((b) => b.default && b.project_id === PROJECT);
    const inherited = new Set([...(parent?.roles ?? []), ...(parent?.databases ?? [])].map((o) => o.name));
    return {
      branches,
      roles: branches.flatMap((b) => b.roles.filter((r) => !inherited.has(r.name)).map((r) => ({ b, r }))),
      databases: branches.flatMap((b) => b.databases.filter((d) => !inherited.has(d.name))),
    };
  }

  /** The pull request's live branches, the objects on them it made, and what the stack records. */
  function census() {
    const { branches, roles, databases } = onBranch();
    const live = {
      Branch: branches.map((b) => b.id),
      Role: roles.map(({ b, r }) => `${b.id}/${r.name}`),
      Database: databases.map((d) => String(d.id)),
    };
    const recorded = Object.fromEntries(
      Object.keys(live).map((kind) => [
        kind,
        checkout
          .recorded()
          .filter((r) => r.type === `pulumi-nodejs:dynamic/clouddb:${kind}`)
          .map((r) => r.id),
      ]),
    );
    return { live, recorded, branches, roles };
  }

  before(async () => {
    // Operations take 2 s, so a kill lands while the provider waits on them.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 2000 });
    checkout = checkoutExample({
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      projectId: PROJECT,
      pullRequest: PULL_REQUEST,
      install: "link",
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    await checkout?.runJob("destroy").catch(() => undefined);
    checkout?.dispose();
    await emulator?.stop();
  });

  it("kills up during the branch create, before the role's create is carried out and during it; the next run of the up job exits 0 with each object made once", async () => {
    // What each stage arranges, when its run is killed, and how many roles the API has made by then.
    const stages: [string, KillPlan, () => void, number][] = [
      ["the branch create", { killWhen: () => made(ROUTES.branches) >= 1, killAfterMs: 300 }, () => {}, 0],
      [
        // The branch is made and recorded; the role's POST is held by the API and never carried
        // out: the next run's preview looks up a role that does not exist yet.
        "the role create, before the API made the role",
        { killWhen: () => checkout.recorded().some((r) => r.type.endsWith(":Branch")), killAfterMs: 1500 },
        () => emulator.control.failNext(ROUTES.roles, { delayMs: 20_000, status: 503 }),
        0,
      ],
      [
        // The role is made, its answer (and the one password sent with it) never arrives.
        "the role create, after the API made the role",
        { killWhen: () => onBranch().roles.length >= 1, killAfterMs: 300 },
        () => emulator.control.failNext(ROUTES.roles, { holdMs: 60_000 }),
        1,
      ],
    ];
    // Provider processes our code ran in of each killed run still running 15 s after it, and how
    // many such processes each run had: checked last, so the convergence is checked whatever they do.
    const leftovers: Record<string, string[]> = {};
    const watched: Record<string, number> = {};
    for (const [what, kill, arrange, rolesByThen] of stages) {
      arrange();
      const killed: JobRun = await checkout.runJob("up", { kill });
      assert.equal(
        killed.code,
        "killed",
        `up was not killed during ${what}: ${killed.step}\n${killed.output}`,
      );
      leftovers[what] = killed.leftover ?? [];
      watched[what] = killed.watched ?? 0;
      emulator.control.clearFaults();
      assert.equal(onBranch().roles.length, rolesByThen, `roles the API made by the kill during ${what}`);
    }
    const [killedRunsRole] = onBranch().roles;

    const run = await checkout.runJob("up");
    const { live, recorded, roles } = census();
    const detail = `${JSON.stringify({ live, recorded })}\n${run.output}`;
    assert.equal(run.code, 0, detail);
    for (const [kind, ids] of Object.entries(live))
      assert.deepEqual(
        [...ids].sort(),
        [...(recorded[kind] ?? [])].sort(),
        `${kind}: orphans or missing: ${detail}`,
      );
    assert.equal(live.Branch.length, 1, detail);
    assert.equal(live.Role.length, 1, detail);
    // Each object made by one create across all runs: the role is the one the killed run made
    // (its answer is held, so the request log cannot say).
    assert.deepEqual([made(ROUTES.branches), made(ROUTES.databases)], [1, 0], "branch and database creates");
    assert.equal(roles[0]?.r.created_at_ms, killedRunsRole?.r.created_at_ms, "the role the killed run made");

    // DATABASE_URL, as the job hands it on, connects as that role with the password it has now.
    const url = new URL(/^DATABASE_URL=(\S+)$/m.exec(checkout.githubEnv())?.[1] ?? "");
    const role = roles[0]?.r;
    assert.ok(role, detail);
    assert.equal(decodeURIComponent(url.username), role.name);
    assert.equal(
      decodeURIComponent(url.password),
      role.password,
      "DATABASE_URL has the role's current password",
    );

    const closed = await checkout.runJob("destroy");
    assert.equal(closed.code, 0, closed.output);
    assert.deepEqual(census().live, { Branch: [], Role: [], Database: [] });
    // Each kill landed during a create, so our code ran in a host of each run: the check below
    // looks at hosts that exist (Pulumi's CheckConfig-only host never loads it: see kill.ts).
    for (const [what] of stages)
      assert.ok((watched[what] ?? 0) >= 1, `no host our code ran in by the kill during ${what}`);
    assert.deepEqual(
      leftovers,
      Object.fromEntries(stages.map(([what]) => [what, []])),
      "processes of a killed run still running 15 s after it",
    );
  });
});
