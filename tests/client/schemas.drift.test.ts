import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import * as schemas from "../../provider/client/schemas";
import { DOCUMENTED } from "../../provider/client/schemas/common";
import { OpenApiDocument, officialDocument, refName } from "../../scripts/openapi-document";

// Drift between the client's hand-written schemas and the official OpenAPI document shipped in
// @neondatabase/api-client. Every schema `provider/client/schemas` exports names, beside it, where
// the document describes it (`DOCUMENTED`); for each one, every field it reads is documented there,
// it accepts a value with every documented field of the documented type, and it accepts one with
// only the required fields (so it requires nothing the document leaves optional). When the package
// is upgraded and this fails, the message names the schema and field to revisit. A schema of a route
// the document lacks names its shape in @neon/sdk's types instead (`in: "sdk"`), read from the
// components the emulator's SDK contract derives from them (emulator/openapi/sdk-routes.gen.json).

const official = officialDocument();
const sdk = new OpenApiDocument(
  readFileSync(join(__dirname, "../../emulator/openapi/sdk-routes.gen.json"), "utf8").replaceAll(
    '"sdk#/',
    '"#/',
  ),
);
/** The document that describes `schema`: @neon/sdk's for a shape only it describes. */
const docOf = (schema: z.ZodType) => (DOCUMENTED.get(schema)?.in === "sdk" ? sdk : official);

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every schema the client's schema modules export, by name. */
const EXPORTED = Object.entries(schemas).filter(([name]) => name.endsWith("Schema"));

/** Exported schemas the document describes nowhere, each with the reason. */
const NOT_DOCUMENTED: Record<string, string> = {
  // @neon/sdk's Trigger is a choice (anyOf) of its two types, whose fields this test does not merge:
  // each type's schema (ScheduleTriggerSchema, StorageObjectCreatedTriggerSchema) is checked as its own.
  TriggerSchema: "a choice of ScheduleTrigger and StorageObjectCreatedTrigger, each checked as its own",
  TriggerResponseSchema: "TriggerResponse: { trigger: Trigger }, a choice checked by its two types",
  TriggersListResponseSchema:
    "TriggersListResponse: { triggers: Trigger[] }, a choice checked by its two types",
};

/** Fields read although the official document does not list them (by schema, then path), each optional, with the reason. */
const UNDOCUMENTED: Record<string, string[]> = {
  // getProjects reports it (false when absent); the service sends it, the document omits it.
  ProjectSchema: ["locked"],
  // The document's discriminator picks the email provider's shape by `type`, which neither shape declares.
  AuthEmailProviderSchema: ["type"],
};

/** Past this depth a sample is an empty object: no schema of ours reads that deep. */
const SAMPLE_DEPTH = 12;

/**
 * A value of the documented type: with every documented property (`every`), or with the required
 * ones only, at every level; an array holds one item, an enum its first value, a choice its first
 * alternative.
 */
function sample(doc: OpenApiDocument, node: unknown, every: boolean, depth = 0): unknown {
  const s = doc.resolve(node);
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) return s["enum"][0];
  const alternatives = (s["oneOf"] ?? s["anyOf"]) as unknown[] | undefined;
  if (alternatives?.[0] !== undefined) return sample(doc, alternatives[0], every, depth + 1);
  if (s["type"] === "object" || isObj(s["properties"]) || Array.isArray(s["allOf"])) {
    if (depth > SAMPLE_DEPTH) return {};
    const { properties, required } = doc.fields(s);
    const out: Obj = {};
    for (const [name, property] of Object.entries(properties)) {
      if (every || required.has(name)) out[name] = sample(doc, property, every, depth + 1);
    }
    if (every && isObj(s["additionalProperties"]))
      out["key"] = sample(doc, s["additionalProperties"], every, depth + 1);
    return out;
  }
  switch (s["type"]) {
    case "array":
      return depth > SAMPLE_DEPTH ? [] : [sample(doc, s["items"], every, depth + 1)];
    case "string":
      return "x";
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    default:
      return {};
  }
}

/** The schema inside the wrappers that do not change which fields it reads. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
      s = s.def.innerType as z.ZodType;
    } else if (s instanceof z.ZodPipe) {
      s = s.def.in as z.ZodType;
    } else {
      return s;
    }
  }
}

/**
 * The fields `schema` reads that `node` does not document, as messages. A nested schema that names
 * its own documented shape is checked by its own test; here only that it names the one the document
 * refers to.
 */
function undocumentedFields(
  doc: OpenApiDocument,
  owner: string,
  where: string,
  schema: z.ZodType,
  node: unknown,
  path = "",
): string[] {
  const s = unwrap(schema);
  const nested = path === "" ? undefined : DOCUMENTED.get(s)?.as;
  if (nested !== undefined) {
    const ref = isObj(node) && typeof node["$ref"] === "string" ? refName(node["$ref"]) : undefined;
    return ref === undefined || ref === nested ? [] : [`${owner}.${path} reads a ${ref} as ${nested}`];
  }
  const described = doc.resolve(node);
  if (s instanceof z.ZodArray) {
    return undocumentedFields(doc, owner, where, s.element as z.ZodType, described["items"], `${path}[]`);
  }
  if (s instanceof z.ZodUnion) {
    return (s.options as z.ZodType[]).flatMap((option) =>
      undocumentedFields(doc, owner, where, option, node, path),
    );
  }
  if (s instanceof z.ZodRecord && isObj(described["additionalProperties"])) {
    return undocumentedFields(
      doc,
      owner,
      where,
      s.valueType as z.ZodType,
      described["additionalProperties"],
      `${path}.*`,
    );
  }
  if (!(s instanceof z.ZodObject)) return [];
  const { properties } = doc.fields(described);
  return Object.entries(s.shape as Record<string, z.ZodType>).flatMap(([field, fieldSchema]) => {
    const at = path === "" ? field : `${path}.${field}`;
    const property = properties[field];
    if (UNDOCUMENTED[owner]?.includes(at)) {
      return property === undefined ? [] : [`${owner}.${at} is documented now: drop it from UNDOCUMENTED`];
    }
    if (property === undefined) {
      return [`${owner}.${at} is not in the official ${where}: the API may have renamed it`];
    }
    return undocumentedFields(doc, owner, where, fieldSchema, property, at);
  });
}

/** The first issues of a failed parse, as `path: message`. */
function issuesOf(result: z.ZodSafeParseResult<unknown>): string {
  return result.success
    ? ""
    : result.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; ");
}

/** Every way `schema` drifted from what the document describes at `where`, as messages. */
function drift(name: string, schema: z.ZodType, where: string, doc = docOf(schema)): string[] {
  const described = doc.described(where);
  const problems = undocumentedFields(doc, name, where, schema, described);
  const full = schema.safeParse(sample(doc, described, true));
  if (!full.success) {
    problems.push(`${name} rejects a ${where} with every documented field: ${issuesOf(full)}`);
  }
  const minimal = schema.safeParse(sample(doc, described, false));
  if (!minimal.success) {
    problems.push(`${name} rejects a ${where} with only its required fields: ${issuesOf(minimal)}`);
  }
  return problems;
}

describe("client schemas against the official OpenAPI document (drift)", () => {
  it("every exported schema names where the document describes it, or is listed with the reason it is not", () => {
    assert.ok(EXPORTED.length >= 60, `schemas found: ${EXPORTED.length}`);
    const unnamed = EXPORTED.filter(
      ([name, schema]) =>
        !(schema instanceof z.ZodType && DOCUMENTED.has(schema)) && !(name in NOT_DOCUMENTED),
    ).map(([name]) => name);
    assert.deepEqual(
      unnamed,
      [],
      "add DOCUMENTED.add(<schema>, {as}) beside each, or list it in NOT_DOCUMENTED",
    );
    for (const name of Object.keys(NOT_DOCUMENTED)) {
      const schema = EXPORTED.find(([exported]) => exported === name)?.[1];
      assert.ok(schema instanceof z.ZodType, `NOT_DOCUMENTED lists ${name}, which is not exported`);
      assert.ok(
        !DOCUMENTED.has(schema),
        `${name} names its documented shape now: drop it from NOT_DOCUMENTED`,
      );
    }
  });

  for (const [name, schema] of EXPORTED) {
    const where = schema instanceof z.ZodType ? DOCUMENTED.get(schema)?.as : undefined;
    if (schema === undefined || where === undefined) continue;
    it(`${name} reads only documented fields of ${where}, accepts their documented types, requires only what is required`, () => {
      assert.deepEqual(drift(name, schema as z.ZodType, where), []);
    });
  }

  it("would notice drift: a renamed field, a documented type refused, an optional field required, a nested shape named wrong", () => {
    const renamed = z.looseObject({ id: z.string(), nmae: z.string().optional() });
    assert.deepEqual(drift("Renamed", renamed, "Branch"), [
      "Renamed.nmae is not in the official Branch: the API may have renamed it",
    ]);
    const [refused] = drift("Refused", z.looseObject({ id: z.number() }), "Branch");
    assert.match(refused ?? "", /^Refused rejects a Branch with every documented field: id: /);
    const [required] = drift("Required", z.looseObject({ expires_at: z.string() }), "Branch");
    assert.match(required ?? "", /^Required rejects a Branch with only its required fields: expires_at: /);
    const [nested] = drift(
      "Nested",
      z.looseObject({ branch: schemas.ProjectDetailSchema }),
      "BranchResponse",
    );
    assert.equal(nested, "Nested.branch reads a Branch as Project");
    const sdkRenamed = z.looseObject({ member_id: z.string(), memberId: z.string().optional() });
    assert.deepEqual(drift("SdkRenamed", sdkRenamed, "ProjectMember", sdk), [
      "SdkRenamed.memberId is not in the official ProjectMember: the API may have renamed it",
    ]);
  });

  for (const [name, ours, theirs] of [
    ["ENDPOINT_TYPES", schemas.ENDPOINT_TYPES, "EndpointType"],
    ["ENDPOINT_STATES", schemas.ENDPOINT_STATES, "EndpointState"],
    ["KNOWN_OPERATION_STATUSES", schemas.KNOWN_OPERATION_STATUSES, "OperationStatus"],
  ] as const) {
    it(`${name} lists the values of the official ${theirs}`, () => {
      const listed = official.resolve(official.component(theirs))["enum"] as string[];
      assert.deepEqual([...ours].sort(), [...listed].sort(), `${theirs} changed: update ${name}`);
    });
  }

  it("accepts enum values the document does not list yet, since those lists grow", () => {
    assert.ok(
      schemas.EndpointSchema.safeParse({ id: "ep-1", type: "read_many", host: "h", branch_id: "br-1" })
        .success,
    );
    const op = {
      id: "o",
      project_id: "p",
      action: "new_action",
      status: "new_status",
      created_at: "t",
      updated_at: "t",
    };
    assert.ok(schemas.OperationSchema.safeParse(op).success);
  });
});
