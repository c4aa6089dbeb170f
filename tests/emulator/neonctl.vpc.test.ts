import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { useNeonctl } from "./neonctl-harness";

// The official CLI's `vpc endpoint` and `vpc project` commands, unchanged, against the emulator:
// an organization's endpoint assigned, relabelled, its status read and removed; a project
// restricted to it and the restriction lifted; what the service refuses, refused.

const ORG = DEMO.orgId;
const REGION = "aws-us-east-2";
const PROJECT = DEMO.orgProjectId;

describe("the official CLI (neonctl): vpc endpoint and vpc project", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ clock: "manual" });
  const { neonctl, ok } = cli;
  const where = ["--org-id", ORG, "--region-id", REGION];
  const org = () => cli.emu.control.dumpState().organizations.find((o) => o.id === ORG);
  const project = () => cli.emu.control.dumpState().projects.find((p) => p.id === PROJECT);

  it("vpc endpoint assign, list, status (new, then accepted), assign again to relabel", async () => {
    await ok("vpc", "endpoint", "assign", "vpce-0a1b2c3d4e5f6a7b8", ...where, "--label", "prod");
    assert.deepEqual(
      org()?.vpc_endpoints?.map((e) => [e.vpc_endpoint_id, e.region_id, e.label]),
      [["vpce-0a1b2c3d4e5f6a7b8", REGION, "prod"]],
    );
    assert.deepEqual(await ok("vpc", "endpoint", "list", ...where), [
      { vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8", label: "prod" },
    ]);
    const fresh = await ok("vpc", "endpoint", "status", "vpce-0a1b2c3d4e5f6a7b8", ...where);
    assert.equal(fresh.state, "new");
    cli.emu.control.advance(1000);
    const accepted = await ok("vpc", "endpoint", "status", "vpce-0a1b2c3d4e5f6a7b8", ...where);
    assert.deepEqual(accepted, {
      vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8",
      label: "prod",
      state: "accepted",
      num_restricted_projects: 0,
      example_restricted_projects: [],
    });
    await ok("vpc", "endpoint", "update", "vpce-0a1b2c3d4e5f6a7b8", ...where, "--label", "prod-vpc");
    assert.equal(org()?.vpc_endpoints?.[0]?.label, "prod-vpc");
  });

  it("vpc project restrict, list and remove; the endpoint's status counts the project", async () => {
    await ok(
      "vpc",
      "project",
      "restrict",
      "vpce-0a1b2c3d4e5f6a7b8",
      "--project-id",
      PROJECT,
      "--label",
      "only",
    );
    assert.deepEqual(project()?.vpc_restrictions, [
      { vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8", label: "only" },
    ]);
    assert.deepEqual(await ok("vpc", "project", "list", "--project-id", PROJECT), [
      { vpc_endpoint_id: "vpce-0a1b2c3d4e5f6a7b8", label: "only" },
    ]);
    const status = await ok("vpc", "endpoint", "status", "vpce-0a1b2c3d4e5f6a7b8", ...where);
    assert.deepEqual([status.num_restricted_projects, status.example_restricted_projects], [1, [PROJECT]]);
    await ok("vpc", "project", "remove", "vpce-0a1b2c3d4e5f6a7b8", "--project-id", PROJECT);
    assert.deepEqual(project()?.vpc_restrictions, []);
  });

  it("refuses what the service refuses: an unknown endpoint, another region's, a member who is not an admin, an endpoint removed before", async () => {
    const unknown = await neonctl("vpc", "project", "restrict", "vpce-unknown", "--project-id", PROJECT);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /vpce-unknown is not assigned to organization/);
    await ok(
      "vpc",
      "endpoint",
      "assign",
      "vpce-frankfurt",
      "--org-id",
      ORG,
      "--region-id",
      "aws-eu-central-1",
    );
    const elsewhere = await neonctl("vpc", "project", "restrict", "vpce-frankfurt", "--project-id", PROJECT);
    assert.match(elsewhere.stderr, /not in aws-us-east-2, the region of project/);
    const member = await cli.neonctlAs(
      DEMO.memberPersonalKey,
      "vpc",
      "endpoint",
      "assign",
      "vpce-1",
      ...where,
    );
    assert.match(member.stderr, /only organization admins can assign or remove VPC endpoints/);
    assert.equal(
      org()?.vpc_endpoints?.some((e) => e.vpc_endpoint_id === "vpce-1"),
      false,
    );

    await ok("vpc", "endpoint", "remove", "vpce-0a1b2c3d4e5f6a7b8", ...where);
    assert.deepEqual(await ok("vpc", "endpoint", "list", ...where), []);
    const back = await neonctl("vpc", "endpoint", "assign", "vpce-0a1b2c3d4e5f6a7b8", ...where);
    assert.match(back.stderr, /was removed from organization .* cannot be assigned to it again/);
  });
});
