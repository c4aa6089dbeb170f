import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { setHostLineWriter } from "../../provider/resources/host/progress";
import {
  type ProjectVpcEndpointInputs,
  type ProjectVpcEndpointOutputs,
  projectVpcEndpointProvider,
} from "../../provider/resources/public/projectVpcEndpoint";
import {
  type VpcEndpointInputs,
  type VpcEndpointOutputs,
  vpcEndpointProvider,
} from "../../provider/resources/public/vpcEndpoint";
import { PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

// VpcEndpoint and ProjectVpcEndpoint against the emulator: assign, read, relabel in place and
// remove with one request each; a create after a killed run or a lost answer takes what it made,
// never what was assigned elsewhere; adoption, import, and who may do it (docs/api-rules.md §10).

const ORG = DEMO.orgId;
const REGION = "aws-us-east-2";
const PROJECT = DEMO.orgProjectId;

describe("VpcEndpoint and ProjectVpcEndpoint providers against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  const env = useTestEnv();
  const control = () => harness.emulator.control;
  beforeEach(() => control().clearRequests());

  const endpoint = (values: Partial<VpcEndpointInputs> = {}): VpcEndpointInputs =>
    ({
      orgId: ORG,
      regionId: REGION,
      vpcEndpointId: "vpce-0001",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as VpcEndpointInputs;
  const restriction = (values: Partial<ProjectVpcEndpointInputs> = {}): ProjectVpcEndpointInputs =>
    ({
      projectId: PROJECT,
      vpcEndpointId: "vpce-0001",
      ...values,
      __provider: PROVIDER_TEXT,
    }) as ProjectVpcEndpointInputs;
  const assigned = () =>
    control()
      .dumpState()
      .organizations.find((o) => o.id === ORG)?.vpc_endpoints ?? [];
  const restrictions = () =>
    control()
      .dumpState()
      .projects.find((p) => p.id === PROJECT)?.vpc_restrictions ?? [];
  /** Assigns an endpoint as another tool would, with the API directly. */
  const assignElsewhere = async (path: string, label: string) => {
    const reply = await fetch(`${harness.emulator.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ label }),
    });
    assert.equal(reply.status, 200, await reply.text());
  };
  const rejects = (promise: Promise<unknown>, kind: string, text: RegExp) =>
    assert.rejects(promise, (err: unknown) => {
      assert.ok(isResourceError(err), String(err));
      assert.equal(err.kind, kind);
      assert.match(err.message, text);
      return true;
    });

  it("assigns an endpoint with its label, reports it new until the service accepts it, relabels it in place and removes it", async () => {
    const made = await vpcEndpointProvider.create(endpoint({ label: "prod" }));
    assert.equal(made.id, `${ORG}/${REGION}/vpce-0001`);
    assert.deepEqual(
      assigned().map((e) => [e.vpc_endpoint_id, e.region_id, e.label]),
      [["vpce-0001", REGION, "prod"]],
    );
    assert.equal(made.outs?.state, "new");
    assert.deepEqual(harness.writes(), [
      `POST /organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/vpce-0001`,
    ]);

    control().advance(1000);
    const read = await vpcEndpointProvider.read!(made.id, made.outs as VpcEndpointOutputs);
    assert.equal(read.props?.state, "accepted");

    control().clearRequests();
    const olds = read.props as VpcEndpointOutputs;
    const diff = await vpcEndpointProvider.diff!(made.id, olds, endpoint({ label: "prod-vpc" }));
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const updated = await vpcEndpointProvider.update!(made.id, olds, endpoint({ label: "prod-vpc" }));
    assert.equal(updated.outs?.label, "prod-vpc");
    assert.equal(assigned()[0]?.label, "prod-vpc");
    assert.equal(harness.writes().length, 1, "one POST relabels it");

    await vpcEndpointProvider.delete!(made.id, updated.outs as VpcEndpointOutputs);
    assert.deepEqual(assigned(), []);
    const gone = await vpcEndpointProvider.read!(made.id, updated.outs as VpcEndpointOutputs);
    assert.equal(gone.id, "", "refresh drops a removed endpoint");
  });

  it("refuses at preview a region without VPC endpoints, and a missing endpoint id", async () => {
    const { failures } = await vpcEndpointProvider.check!(
      {} as VpcEndpointInputs,
      endpoint({ regionId: "azure-eastus2", vpcEndpointId: "" }),
    );
    assert.deepEqual(failures?.map((f) => f.property).sort(), ["regionId", "vpcEndpointId"]);
    assert.match(failures?.find((f) => f.property === "regionId")?.reason ?? "", /Azure/);
  });

  it("a create after a killed run takes the endpoint that run assigned with the same label, and refuses one assigned elsewhere", async () => {
    const path = `/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints`;
    await assignElsewhere(`${path}/vpce-0002`, "mine");
    control().clearRequests();
    const taken = await vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0002", label: "mine" }));
    assert.equal(taken.outs?.label, "mine");
    assert.deepEqual(harness.writes(), [], "nothing is assigned twice");

    await assignElsewhere(`${path}/vpce-0003`, "theirs");
    await rejects(
      vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0003", label: "mine" })),
      "NameTaken",
      /already assigned, with label "theirs".*adoptExisting: "vpce-0003"/,
    );
    assert.equal(
      assigned().find((e) => e.vpc_endpoint_id === "vpce-0003")?.label,
      "theirs",
      "left as it was",
    );
  });

  it("a lost answer to the assignment finds what it made instead of failing", async () => {
    control().failNext(
      `POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`,
      {
        status: 502,
        afterHandler: true,
      },
    );
    const made = await vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0004", label: "lost" }));
    assert.equal(made.outs?.label, "lost");
    assert.equal(control().requests({ method: "POST" }).length, 1, "the POST is not sent again");
  });

  it("records an assignment whose read-back does not find it, so destroy removes it", async () => {
    // The first read finds nothing (as it would), the read after the assignment nothing either.
    control().failNext(
      "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      {
        status: 404,
      },
      2,
    );
    const err = await vpcEndpointProvider
      .create(endpoint({ vpcEndpointId: "vpce-0020", label: "unread" }))
      .then(
        () => assert.fail("the create succeeded"),
        (e: unknown) => e as { id?: string; message: string; properties?: VpcEndpointOutputs },
      );
    assert.equal(
      err.id,
      `${ORG}/${REGION}/vpce-0020`,
      `a partial failure with the endpoint's id: ${err.message}`,
    );
    assert.match(err.message, /It is recorded in the state/);
    assert.ok(
      assigned().some((e) => e.vpc_endpoint_id === "vpce-0020"),
      "assigned, and recorded",
    );

    await vpcEndpointProvider.delete!(err.id ?? "", err.properties as VpcEndpointOutputs);
    assert.ok(!assigned().some((e) => e.vpc_endpoint_id === "vpce-0020"), "destroy removes it");
  });

  it("adopts an endpoint assigned elsewhere, setting its label in place; imports one as it is", async () => {
    await assignElsewhere(`/organizations/${ORG}/vpc/region/${REGION}/vpc_endpoints/vpce-0005`, "old");
    const adopted = await vpcEndpointProvider.create(
      endpoint({ vpcEndpointId: "vpce-0005", label: "new", adoptExisting: "vpce-0005" }),
    );
    assert.equal(adopted.outs?.label, "new");
    assert.equal(assigned().find((e) => e.vpc_endpoint_id === "vpce-0005")?.label, "new");

    const imported = await vpcEndpointProvider.read!(
      `${ORG}/${REGION}/vpce-0005`,
      undefined as unknown as VpcEndpointOutputs,
    );
    assert.equal(imported.id, `${ORG}/${REGION}/vpce-0005`);
    assert.deepEqual([imported.props?.label, imported.props?.vpcEndpointId], ["new", "vpce-0005"]);
    await rejects(
      vpcEndpointProvider.read!("vpce-0005", undefined as unknown as VpcEndpointOutputs),
      "NotImportable",
      /<orgId>\/<regionId>\/<vpcEndpointId>/,
    );
  });

  it("restricts a project to an assigned endpoint, relabels it in place, imports it and lifts it", async () => {
    await vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0006", label: "org" }));
    const made = await projectVpcEndpointProvider.create(
      restriction({ vpcEndpointId: "vpce-0006", label: "only" }),
    );
    assert.equal(made.id, `${PROJECT}/vpce-0006`);
    assert.deepEqual(restrictions(), [{ vpc_endpoint_id: "vpce-0006", label: "only" }]);

    const olds = made.outs as ProjectVpcEndpointOutputs;
    const updated = await projectVpcEndpointProvider.update!(
      made.id,
      olds,
      restriction({ vpcEndpointId: "vpce-0006", label: "only-2" }),
    );
    assert.equal(restrictions()[0]?.label, "only-2");
    const imported = await projectVpcEndpointProvider.read!(
      made.id,
      undefined as unknown as ProjectVpcEndpointOutputs,
    );
    assert.deepEqual([imported.id, imported.props?.label], [made.id, "only-2"]);

    const again = await projectVpcEndpointProvider.create(
      restriction({ vpcEndpointId: "vpce-0006", label: "only-2" }),
    );
    assert.equal(again.id, made.id, "a create after a killed run takes the restriction it made");

    await projectVpcEndpointProvider.delete!(made.id, updated.outs as ProjectVpcEndpointOutputs);
    assert.deepEqual(restrictions(), []);
    const gone = await projectVpcEndpointProvider.read!(made.id, updated.outs as ProjectVpcEndpointOutputs);
    assert.equal(gone.id, "");
  });

  it("fails a restriction to an endpoint the organization does not have in the project's region, naming it", async () => {
    const unassigned = await rejection(
      projectVpcEndpointProvider.create(restriction({ vpcEndpointId: "vpce-nowhere" })),
    );
    assert.match(
      unassigned.message,
      /^VPC endpoint vpce-nowhere is not assigned to the organization of project \S+ in the project's region \(404 Not Found, request id [\w-]+\): assign it there with a VpcEndpoint/,
    );
    // The cause is said, not a deletion outside Pulumi.
    assert.doesNotMatch(unassigned.message, /pulumi refresh/);
    await vpcEndpointProvider.create(endpoint({ regionId: "aws-eu-central-1", vpcEndpointId: "vpce-0007" }));
    await assert.rejects(
      projectVpcEndpointProvider.create(restriction({ vpcEndpointId: "vpce-0007" })),
      /not in aws-us-east-2, the region of project/,
    );
  });

  it("refuses an organization member who is not an admin, and lets the organization's own key assign", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    await assert.rejects(
      vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0008" })),
      /403.*only organization admins can assign or remove VPC endpoints/s,
    );
    env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
    const made = await vpcEndpointProvider.create(
      endpoint({ vpcEndpointId: "vpce-0008", label: "by-org-key" }),
    );
    assert.equal(made.outs?.label, "by-org-key");
    env.set({ CLOUDDB_API_KEY: DEMO.projectKey });
    await assert.rejects(
      projectVpcEndpointProvider.create(restriction({ vpcEndpointId: "vpce-0008" })),
      /403.*project-scoped API key/s,
    );
  });

  it("says at the preview of its create that removing the endpoint (a destroy) is for good", async () => {
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    try {
      const checked = await vpcEndpointProvider.check!(
        {} as VpcEndpointInputs,
        endpoint({ vpcEndpointId: "vpce-0011" }),
      );
      assert.equal(checked.failures, undefined);
      // An unchanged endpoint says nothing.
      await vpcEndpointProvider.check!(
        checked.inputs as VpcEndpointInputs,
        endpoint({ vpcEndpointId: "vpce-0011" }),
      );
    } finally {
      setHostLineWriter(undefined);
    }
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(
      lines[0] ?? "",
      /^VPC endpoint: once this stack removes VPC endpoint vpce-0011 from organization \S+ \(`pulumi destroy`.*never lets the organization assign it again$/,
    );
  });

  it("explains at preview that a replacement removes the endpoint for good", async () => {
    const made = await vpcEndpointProvider.create(endpoint({ vpcEndpointId: "vpce-0009" }));
    const lines: string[] = [];
    setHostLineWriter((line) => lines.push(line));
    try {
      const diff = await vpcEndpointProvider.diff!(
        made.id,
        made.outs as VpcEndpointOutputs,
        endpoint({ vpcEndpointId: "vpce-0010" }),
      );
      assert.deepEqual(diff.replaces, ["vpcEndpointId"]);
    } finally {
      setHostLineWriter(undefined);
    }
    assert.ok(
      lines.some((l) =>
        /removes VPC endpoint vpce-0009 .* never lets the organization assign it again/.test(l),
      ),
      lines.join("\n"),
    );
  });
});

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("expected a rejection"),
    (err: Error) => err,
  );
}
