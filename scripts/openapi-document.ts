import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

// The one reader of the official OpenAPI document (shipped in @neondatabase/api-client, never
// copied into the repository): the derivation of the emulator's request schemas, the emulator's
// response contract tests and the client's schema drift test all read it through this module, so
// there is one way to follow a `$ref`.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A `oneOf` its discriminator picks from, as alternatives that each require their tag: without the
 * tag a body can match two alternatives (an object with extra fields matches a loose one), and a
 * validator that ignores discriminators would refuse it as matching more than one.
 */
export function taggedOneOf(value: Obj): Obj {
  const discriminator = value["discriminator"];
  if (!isObj(discriminator) || !isObj(discriminator["mapping"]) || !Array.isArray(value["oneOf"]))
    return value;
  const tag = String(discriminator["propertyName"]);
  const mapping = Object.entries(discriminator["mapping"] as Record<string, string>);
  return {
    ...value,
    oneOf: mapping.map(([name, ref]) => ({
      allOf: [{ $ref: ref }, { type: "object", required: [tag], properties: { [tag]: { enum: [name] } } }],
    })),
  };
}

/** The schema with every discriminated `oneOf` in it tagged (see `taggedOneOf`). */
export function withTaggedOneOfs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withTaggedOneOfs);
  if (!isObj(value)) return value;
  return Object.fromEntries(Object.entries(taggedOneOf(value)).map(([k, v]) => [k, withTaggedOneOfs(v)]));
}

/** Where the official document lives. */
export function documentPath(): string {
  return join(require.resolve("@neondatabase/api-client/package.json"), "..", "public-v2-for-users.gen.yaml");
}

/** The name a reference ends with: `#/components/schemas/Branch` -> `Branch`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** The documented fields of an object schema: its properties and the required ones, allOf parts merged. */
export interface Fields {
  properties: Record<string, Obj>;
  required: Set<string>;
}

/** The official document, parsed; references are followed inside it. */
export class OpenApiDocument {
  /** The parsed document, as the YAML says it. */
  readonly raw: Obj;

  constructor(text: string = readFileSync(documentPath(), "utf8")) {
    this.raw = parse(text) as Obj;
  }

  /** The node a local reference (`#/components/...`) points at; throws naming a dangling one. */
  target(ref: string): Obj {
    if (!ref.startsWith("#/")) throw new Error(`only local references are followed, not ${ref}`);
    let node: unknown = this.raw;
    for (const segment of ref.slice(2).split("/")) {
      node = isObj(node) ? node[segment.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
    }
    if (!isObj(node)) throw new Error(`the official document has nothing at ${ref}`);
    return node;
  }

  /** The node itself, or what its chain of references ends at. */
  resolve(node: unknown): Obj {
    let current = node;
    while (isObj(current) && typeof current["$ref"] === "string") current = this.target(current["$ref"]);
    return isObj(current) ? current : {};
  }

  /** A component schema by name; throws when the document has none. */
  component(name: string): Obj {
    return this.target(`#/components/schemas/${name}`);
  }

  /** Every path template with its path item. */
  paths(): Record<string, Obj> {
    return (this.raw["paths"] ?? {}) as Record<string, Obj>;
  }

  /** The operation object of `METHOD /template`, if the document describes it. */
  operation(method: string, template: string): Obj | undefined {
    const op = this.paths()[template]?.[method.toLowerCase()];
    return isObj(op) ? op : undefined;
  }

  /** The schema of a route's JSON answer with `status`; throws when the document has none. */
  answer(method: string, template: string, status: string): Obj {
    const response = this.resolve(
      (this.operation(method, template)?.["responses"] as Obj | undefined)?.[status],
    );
    const schema = ((response["content"] as Obj | undefined)?.["application/json"] as Obj | undefined)?.[
      "schema"
    ];
    if (!isObj(schema)) {
      throw new Error(`the official document has no JSON answer ${status} to ${method} ${template}`);
    }
    return schema;
  }

  /**
   * A schema named the way the client's schemas name what describes them: a component schema
   * (`Branch`), or a route's answer (`GET /projects/{project_id}/snapshots 200`).
   */
  described(name: string): Obj {
    const route = /^([A-Z]+) (\S+) (\d{3})$/.exec(name);
    return route
      ? this.answer(route[1] as string, route[2] as string, route[3] as string)
      : this.component(name);
  }

  /** The properties and required fields of an object schema, references followed and allOf merged. */
  fields(schema: unknown): Fields {
    const properties: Record<string, Obj> = {};
    const required = new Set<string>();
    const walk = (node: unknown) => {
      const s = this.resolve(node);
      Object.assign(properties, s["properties"] ?? {});
      for (const field of (s["required"] as string[] | undefined) ?? []) required.add(field);
      for (const part of (s["allOf"] as unknown[] | undefined) ?? []) walk(part);
    };
    walk(schema);
    return { properties, required };
  }
}

let shared: OpenApiDocument | undefined;

/** The installed official document, parsed once per process. */
export function officialDocument(): OpenApiDocument {
  shared ??= new OpenApiDocument();
  return shared;
}
