// An organization's governance as code through the real engine: each `up` killed (SIGKILL of the
// CLI and the provider) after the service made a change and before its answer reached the
// provider (the spending limit set, a member's role changed, an invitation sent, a project role
// set), the next unattended `up` records each once, as declared; then a preview and a refresh with
// no change, the limit and the roles changed in place, and destroy. Then the organization kinds set
// outside Pulumi, brought into a YAML program through the provider plugin with `pulumi import`.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { call } from "../emulator/helpers";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests, stateResources } from "./support/stack";

const ORG = DEMO.orgId;
const PROJECT = DEMO.orgProjectId;
const HIRE = "new.hire@example.com";

const RESOURCES: Declared[] = [
  { kind: "OrganizationSpendingLimit", res: "limit", args: { orgId: ORG, spendingLimitCents: 50_000 } },
  {
    kind: "OrganizationMember",
    res: "casey",
    args: { orgId: ORG, email: "casey@example.com", role: "admin" },
  },
  { kind: "OrganizationInvitation", res: "hire", args: { orgId: ORG, email: HIRE, role: "member" } },
  // After the membership it names (its email is the member's output).
  {
    kind: "ProjectMember",
    res: "reader",
    args: { projectId: PROJECT, email: "@casey.email", role: "viewer" },
  },
];

describe("e2e: an organization's limit, members and invitations converge after killed runs", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const org = () => emulator.control.dumpState().organizations.find((o) => o.id === ORG)!;
  const projectRole = () =>
    emulator.control.dumpState().projects.find((p) => p.id === PROJECT)?.member_roles?.[DEMO.memberUserId];
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
      [
        "the project role",
        "PUT /projects/{project_id}/members/{member_id}/role",
        () => projectRole() === "viewer",
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
    assert.equal(projectRole(), "viewer");
    for (const kind of [
      "OrganizationSpendingLimit",
      "OrganizationMember",
      "OrganizationInvitation",
      "ProjectMember",
    ]) {
      assert.equal(recorded(kind).length, 1, `${kind} recorded once`);
    }
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(Object.keys(preview.changeSummary), ["same"], "nothing left to change");
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 5 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 5 }, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
  });

  it("changes the limit and the roles in place, one request each, the ids kept", async () => {
    const kinds = ["OrganizationSpendingLimit", "OrganizationMember", "ProjectMember"];
    const ids = kinds.map((kind) => recorded(kind)[0]?.id);
    await declareResources(e2e, [
      { ...RESOURCES[0]!, args: { orgId: ORG, spendingLimitCents: 75_000 } },
      { ...RESOURCES[1]!, args: { orgId: ORG, email: "casey@example.com", role: "member" } },
      RESOURCES[2]!,
      { ...RESOURCES[3]!, args: { projectId: PROJECT, email: "@casey.email", role: "editor" } },
    ]);
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 3, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator)
        .map((r) => r.route)
        .sort(),
      [
        "PATCH /organizations/{org_id}/members/{member_id}",
        "PUT /organizations/{org_id}/billing/spending_limit",
        "PUT /projects/{project_id}/members/{member_id}/role",
      ],
    );
    assert.deepEqual(
      kinds.map((kind) => recorded(kind)[0]?.id),
      ids,
    );
    assert.equal(org().spending_limit_cents, 75_000);
    assert.equal(org().members[DEMO.memberUserId], "member");
    assert.equal(projectRole(), "editor");
  });

  it("destroy clears the limit and gives back the roles found; the member it took over stays, and so does the invitation, which the API cannot withdraw", async () => {
    const run = await nextRun("destroy");
    assert.equal(run.code, 0, run.output);
    assert.equal(org().spending_limit_cents, undefined);
    // The roles found are those the killed runs had set (admin, viewer): nothing on a member tells a
    // killed run's change from one made before, so those are the roles given back.
    assert.equal(org().members[DEMO.memberUserId], "admin", "casey stays a member");
    assert.equal(projectRole(), "viewer");
    assert.deepEqual(
      (org().invitations ?? []).map((i) => i.email),
      [HIRE],
    );
  });
});

describe("e2e: an organization's limit, member and invitation, and a project role, imported into a YAML program through the plugin", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const org = () => emulator.control.dumpState().organizations.find((o) => o.id === ORG)!;
  const byHand = async (method: string, path: string, body: unknown) => {
    const answer = await call(emulator.url, method, path, { key: DEMO.orgKey, body });
    assert.ok(answer.status < 300, answer.text);
    return answer.body;
  };

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({
      copyOf: fixture("organization-import-yaml"),
      emulator,
      language: "yaml",
      config: { orgId: ORG, projectId: PROJECT },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports the four by their ids; previews and refreshes with no change; changes the limit in place; destroy gives the member and their project role back as found", async () => {
    await byHand("PUT", `/organizations/${ORG}/billing/spending_limit`, { spending_limit_cents: 20_000 });
    const sent = await byHand("POST", `/organizations/${ORG}/invitations`, {
      invitations: [{ email: "by.hand@example.com", role: "admin" }],
    });
    const members = await byHand("GET", `/organizations/${ORG}/members`, undefined);
    const casey = members.members.find(
      (m: { member: { user_id: string } }) => m.member.user_id === DEMO.memberUserId,
    ).member;
    const invitation = sent.invitations[0];
    await byHand("PUT", `/projects/${PROJECT}/members/${casey.id}/role`, { role: "viewer" });
    const imported = await e2e.stack.import({
      resources: [
        { type: "clouddb:index:OrganizationSpendingLimit", name: "limit", id: ORG },
        { type: "clouddb:index:OrganizationMember", name: "casey", id: `${ORG}/${casey.id}` },
        { type: "clouddb:index:OrganizationInvitation", name: "hire", id: `${ORG}/${invitation.id}` },
        { type: "clouddb:index:ProjectMember", name: "reader", id: `${PROJECT}/${casey.id}` },
      ],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 4, e2e.output.join("\n"));
    const state = stateResources(e2e.rawState());
    assert.equal(
      state.find((r) => r.type === "clouddb:index:OrganizationSpendingLimit")?.outputs?.spendingLimitCents,
      20_000,
    );

    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 5 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(
      Object.keys(refresh.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    // The program declares no `protect`: this up lifts the protection imports get and changes the limit.
    await e2e.stack.setConfig("limitCents", { value: "30000" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 1, e2e.output.join("\n"));
    assert.equal(org().spending_limit_cents, 30_000);
    await e2e.stack.destroy(collect(e2e.output));
    assert.equal(org().spending_limit_cents, undefined);
    assert.equal(org().members[DEMO.memberUserId], "member", "the member imported stays, with their role");
    assert.equal(
      emulator.control.dumpState().projects.find((p) => p.id === PROJECT)?.member_roles?.[DEMO.memberUserId],
      "viewer",
      "the explicit role imported is given back",
    );
  });
});
