// VpcEndpoint and ProjectVpcEndpoint under the real Pulumi engine, against the emulator: an `up`
// killed during each create is followed by one that takes what the killed run assigned and assigns
// nothing twice; then a no-change preview, a refresh with no diff (and one that records the
// endpoint's acceptance), labels changed in place, an endpoint assigned elsewhere adopted, destroy.
// Then `pulumi import` of both kinds through the provider plugin into a YAML program.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests, stateResources } from "./support/stack";

const ORG = DEMO.orgId;
const REGION = "aws-us-east-2";
const PROJECT = DEMO.orgProjectId;
const ROUTES = {
  assign: "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  restrict: "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
} as const;

/** The resource list of the crash fixture's program: an endpoint, and the project restricted to it. */
function declared(labels: { endpoint: string; project: string }, extra: Declared[] = []) {
  return JSON.stringify([
    {
      kind: "VpcEndpoint",
      res: "ep",
      args: { orgId: ORG, regionId: REGION, vpcEndpointId: "vpce-0e2e0e2e0e2e0e2e0", label: labels.endpoint },
    },
    {
      kind: "ProjectVpcEndpoint",
      res: "only",
      args: { projectId: PROJECT, vpcEndpointId: "@ep.vpcEndpointId", label: labels.project },
    },
    ...extra,
  ]);
}

/** Assigns an endpoint to the organization as another tool would, with the API directly. */
async function assignByHand(emulator: RunningEmulator, path: string, label: string): Promise<void> {
  const reply = await fetch(`${emulator.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
    body: JSON.stringify({ label }),
  });
  assert.equal(reply.status, 200, await reply.text());
}

describe("e2e: VpcEndpoint and ProjectVpcEndpoint under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const org = () => emulator.control.dumpState().organizations.find((o) => o.id === ORG);
  const restrictions = () =>
    emulator.control.dumpState().projects.find((p) => p.id === PROJECT)?.vpc_restrictions ?? [];
  /** Requests sent on `route` since the log was last cleared. */
  const sent = (route: string) => emulator.control.requests({ route }).length;
  const recorded = (kind: string) =>
    stateResources(e2e.rawState()).filter((r) => r.type === `pulumi-nodejs:dynamic/clouddb:${kind}`);
  const setResources = (value: string) => e2e.stack.setConfig("resources", { value });

  /** The next pipeline run: Pulumi's lock removed by its own command, then the plain command. */
  async function nextRun(kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, ["up", "--yes", "--skip-preview"], kill);
  }

  before(async () => {
    // The clock moves only when a test advances it: the endpoint stays `new` until then.
    emulator = await startEmulator({ seed: "demo", clock: "manual" });
    e2e = await crashFixtureStack(emulator, "vpc");
    await setResources(declared({ endpoint: "e2e", project: "only" }));
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("previews both creates, then converges after an up killed during each create: each assigned once, each recorded once", async () => {
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { create: 3 }, e2e.output.join("\n"));

    // Each create's answer is held after the assignment is made: the kill lands before it is received.
    emulator.control.failNext(ROUTES.assign, { holdMs: 60_000 });
    const first = await nextRun({
      killWhen: () => (org()?.vpc_endpoints ?? []).length > 0,
      killAfterMs: 300,
    });
    assert.equal(first.code, "killed", first.output);
    emulator.control.failNext(ROUTES.restrict, { holdMs: 60_000 });
    const second = await nextRun({ killWhen: () => restrictions().length > 0, killAfterMs: 300 });
    assert.equal(second.code, "killed", second.output);

    emulator.control.clearRequests();
    const last = await nextRun();
    assert.equal(last.code, 0, last.output);
    assert.deepEqual(
      org()?.vpc_endpoints?.map((e) => [e.vpc_endpoint_id, e.label]),
      [["vpce-0e2e0e2e0e2e0e2e0", "e2e"]],
    );
    assert.deepEqual(restrictions(), [{ vpc_endpoint_id: "vpce-0e2e0e2e0e2e0e2e0", label: "only" }]);
    assert.deepEqual(
      [sent(ROUTES.assign), sent(ROUTES.restrict)],
      [0, 0],
      "the run after the killed ones takes what they assigned, never assigns again",
    );
    assert.deepEqual(
      recorded("VpcEndpoint").map((r) => r.id),
      [`${ORG}/${REGION}/vpce-0e2e0e2e0e2e0e2e0`],
    );
    assert.deepEqual(
      recorded("ProjectVpcEndpoint").map((r) => r.id),
      [`${PROJECT}/vpce-0e2e0e2e0e2e0e2e0`],
    );
  });

  it("previews no change with no request that changes anything, refreshes with no diff, also the one that records the endpoint's acceptance", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 3 }, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 3 }, e2e.output.join("\n"));
    assert.equal(recorded("VpcEndpoint")[0]?.outputs?.state, "new");

    // The state is an output only: the refresh records it, and the inputs show no diff.
    emulator.control.advance(1000);
    const accepted = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(accepted.summary.resourceChanges, { same: 3 }, e2e.output.join("\n"));
    assert.equal(recorded("VpcEndpoint")[0]?.outputs?.state, "accepted");
    const after = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(after.changeSummary, { same: 3 }, e2e.output.join("\n"));
  });

  it("changes both labels in place, one POST each, the ids kept", async () => {
    const ids = [...recorded("VpcEndpoint"), ...recorded("ProjectVpcEndpoint")].map((r) => r.id);
    await setResources(declared({ endpoint: "e2e-2", project: "only-2" }));
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 2, e2e.output.join("\n"));
    assert.deepEqual(
      mutatingRequests(emulator)
        .map((r) => r.route)
        .sort(),
      [ROUTES.assign, ROUTES.restrict].sort(),
    );
    assert.deepEqual(
      [...recorded("VpcEndpoint"), ...recorded("ProjectVpcEndpoint")].map((r) => r.id),
      ids,
    );
    assert.equal(org()?.vpc_endpoints?.[0]?.label, "e2e-2");
    assert.equal(restrictions()[0]?.label, "only-2");
  });

  it("adopts an endpoint assigned outside the stack, setting its label; destroy removes all three", async () => {
    const byHand = `/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/vpce-0bbbbbbbbbbbbbbbb`;
    await assignByHand(emulator, byHand, "by-hand");
    const adopted = {
      kind: "VpcEndpoint",
      res: "adopted",
      args: {
        orgId: ORG,
        regionId: REGION,
        vpcEndpointId: "vpce-0bbbbbbbbbbbbbbbb",
        label: "adopted",
        adoptExisting: "vpce-0bbbbbbbbbbbbbbbb",
      },
    };
    await setResources(declared({ endpoint: "e2e-2", project: "only-2" }, [adopted]));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).create, 1, e2e.output.join("\n"));
    assert.equal(
      org()?.vpc_endpoints?.find((e) => e.vpc_endpoint_id === "vpce-0bbbbbbbbbbbbbbbb")?.label,
      "adopted",
    );

    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(org()?.vpc_endpoints, []);
    assert.deepEqual(restrictions(), []);
    assert.deepEqual(org()?.removed_vpc_endpoints?.sort(), [
      "vpce-0bbbbbbbbbbbbbbbb",
      "vpce-0e2e0e2e0e2e0e2e0",
    ]);
  });
});

describe("e2e: pulumi import of VpcEndpoint and ProjectVpcEndpoint, through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    await assignByHand(
      emulator,
      `/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/vpce-0aaaaaaaaaaaaaaaa`,
      "by-hand",
    );
    await assignByHand(emulator, `/projects/${PROJECT}/vpc_endpoints/vpce-0aaaaaaaaaaaaaaaa`, "restricted");
    e2e = await programStack({
      copyOf: fixture("vpc-import-yaml"),
      emulator,
      language: "yaml",
      config: { orgId: ORG, projectId: PROJECT },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports both by their ids; the program declaring them previews and refreshes with no change, and destroy removes them", async () => {
    const resources = [
      { type: "clouddb:index:VpcEndpoint", name: "ep", id: `${ORG}/${REGION}/vpce-0aaaaaaaaaaaaaaaa` },
      { type: "clouddb:index:ProjectVpcEndpoint", name: "only", id: `${PROJECT}/vpce-0aaaaaaaaaaaaaaaa` },
    ];
    const imported = await e2e.stack.import({ resources, generateCode: false, ...collect(e2e.output) });
    assert.equal(imported.summary.resourceChanges?.import, 2, e2e.output.join("\n"));
    const state = stateResources(e2e.rawState());
    assert.equal(state.find((r) => r.type === "clouddb:index:VpcEndpoint")?.outputs?.label, "by-hand");

    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 3 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(
      Object.keys(refresh.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );

    // The program declares no `protect`, so this up lifts the protection imports get, changing nothing else.
    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(
      Object.keys(up.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
      [],
      e2e.output.join("\n"),
    );
    await e2e.stack.destroy(collect(e2e.output));
    const org = emulator.control.dumpState().organizations.find((o) => o.id === ORG);
    assert.deepEqual(org?.vpc_endpoints, []);
  });
});
