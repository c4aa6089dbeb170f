// An organization's governance as code through the real engine, each `up` killed (SIGKILL of the
// CLI and the provider) after the service made a change and before its answer reached the
// provider: the spending limit set, a member's role changed, an invitation sent. The next
// unattended `up` records each once, as declared, and a preview after it plans nothing.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { collect, type E2eStack } from "./support/stack";

const ORG = DEMO.orgId;
const HIRE = "new.hire@example.com";

const RESOURCES: Declared[] = [
  { kind: "OrganizationSpendingLimit", res: "limit", args: { orgId: ORG, spendingLimitCents: 50_000 } },
  {
    kind: "OrganizationMember",
    res: "casey",
    args: { orgId: ORG, email: "casey@example.com", role: "admin" },
  },
  { kind: "OrganizationInvitation", res: "hire", args: { orgId: ORG, email: HIRE, role: "member" } },
];

describe("e2e: an organization's limit, members and invitations converge after killed runs", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const org = () => emulator.control.dumpState().organizations.find((o) => o.id === ORG)!;
  const recorded = (kind: string) => {
    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
    };
    return (state.checkpoint.latest?.resources ?? []).filter(
      (r) => r.type === `pulumi-nodejs:dynamic/clouddb:${kind}`,
    );
  };

  /** The next pipeline run: Pulumi's lock removed by its own command, then the plain command. */
  async function nextRun(command: "up" | "destroy", kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await crashFixtureStack(emulator, "crash-org", {
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
  });
  after(async () => {
    await nextRun("destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("kills up as each change is made and its answer held; the next up records each once, as declared", async () => {
    const stages: [string, string, () => boolean][] = [
      [
        "the limit",
        "PUT /organizations/{org_id}/billing/spending_limit",
        () => org().spending_limit_cents === 50_000,
      ],
      [
        "the role",
        "PATCH /organizations/{org_id}/members/{member_id}",
        () => org().members[DEMO.memberUserId] === "admin",
      ],
      [
        "the invitation",
        "POST /organizations/{org_id}/invitations",
        () => (org().invitations ?? []).length > 0,
      ],
    ];
    for (const [i, [what, route, done]] of stages.entries()) {
      // One more resource each run; its change is made and its answer held: the kill lands before
      // the provider hears of it.
      await declareResources(e2e, RESOURCES.slice(0, i + 1));
      emulator.control.failNext(route, { holdMs: 60_000 });
      const killed = await nextRun("up", { killWhen: done, killAfterMs: 300 });
      assert.equal(killed.code, "killed", `up was not killed after ${what} was made:\n${killed.output}`);
      assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
      emulator.control.clearFaults();
    }
    const run = await nextRun("up");
    assert.equal(run.code, 0, run.output);
    assert.equal(org().spending_limit_cents, 50_000);
    assert.equal(org().members[DEMO.memberUserId], "admin");
    assert.deepEqual(
      (org().invitations ?? []).map((i) => [i.email, i.role]),
      [[HIRE, "member"]],
      "one invitation",
    );
    for (const kind of ["OrganizationSpendingLimit", "OrganizationMember", "OrganizationInvitation"]) {
      assert.equal(recorded(kind).length, 1, `${kind} recorded once`);
    }
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(preview.changeSummary), ["same"], "nothing left to change");
  });
});
