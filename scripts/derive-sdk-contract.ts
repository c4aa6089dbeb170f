import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import type { DerivedOperation, DerivedRequests, TypesArtifact } from "./derived-requests";
import type { OpenApiDocument } from "./openapi-document";
import {
  type DeprecatedNote,
  deprecatedNote,
  parse,
  routeCalls,
  routeFunctions,
  SchemaReader,
} from "./sdk-declarations";

// Derives `emulator/openapi/sdk-routes.gen.json` from the types @neon/sdk ships
// (dist/client/types.gen.d.ts), which are generated from a newer description of the API than the
// official document: the routes the document lacks (project members, branch credentials, custom
// domains, ...) with the JSON Schemas of their path parameters, query, body and each response
// status, and the fields the SDK marks deprecated. The SDK ships TypeScript, not a document, so the
// schemas are read off its declarations with the TypeScript compiler: each `XxxData` type gives a
// route's request parts and URL, `XxxResponses` and `XxxErrors` its answers by status, and the
// SDK's route functions (dist/client/sdk.gen.js) the HTTP method of each
// (`scripts/sdk-declarations.ts` reads them); this module puts what it reads together.
//
// `scripts/derive-openapi.ts` writes this artifact and its types beside the document's.

type Obj = Record<string, unknown>;

/** Where the SDK's generated client lives. */
export function sdkClientDir(): string {
  return join(dirname(require.resolve("@neon/sdk")), "client");
}

/** The installed SDK's version. */
function sdkVersion(): string {
  const pkg = join(dirname(require.resolve("@neon/sdk")), "..", "package.json");
  return String((JSON.parse(readFileSync(pkg, "utf8")) as Obj)["version"]);
}

/** A route's request schemas and its answers' schemas by status (`null`: an answer without a body). */
export interface SdkOperation extends DerivedOperation {
  responses: Record<string, Obj | null>;
}

/** A field (or a named type) the SDK marks `@deprecated`, with its note, as the artifact lists it. */
export interface Deprecation extends DeprecatedNote {
  /** Whether the official document marks it deprecated too. */
  documented: boolean;
}

/** The artifact: ajv-ready schemas of the routes only the SDK describes, keyed by "METHOD /template". */
export interface SdkContract extends DerivedRequests {
  $id: "sdk";
  operations: Record<string, SdkOperation>;
  deprecated: Deprecation[];
}

/** The SDK's declaration files, as text (the test edits them to see the derivation follow). */
export interface SdkSources {
  types: string;
  functions: string;
  calls: string;
}

/** Reads the installed SDK's declarations. */
export function sdkSources(dir: string = sdkClientDir()): SdkSources {
  return {
    types: readFileSync(join(dir, "types.gen.d.ts"), "utf8"),
    functions: readFileSync(join(dir, "sdk.gen.d.ts"), "utf8"),
    calls: readFileSync(join(dir, "sdk.gen.js"), "utf8"),
  };
}

const EMPTY_GROUP: Obj = { type: "object", properties: {} };

/** A route's path parameters or query: an object schema, as the document's derivation writes them. */
function group(reader: SchemaReader, member: ts.PropertySignature | undefined): Obj {
  if (!member?.type || member.type.kind === ts.SyntaxKind.NeverKeyword) return EMPTY_GROUP;
  const schema = reader.schema(member.type);
  if (schema["required"] !== undefined) (schema["required"] as string[]).sort();
  return schema;
}

/**
 * Whether the document marks the property at `Type.a.b` (or the named type) deprecated; for a
 * route's parameter (`XxxData.query.name`), whether the document's route marks that parameter.
 */
function documentDeprecates(doc: OpenApiDocument, at: string, routes: ReadonlyMap<string, string>): boolean {
  const [name, ...path] = at.split(".");
  const route = routes.get(name as string);
  if (route !== undefined && path.length === 2 && (path[0] === "query" || path[0] === "path")) {
    const [method, template] = route.split(" ") as [string, string];
    const own = (doc.operation(method, template)?.["parameters"] as unknown[] | undefined) ?? [];
    const shared = (doc.paths()[template]?.["parameters"] as unknown[] | undefined) ?? [];
    return [...shared, ...own]
      .map((p) => doc.resolve(p))
      .some((p) => p["in"] === path[0] && p["name"] === path[1] && p["deprecated"] === true);
  }
  let schema: Obj;
  try {
    schema = doc.component(name as string);
  } catch {
    return false;
  }
  if (path.length === 0) return schema["deprecated"] === true;
  for (const [i, field] of path.entries()) {
    const property = doc.fields(schema).properties[field];
    if (property === undefined) return false;
    if (i === path.length - 1)
      return property["deprecated"] === true || doc.resolve(property)["deprecated"] === true;
    schema = doc.resolve(property);
  }
  return false;
}

/**
 * Derives the contract of the routes the official document lacks from the SDK's declarations
 * (deterministic: same SDK and document, same output); throws on a construct it cannot read.
 */
export function deriveSdkContract(
  documented: ReadonlySet<string>,
  doc: OpenApiDocument,
  sources: SdkSources = sdkSources(),
): SdkContract {
  const reader = new SchemaReader(parse("types.gen.d.ts", sources.types));
  const calls = routeCalls(sources.calls);
  const operations: Record<string, SdkOperation> = {};
  const routeOfData = new Map<string, string>();
  for (const [fn, [data, responses, errors]] of routeFunctions(sources.functions)) {
    const route = calls.get(fn);
    if (route === undefined) throw new Error(`@neon/sdk's ${fn} calls no route the derivation can read`);
    routeOfData.set(data, route);
    if (documented.has(route) || operations[route] !== undefined) continue;
    const parts = reader.members(data);
    const body = parts.get("body");
    const op: SdkOperation = {
      params: group(reader, parts.get("path")),
      query: group(reader, parts.get("query")),
      bodyRequired:
        body !== undefined && !body.questionToken && body.type?.kind !== ts.SyntaxKind.NeverKeyword,
      responses: {},
    };
    if (body?.type && body.type.kind !== ts.SyntaxKind.NeverKeyword) op.body = reader.schema(body.type);
    for (const name of [responses, errors]) {
      for (const [status, member] of reader.members(name)) {
        const type = member.type;
        op.responses[status] = !type || type.kind === ts.SyntaxKind.VoidKeyword ? null : reader.schema(type);
      }
    }
    operations[route] = op;
  }
  // The closure of the named types the routes reference; deprecated properties are recorded as
  // each is read. Every named type is read for deprecations, so the list covers the documented
  // routes' fields too.
  const schemas: Record<string, Obj> = {};
  const pending = [...reader.referenced];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (schemas[name] !== undefined) continue;
    schemas[name] = reader.schema(reader.alias(name), name);
    for (const n of reader.referenced) if (schemas[n] === undefined) pending.push(n);
  }
  for (const [name, declaration] of reader.aliases) {
    // `XxxResponse = XxxResponses[keyof XxxResponses]` only picks among a route's answers.
    if (schemas[name] === undefined && !ts.isIndexedAccessTypeNode(declaration.type))
      reader.schema(declaration.type, name);
  }
  for (const [name, declaration] of reader.aliases) {
    const note = deprecatedNote(declaration);
    if (note !== undefined) reader.deprecated.push({ at: name, note });
  }
  const seen = new Set<string>();
  const deprecated = reader.deprecated
    .filter((d) => !seen.has(d.at) && seen.add(d.at))
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((d) => ({ ...d, documented: documentDeprecates(doc, d.at, routeOfData) }));
  const sortedOps = Object.fromEntries(
    Object.keys(operations)
      .sort((a, b) => a.slice(a.indexOf(" ")).localeCompare(b.slice(b.indexOf(" "))) || a.localeCompare(b))
      .map((k) => [k, operations[k] as SdkOperation]),
  );
  return {
    $id: "sdk",
    source: `@neon/sdk ${sdkVersion()} dist/client/types.gen.d.ts`,
    operations: sortedOps,
    components: {
      schemas: Object.fromEntries(
        Object.keys(schemas)
          .sort()
          .map((k) => [k, schemas[k] as Obj]),
      ),
    },
    deprecated,
  };
}

/** The artifact's path in the repository. */
export const SDK_ARTIFACT = join(__dirname, "..", "emulator", "openapi", "sdk-routes.gen.json");

/** The emulator's handlers' types of the SDK's routes. */
export const SDK_EMULATOR_TYPES: TypesArtifact = {
  path: join(__dirname, "..", "emulator", "openapi", "sdk-routes.gen.ts"),
  header:
    "// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts, with sdk-routes.gen.json: do not edit.",
  doc: "/** Each route only @neon/sdk describes: its request parts, as fastify's route generics. */",
  defaultsApplied: true,
  undefinedWhenOptional: false,
  openEnums: false,
};

/** The client's types of the SDK's routes. */
export const SDK_CLIENT_TYPES: TypesArtifact = {
  path: join(__dirname, "..", "provider", "client", "sdk-routes.gen.ts"),
  header: "// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts: do not edit.",
  doc: [
    "/**",
    " * Each route only @neon/sdk describes: its request parts as the client sends them (an optional",
    " * property may be `undefined`: it is not sent).",
    " */",
  ].join("\n"),
  defaultsApplied: false,
  undefinedWhenOptional: true,
  openEnums: true,
};

/** The deprecations, for the provider: a module of data only, so the program's process may load it. */
export const DEPRECATIONS_PATH = join(
  __dirname,
  "..",
  "provider",
  "resources",
  "public",
  "deprecated.gen.ts",
);

/** The text of {@link DEPRECATIONS_PATH}. */
export function renderDeprecations(contract: SdkContract): string {
  const lines = contract.deprecated.map((d) => `  ${JSON.stringify(d.at)}: ${JSON.stringify(d.note)},`);
  return [
    "// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts: do not edit.",
    "",
    "/** The fields (`Type.field.field`) and types the API's newest description marks deprecated, with what it says to do instead. */",
    "export const DEPRECATED: Readonly<Record<string, string>> = {",
    ...lines,
    "};",
    "",
  ].join("\n");
}
