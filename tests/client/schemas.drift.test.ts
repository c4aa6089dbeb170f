import assert from "node:assert/strict";
import type { z } from "zod";
import {
  BranchSchema,
  ConnectionUriResponseSchema,
  CurrentUserSchema,
  DatabaseSchema,
  ENDPOINT_STATES,
  ENDPOINT_TYPES,
  EndpointSchema,
  KNOWN_OPERATION_STATUSES,
  OperationSchema,
  OrganizationSchema,
  ProjectDetailSchema,
  ProjectSchema,
  RoleSchema,
  VpcEndpointDetailsSchema,
  VpcEndpointSchema,
} from "../../provider/client";
import { officialDocument } from "../../scripts/openapi-document";

// Drift between the client's hand-written schemas and the official OpenAPI document shipped in
// @neondatabase/api-client: every field a schema reads is documented, with a type the schema accepts;
// a field the schema requires is one the document requires; the enum lists the client knows match.
// When the package is upgraded and this fails, the message names the schema and field to revisit.

const doc = officialDocument();

/** A value of the documented type, to check that the client's schema accepts it. */
function sample(property: unknown): unknown {
  const s = doc.resolve(property);
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (s.type) {
    case "string":
      return "x";
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array":
      return [];
    default:
      return {};
  }
}

const PAIRS: Array<[string, { shape: z.ZodRawShape }, string]> = [
  ["OperationSchema", OperationSchema, "Operation"],
  ["ProjectSchema", ProjectSchema, "ProjectListItem"],
  ["ProjectDetailSchema", ProjectDetailSchema, "Project"],
  ["BranchSchema", BranchSchema, "Branch"],
  ["EndpointSchema", EndpointSchema, "Endpoint"],
  ["RoleSchema", RoleSchema, "Role"],
  ["DatabaseSchema", DatabaseSchema, "Database"],
  ["ConnectionUriResponseSchema", ConnectionUriResponseSchema, "ConnectionURIResponse"],
  ["CurrentUserSchema", CurrentUserSchema, "CurrentUserInfoResponse"],
  ["OrganizationSchema", OrganizationSchema, "Organization"],
  ["VpcEndpointSchema", VpcEndpointSchema, "VPCEndpoint"],
  ["VpcEndpointDetailsSchema", VpcEndpointDetailsSchema, "VPCEndpointDetails"],
];

/** Fields read although the official document does not list them, each optional, with the reason. */
const UNDOCUMENTED: Record<string, string[]> = {
  // getProjects reports it (false when absent); the service sends it, the document omits it.
  ProjectSchema: ["locked"],
};

describe("client schemas against the official OpenAPI document (drift)", () => {
  for (const [ours, schema, theirs] of PAIRS) {
    it(`${ours} reads only documented fields of ${theirs}, with types it accepts, requiring only what is required`, () => {
      const { properties, required } = doc.fields(doc.component(theirs));
      for (const [field, fieldSchema] of Object.entries(schema.shape) as [string, z.ZodType][]) {
        const property = properties[field];
        if (UNDOCUMENTED[ours]?.includes(field)) {
          assert.equal(property, undefined, `${ours}.${field} is documented now: drop it from UNDOCUMENTED`);
          assert.ok(
            fieldSchema.safeParse(undefined).success,
            `${ours}.${field} is undocumented, so optional`,
          );
          continue;
        }
        assert.ok(property, `${ours}.${field} is not in the official ${theirs}: the API may have renamed it`);
        const value = sample(property);
        assert.ok(
          fieldSchema.safeParse(value).success,
          `${ours}.${field} rejects ${JSON.stringify(value)}, a value of the documented type`,
        );
        if (!fieldSchema.safeParse(undefined).success) {
          assert.ok(required.has(field), `${ours}.${field} is required here but optional in ${theirs}`);
        }
      }
    });
  }

  for (const [name, ours, theirs] of [
    ["ENDPOINT_TYPES", ENDPOINT_TYPES, "EndpointType"],
    ["ENDPOINT_STATES", ENDPOINT_STATES, "EndpointState"],
    ["KNOWN_OPERATION_STATUSES", KNOWN_OPERATION_STATUSES, "OperationStatus"],
  ] as const) {
    it(`${name} lists the values of the official ${theirs}`, () => {
      const listed = doc.resolve(doc.component(theirs))["enum"] as string[];
      assert.deepEqual([...ours].sort(), [...listed].sort(), `${theirs} changed: update ${name}`);
    });
  }

  it("accepts enum values the document does not list yet, since those lists grow", () => {
    assert.ok(
      EndpointSchema.safeParse({ id: "ep-1", type: "read_many", host: "h", branch_id: "br-1" }).success,
    );
    const op = {
      id: "o",
      project_id: "p",
      action: "new_action",
      status: "new_status",
      created_at: "t",
      updated_at: "t",
    };
    assert.ok(OperationSchema.safeParse(op).success);
  });
});
