import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

// Derives `emulator/openapi/requests.gen.json` from the official OpenAPI document shipped in
// @neondatabase/api-client: every documented route, and for each one the JSON Schemas of its path
// parameters, query and body (with the component schemas they reference). Descriptions, examples
// and vendor keywords are dropped; formats a validator cannot check are dropped.
//
//   npx ts-node scripts/derive-openapi.ts          # rewrites the artifact
//
// A test re-derives it and fails when the committed file no longer matches the document.

type Obj = Record<string, unknown>;

/** Formats the emulator's validator checks; other OpenAPI formats (int64, double, ...) only annotate. */
const CHECKED_FORMATS = new Set(["date-time", "date", "uuid", "email", "uri", "ipv4", "ipv6", "hostname"]);
const DROPPED_KEYS = new Set(["description", "example", "examples", "deprecated", "discriminator", "title"]);
const METHODS = ["get", "put", "post", "patch", "delete"];

/** Where the official document lives. */
export function documentPath(): string {
  return join(require.resolve("@neondatabase/api-client/package.json"), "..", "public-v2-for-users.gen.yaml");
}

/** One route's request schemas. */
export interface DerivedOperation {
  params: Obj;
  query: Obj;
  body?: Obj;
  bodyRequired: boolean;
}

/** The artifact: ajv-ready schemas keyed by "METHOD /template". */
export interface DerivedRequests {
  $id: "openapi";
  source: string;
  operations: Record<string, DerivedOperation>;
  components: { schemas: Record<string, Obj> };
}

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function clean(value: unknown, refs: Set<string>, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => clean(v, refs, prefix));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) {
    if (DROPPED_KEYS.has(key) || key.startsWith("x-")) continue;
    if (key === "format" && typeof v === "string" && !CHECKED_FORMATS.has(v)) continue;
    if (key === "$ref" && typeof v === "string") {
      const name = v.split("/").at(-1) as string;
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
  const doc = parse(text) as Obj;
  const paths = doc["paths"] as Record<string, Obj>;
  const components = doc["components"] as { schemas: Record<string, Obj>; parameters: Record<string, Obj> };
  const info = doc["info"] as Obj;
  const refs = new Set<string>();
  const resolveParam = (p: Obj): Obj => {
    const ref = p["$ref"];
    return typeof ref === "string" ? (components.parameters[ref.split("/").at(-1) as string] as Obj) : p;
  };
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
    schemas[name] = clean(components.schemas[name], inner, "") as Obj;
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

/** The artifact's exact text. */
export function renderArtifact(derived: DerivedRequests): string {
  return `${JSON.stringify(derived, null, 1)}\n`;
}

if (require.main === module) {
  const text = renderArtifact(deriveRequests());
  writeFileSync(ARTIFACT, text);
  process.stdout.write(`wrote ${ARTIFACT} (${text.length} bytes)\n`);
}
