import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEPRECATIONS_PATH,
  deriveSdkContract,
  renderDeprecations,
  SDK_ARTIFACT,
  SDK_CLIENT_TYPES,
  SDK_EMULATOR_TYPES,
} from "./derive-sdk-contract";
import type { DerivedOperation, DerivedRequests, TypesArtifact } from "./derived-requests";

export type { DerivedOperation, DerivedRequests, TypesArtifact };

import { documentPath, OpenApiDocument, refName, taggedOneOf } from "./openapi-document";

// Derives `emulator/openapi/requests.gen.json` from the official OpenAPI document shipped in
// @neondatabase/api-client: every documented route, and for each one the JSON Schemas of its path
// parameters, query and body (with the component schemas they reference). Descriptions, examples
// and vendor keywords are dropped; formats a validator cannot check are dropped. Beside it,
// `requests.gen.ts` holds the TypeScript types of the same schemas, as fastify's route generics,
// so a route's handler is typed by exactly what its schemas check. The client gets the same types
// as a sender reads them (`provider/client/requests.gen.ts`: the provider package cannot import
// the emulator's), so every request it sends is checked against the document when it compiles.
//
//   npx ts-node scripts/derive-openapi.ts          # rewrites the three artifacts
//
// It then derives, with scripts/derive-sdk-contract.ts, the same artifacts for the routes the
// document lacks from the types @neon/sdk ships (a newer description of the API):
// `sdk-routes.gen.json` and `.ts` beside these, `provider/client/sdk-routes.gen.ts`, and the
// fields it marks deprecated (`provider/resources/public/deprecated.gen.ts`).
//
// Tests re-derive them and fail when a committed file no longer matches the document or the SDK.

type Obj = Record<string, unknown>;

/** Formats the emulator's validator checks; other OpenAPI formats (int64, double, ...) only annotate. */
const CHECKED_FORMATS = new Set(["date-time", "date", "uuid", "email", "uri", "ipv4", "ipv6", "hostname"]);
const DROPPED_KEYS = new Set(["description", "example", "examples", "deprecated", "discriminator", "title"]);
const METHODS = ["get", "put", "post", "patch", "delete"];

export { documentPath };

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function clean(value: unknown, refs: Set<string>, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => clean(v, refs, prefix));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(taggedOneOf(value))) {
    if (DROPPED_KEYS.has(key) || key.startsWith("x-")) continue;
    if (key === "format" && typeof v === "string" && !CHECKED_FORMATS.has(v)) continue;
    if (key === "$ref" && typeof v === "string") {
      const name = refName(v);
      refs.add(name);
      out[key] = `${prefix}#/components/schemas/${name}`;
      continue;
    }
    // `properties` maps names to schemas: a property may be called "description" or "example".
    out[key] =
      key === "properties" && isObj(v)
        ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, clean(s, refs, prefix)]))
        : clean(v, refs, prefix);
  }
  return out;
}

/** Reads the document and derives the artifact (deterministic: same document, same output). */
export function deriveRequests(text: string = readFileSync(documentPath(), "utf8")): DerivedRequests {
  const doc = new OpenApiDocument(text);
  const paths = doc.paths();
  const info = doc.raw["info"] as Obj;
  const refs = new Set<string>();
  const resolveParam = (p: Obj): Obj => doc.resolve(p);
  const operations: Record<string, DerivedOperation> = {};
  for (const template of Object.keys(paths).sort()) {
    const item = paths[template] as Obj;
    const shared = ((item["parameters"] as Obj[] | undefined) ?? []).map(resolveParam);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const own = ((op["parameters"] as Obj[] | undefined) ?? []).map(resolveParam);
      const byKey = new Map<string, Obj>();
      for (const p of [...shared, ...own]) byKey.set(`${String(p["in"])}:${String(p["name"])}`, p);
      const group = (where: string): Obj => {
        const properties: Obj = {};
        const required: string[] = [];
        for (const p of byKey.values()) {
          if (p["in"] !== where) continue;
          const name = String(p["name"]);
          properties[name] = clean(p["schema"] ?? {}, refs, "openapi");
          if (p["required"] === true) required.push(name);
        }
        return { type: "object", properties, ...(required.length > 0 ? { required: required.sort() } : {}) };
      };
      const requestBody = op["requestBody"] as Obj | undefined;
      const schema = (requestBody?.["content"] as Obj | undefined)?.["application/json"] as Obj | undefined;
      const derived: DerivedOperation = {
        params: group("path"),
        query: group("query"),
        bodyRequired: requestBody?.["required"] === true,
      };
      if (schema?.["schema"] !== undefined) derived.body = clean(schema["schema"], refs, "openapi") as Obj;
      operations[`${method.toUpperCase()} ${template}`] = derived;
    }
  }
  // The closure of referenced component schemas; references inside them stay document-relative.
  const schemas: Record<string, Obj> = {};
  const pending = [...refs];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (schemas[name] !== undefined) continue;
    const inner = new Set<string>();
    schemas[name] = clean(doc.component(name), inner, "") as Obj;
    for (const n of inner) if (schemas[n] === undefined) pending.push(n);
  }
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k] as Obj]),
  );
  return {
    $id: "openapi",
    source: `@neondatabase/api-client public-v2-for-users.gen.yaml, API ${String(info["version"])}`,
    operations,
    components: { schemas: sorted },
  };
}

/** The artifact's path in the repository. */
export const ARTIFACT = join(__dirname, "..", "emulator", "openapi", "requests.gen.json");

/** The emulator's handlers' types: what a request is once fastify has checked it. */
export const EMULATOR_TYPES: TypesArtifact = {
  path: join(__dirname, "..", "emulator", "openapi", "requests.gen.ts"),
  header:
    "// Derived from the official document by scripts/derive-openapi.ts, with requests.gen.json: do not edit.",
  doc: "/** Each documented route's request parts, as fastify's route generics. */",
  defaultsApplied: true,
  undefinedWhenOptional: false,
  openEnums: false,
};

/** The client's types: what a request may be as it is sent. */
export const CLIENT_TYPES: TypesArtifact = {
  path: join(__dirname, "..", "provider", "client", "requests.gen.ts"),
  header: "// Derived from the official document by scripts/derive-openapi.ts: do not edit.",
  doc: [
    "/**",
    " * Each documented route's request parts as the client sends them: a query parameter with a",
    " * default may be left out, and an optional property may be `undefined` (it is not sent).",
    " */",
  ].join("\n"),
  defaultsApplied: false,
  undefinedWhenOptional: true,
  openEnums: true,
};

/** The artifact's exact text. */
export function renderArtifact(derived: DerivedRequests): string {
  return `${JSON.stringify(derived, null, 1)}\n`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const group = (type: string): string => (/[|&]/.test(type) && !type.startsWith("{") ? `(${type})` : type);

/**
 * The TypeScript type of a derived schema: the keywords the artifact uses (references, allOf,
 * oneOf/anyOf, enum, type, properties, required, items, additionalProperties, nullable), as
 * `reader` sees it. `applied`: the schema is of path parameters or query, whose defaults the
 * reader may get filled in.
 */
function typeOf(schema: unknown, pad: string, reader: TypesArtifact, applied = false): string {
  if (!isObj(schema)) return "unknown";
  const parts: string[] = [];
  if (typeof schema["$ref"] === "string") parts.push(refName(schema["$ref"]));
  for (const part of (schema["allOf"] as unknown[] | undefined) ?? [])
    parts.push(group(typeOf(part, pad, reader)));
  const alternatives = (schema["oneOf"] ?? schema["anyOf"]) as unknown[] | undefined;
  if (alternatives) parts.push(`(${alternatives.map((a) => typeOf(a, pad, reader)).join(" | ")})`);
  const own = ownType(schema, pad, reader, applied);
  if (own !== undefined) parts.push(parts.length > 0 ? group(own) : own);
  const type = parts.length === 0 ? "unknown" : parts.join(" & ");
  return schema["nullable"] === true ? `${group(type)} | null` : type;
}

function ownType(schema: Obj, pad: string, reader: TypesArtifact, applied: boolean): string | undefined {
  if (Array.isArray(schema["enum"])) {
    const listed = schema["enum"].map((v) => JSON.stringify(v));
    const open = reader.openEnums && schema["enum"].every((v) => typeof v === "string");
    return [...listed, ...(open ? ["(string & {})"] : [])].join(" | ");
  }
  const declared = schema["type"];
  if (Array.isArray(declared))
    return declared.map((t) => ownType({ ...schema, type: t }, pad, reader, applied)).join(" | ");
  if (declared === "object" || isObj(schema["properties"])) return objectType(schema, pad, reader, applied);
  switch (declared) {
    case "array":
      return `Array<${typeOf(schema["items"], pad, reader)}>`;
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    default:
      return undefined;
  }
}

function objectType(schema: Obj, pad: string, reader: TypesArtifact, applied: boolean): string {
  const properties = (schema["properties"] ?? {}) as Record<string, unknown>;
  const extra = schema["additionalProperties"];
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (isObj(extra)) return `Record<string, ${typeOf(extra, pad, reader)}>`;
    return extra === false ? "Record<string, never>" : "Record<string, unknown>";
  }
  const required = new Set((schema["required"] as string[] | undefined) ?? []);
  const inner = `${pad}  `;
  const lines = names.map((name) => {
    const property = properties[name];
    const present =
      required.has(name) ||
      (applied && reader.defaultsApplied && isObj(property) && property["default"] !== undefined);
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const type = typeOf(property, inner, reader);
    if (present) return `${inner}${key}: ${type};`;
    return `${inner}${key}?: ${type}${reader.undefinedWhenOptional ? " | undefined" : ""};`;
  });
  if (extra !== undefined && extra !== false) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${pad}}`;
}

/**
 * The artifact's types as `reader` sees them: `Requests` maps each "METHOD /template" to fastify's
 * route generics (Params, Querystring, and Body where the route takes one; an optional body may be
 * absent or `null`), then one type per component schema.
 */
export function renderTypes(derived: DerivedRequests, reader: TypesArtifact): string {
  const routes = Object.entries(derived.operations).map(([route, op]) => {
    const parts = [
      `    Params: ${typeOf(op.params, "    ", reader, true)};`,
      `    Querystring: ${typeOf(op.query, "    ", reader, true)};`,
    ];
    if (op.body !== undefined || op.bodyRequired) {
      const body = typeOf(op.body, "    ", reader);
      parts.push(`    Body: ${op.bodyRequired ? body : `${group(body)} | null | undefined`};`);
    }
    return `  ${JSON.stringify(route)}: {\n${parts.join("\n")}\n  };`;
  });
  const components = Object.entries(derived.components.schemas).map(
    ([name, schema]) => `export type ${name} = ${typeOf(schema, "", reader)};`,
  );
  return [
    reader.header,
    "",
    reader.doc,
    "export interface Requests {",
    ...routes,
    "}",
    "",
    ...components,
    "",
  ].join("\n");
}

if (require.main === module) {
  const derived = deriveRequests();
  const sdk = deriveSdkContract(new Set(Object.keys(derived.operations)), new OpenApiDocument());
  for (const [path, text] of [
    [ARTIFACT, renderArtifact(derived)],
    [EMULATOR_TYPES.path, renderTypes(derived, EMULATOR_TYPES)],
    [CLIENT_TYPES.path, renderTypes(derived, CLIENT_TYPES)],
    [SDK_ARTIFACT, renderArtifact(sdk)],
    [SDK_EMULATOR_TYPES.path, renderTypes(sdk, SDK_EMULATOR_TYPES)],
    [SDK_CLIENT_TYPES.path, renderTypes(sdk, SDK_CLIENT_TYPES)],
    [DEPRECATIONS_PATH, renderDeprecations(sdk)],
  ] as const) {
    writeFileSync(path, text);
    process.stdout.write(`wrote ${path} (${text.length} bytes)\n`);
  }
}
