import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import {
  fromTerraformState,
  StateFormatError,
  TERRAFORM_TYPES,
} from "../../provider/terraform/fromTerraform";

// `clouddb from-terraform`'s mapping, on states shaped as Terraform and OpenTofu write them: each
// type's import id from its attributes, names from addresses (modules, count and for_each keys),
// what is left out and why, and files that are not such a state. The whole path, from a state the
// community provider wrote against the emulator to `pulumi import --file`, is in
// tests/e2e/bulkImport.test.ts.

/** A format-4 state holding `resources`. */
function state(resources: unknown[]): unknown {
  return { version: 4, terraform_version: "1.10.10", serial: 3, lineage: "x", outputs: {}, resources };
}

/** A managed resource of one instance. */
function managed(type: string, name: string, attributes: Record<string, unknown>, extra: object = {}) {
  return {
    mode: "managed",
    type,
    name,
    provider: 'provider["registry.opentofu.org/kislerdm/neon"]',
    instances: [{ attributes }],
    ...extra,
  };
}

const P = "shy-leaf-12345678";
const B = "br-dry-sun-a1b2c3d4";

/** Each mapped type, the attributes a state holds for it, and the import id expected. */
const ROWS: { type: string; attributes: Record<string, unknown>; kind: string; id: string }[] = [
  { type: "neon_project", attributes: { id: P, name: "shop" }, kind: "Project", id: P },
  { type: "neon_branch", attributes: { id: B, project_id: P }, kind: "Branch", id: `${P}/${B}` },
  {
    type: "neon_endpoint",
    attributes: { id: "ep-x", project_id: P, branch_id: B },
    kind: "Endpoint",
    id: `${P}/ep-x`,
  },
  {
    type: "neon_role",
    attributes: { id: `${P}/${B}/app`, project_id: P, branch_id: B, name: "app", password: "s3cret" },
    kind: "Role",
    id: `${P}/${B}/app`,
  },
  {
    type: "neon_database",
    attributes: { id: `${P}/${B}/app`, project_id: P, branch_id: B, name: "app", owner_name: "app" },
    kind: "Database",
    id: `${P}/${B}/app`,
  },
  {
    type: "neon_project_permission",
    attributes: { id: "perm-1", project_id: P, grantee: "ada@example.com" },
    kind: "ProjectPermission",
    id: `${P}/perm-1`,
  },
  { type: "neon_jwks_url", attributes: { id: "jwks-1", project_id: P }, kind: "Jwks", id: `${P}/jwks-1` },
  {
    type: "neon_vpc_endpoint_assignment",
    attributes: { id: "x", org_id: "org-a", region_id: "aws-us-east-1", vpc_endpoint_id: "vpce-1" },
    kind: "VpcEndpoint",
    id: "org-a/aws-us-east-1/vpce-1",
  },
  {
    type: "neon_vpc_endpoint_restriction",
    attributes: { id: "x", project_id: P, vpc_endpoint_id: "vpce-1" },
    kind: "ProjectVpcEndpoint",
    id: `${P}/vpce-1`,
  },
];

describe("clouddb from-terraform: a Terraform state's neon resources as a Pulumi import file", () => {
  for (const row of ROWS)
    it(`${row.type} becomes a ${row.kind} with the id ${row.kind}'s import takes`, () => {
      const { resources, unmapped } = fromTerraformState(state([managed(row.type, "main", row.attributes)]));
      assert.deepEqual(unmapped, []);
      assert.deepEqual(resources, [{ type: `clouddb:index:${row.kind}`, name: "main", id: row.id }]);
      // The id has the parts the kind's declaration names, one per `/`.
      const parts = DECLARATIONS.find((d) => d.type === row.kind)?.importId ?? [];
      assert.equal(row.id.split("/").length, parts.length);
    });

  it("maps or names a reason for every type of the table", () => {
    for (const [type, mapping] of Object.entries(TERRAFORM_TYPES)) {
      if ("unmapped" in mapping) assert.match(mapping.unmapped, /: /, type);
      else
        assert.ok(
          DECLARATIONS.some((d) => d.type === mapping.kind && d.importId !== undefined),
          type,
        );
    }
  });

  it("is the table of the guide's section on moving in from Terraform", () => {
    const guide = readFileSync(join(__dirname, "..", "..", "docs", "guide.md"), "utf8");
    const table =
      guide.split("<!-- The Terraform types")[1]?.split("<!-- End of the Terraform types")[0] ?? "";
    const rows = [...table.matchAll(/^\| `(neon_\w+)` \| (.*) \|$/gm)].map(([, type, kind]) => [type, kind]);
    assert.deepEqual(
      rows.map(([type]) => type),
      Object.keys(TERRAFORM_TYPES),
    );
    for (const [type, said] of rows) {
      const mapping = TERRAFORM_TYPES[type as string]!;
      if ("unmapped" in mapping) assert.match(said as string, /^left out: /, type);
      else assert.equal(said, `\`${mapping.kind}\``, type);
    }
  });

  it("names resources after their address: module path, name, count index and for_each key, never twice the same", () => {
    const branch = { id: B, project_id: P };
    const { resources } = fromTerraformState(
      state([
        {
          ...managed("neon_branch", "preview", branch),
          instances: [
            { index_key: 0, attributes: branch },
            { index_key: "pr 7", attributes: { ...branch, id: "br-2" } },
          ],
        },
        managed("neon_branch", "dev", branch, { module: "module.shop" }),
        managed("neon_branch", "dev", { ...branch, id: "br-3" }, { module: "module.shop-dev" }),
        managed("neon_branch", "shop-dev", { ...branch, id: "br-4" }),
      ]),
    );
    assert.deepEqual(
      resources.map((r) => r.name),
      ["preview-0", "preview-pr-7", "shop-dev", "shop-dev-dev", "shop-dev-2"],
    );
  });

  it("leaves out API keys, unknown types and resources missing an id part, each with why; skips data sources; copies no other attribute", () => {
    const { resources, unmapped } = fromTerraformState(
      state([
        managed("neon_api_key", "ci", { id: "1", key: "napi_secret" }),
        managed("aws_s3_bucket", "logs", { id: "logs" }),
        managed("neon_role", "orphan", { id: "x", project_id: P, name: "app" }),
        { mode: "data", type: "neon_branches", name: "all", instances: [{ attributes: { project_id: P } }] },
        managed("neon_role", "app", {
          id: "x",
          project_id: P,
          branch_id: B,
          name: "app",
          password: "s3cret",
        }),
      ]),
    );
    assert.deepEqual(
      unmapped.map((u) => u.address),
      ["neon_api_key.ci", "aws_s3_bucket.logs", "neon_role.orphan"],
    );
    assert.match(unmapped[0]!.why, /token is shown once.*declare an ApiKey/);
    assert.match(unmapped[1]!.why, /not a type of the neon providers/);
    assert.match(unmapped[2]!.why, /no branch_id/);
    assert.equal(resources.length, 1);
    assert.ok(!JSON.stringify(resources).includes("s3cret"), "a password reaches the import file");
  });

  for (const [what, file] of [
    ["a state of format 3", { version: 3, modules: [] }],
    ["a plan", { format_version: "1.2", planned_values: {} }],
    ["no object", null],
  ] as const)
    it(`refuses ${what}, saying what to give`, () => {
      assert.throws(
        () => fromTerraformState(file),
        (err: unknown) => {
          assert.ok(err instanceof StateFormatError);
          assert.match(err.message, /not a Terraform state of format version 4.*state pull/);
          return true;
        },
      );
    });
});
