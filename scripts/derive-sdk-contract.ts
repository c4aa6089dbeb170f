import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import type { DerivedOperation, DerivedRequests, TypesArtifact } from "./derived-requests";
import type { OpenApiDocument } from "./openapi-document";

// Derives `emulator/openapi/sdk-routes.gen.json` from the types @neon/sdk ships
// (dist/client/types.gen.d.ts), which are generated from a newer description of the API than the
// official document: the routes the document lacks (project members, branch credentials, custom
// domains, ...) with the JSON Schemas of their path parameters, query, body and each response
// status, and the fields the SDK marks deprecated. The SDK ships TypeScript, not a document, so the
// schemas are read off its declarations with the TypeScript compiler: each `XxxData` type gives a
// route's request parts and URL, `XxxResponses` and `XxxErrors` its answers by status, and the
// SDK's route functions (dist/client/sdk.gen.js) the HTTP method of each.
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

/** A field (or a named type) the SDK marks `@deprecated`, with its note. */
export interface Deprecation {
  /** `Type.property.property`, or `Type` for a whole named type. */
  at: string;
  /** The SDK's doc comment, without its leading "Deprecated." */
  note: string;
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

const parse = (name: string, text: string): ts.SourceFile =>
  ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);

/** A node's `@deprecated` note (its doc's first paragraph), or undefined when it is not deprecated. */
function deprecatedNote(node: ts.Node): string | undefined {
  const tags = ts.getJSDocTags(node);
  if (!tags.some((t) => t.tagName.text === "deprecated")) return undefined;
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
    .join("\n")
    .trim();
  // The note is the first paragraph, without its "Deprecated." lead: what to do instead.
  const first = (text.split(/\n\s*\n/)[0] ?? "").replace(/\s*\n\s*/g, " ").trim();
  return first.replace(/^deprecated[.:]?\s*/i, "");
}

const propertyName = (name: ts.PropertyName): string =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : name.getText();

/** The SDK's declarations turned into JSON Schemas, with the named types they reference. */
class SchemaReader {
  readonly aliases = new Map<string, ts.TypeAliasDeclaration>();
  readonly referenced = new Set<string>();
  readonly deprecated: Omit<Deprecation, "documented">[] = [];

  constructor(readonly file: ts.SourceFile) {
    for (const statement of file.statements) {
      if (ts.isTypeAliasDeclaration(statement)) this.aliases.set(statement.name.text, statement);
    }
  }

  /** A named type's declared type; throws naming a type the SDK does not declare. */
  alias(name: string): ts.TypeNode {
    const declaration = this.aliases.get(name);
    if (!declaration) throw new Error(`@neon/sdk declares no type ${name}`);
    return declaration.type;
  }

  /**
   * A type as a JSON Schema: object literals (optional properties, index signatures), unions
   * (string literals become an enum, `null` a null alternative), intersections, arrays, references
   * to the SDK's named types, literals and the keyword types. `at` names where deprecated
   * properties are recorded; none when undefined (a route's parts are not named types).
   */
  schema(node: ts.TypeNode, at?: string): Obj {
    if (ts.isParenthesizedTypeNode(node)) return this.schema(node.type, at);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword)
      return this.schema(node.type, at);
    if (ts.isTypeLiteralNode(node)) return this.object(node, at);
    if (ts.isArrayTypeNode(node)) return { type: "array", items: this.schema(node.elementType) };
    if (ts.isUnionTypeNode(node)) return this.union(node.types, at);
    if (ts.isIntersectionTypeNode(node)) {
      // `string & {}` is the SDK's way of keeping a literal union open to any string.
      const parts = node.types.filter((t) => !(ts.isTypeLiteralNode(t) && t.members.length === 0));
      if (parts.length === 1) return this.schema(parts[0] as ts.TypeNode, at);
      return { allOf: parts.map((t) => this.schema(t, at)) };
    }
    if (ts.isLiteralTypeNode(node)) return this.literal(node);
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      const args = node.typeArguments ?? [];
      if (name === "Array" && args.length === 1)
        return { type: "array", items: this.schema(args[0] as ts.TypeNode) };
      if (!this.aliases.has(name)) return {};
      this.referenced.add(name);
      return { $ref: `sdk#/components/schemas/${name}` };
    }
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: "string" };
      case ts.SyntaxKind.NumberKeyword:
        return { type: "number" };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: "boolean" };
      case ts.SyntaxKind.NullKeyword:
        return { type: "null" };
      case ts.SyntaxKind.NeverKeyword:
        return { not: {} };
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
      // An answer without a body; the route's answers record it as `null`.
      case ts.SyntaxKind.VoidKeyword:
        return {};
      default:
        throw new Error(
          `the derivation does not read the type ${node.getText()} (${ts.SyntaxKind[node.kind]})`,
        );
    }
  }

  private literal(node: ts.LiteralTypeNode): Obj {
    const lit = node.literal;
    if (lit.kind === ts.SyntaxKind.NullKeyword) return { type: "null" };
    if (lit.kind === ts.SyntaxKind.TrueKeyword) return { type: "boolean", enum: [true] };
    if (lit.kind === ts.SyntaxKind.FalseKeyword) return { type: "boolean", enum: [false] };
    if (ts.isStringLiteral(lit)) return { type: "string", enum: [lit.text] };
    if (ts.isNumericLiteral(lit)) return { type: "number", enum: [Number(lit.text)] };
    if (ts.isPrefixUnaryExpression(lit) && ts.isNumericLiteral(lit.operand))
      return { type: "number", enum: [-Number(lit.operand.text)] };
    throw new Error(`the derivation does not read the literal ${node.getText()}`);
  }

  private union(types: ts.NodeArray<ts.TypeNode>, at: string | undefined): Obj {
    const strings: string[] = [];
    const others: Obj[] = [];
    for (const t of types) {
      if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) strings.push(t.literal.text);
      else others.push(this.schema(t, at));
    }
    const alternatives = [...(strings.length > 0 ? [{ type: "string", enum: strings }] : []), ...others];
    // An open literal union (`'a' | 'b' | (string & {})`) is any string.
    if (others.some((o) => o["type"] === "string" && o["enum"] === undefined)) {
      alternatives.splice(0, strings.length > 0 ? 1 : 0);
    }
    return alternatives.length === 1 ? (alternatives[0] as Obj) : { anyOf: alternatives };
  }

  private object(node: ts.TypeLiteralNode, at: string | undefined): Obj {
    const properties: Obj = {};
    const required: string[] = [];
    let additional: Obj | undefined;
    for (const member of node.members) {
      if (ts.isPropertySignature(member) && member.type) {
        const name = propertyName(member.name);
        const where = at === undefined ? undefined : `${at}.${name}`;
        const note = where === undefined ? undefined : deprecatedNote(member);
        if (where !== undefined && note !== undefined) this.deprecated.push({ at: where, note });
        properties[name] = this.schema(member.type, where);
        if (!member.questionToken) required.push(name);
      } else if (ts.isIndexSignatureDeclaration(member)) {
        additional = this.schema(member.type);
      } else {
        throw new Error(`the derivation does not read the member ${member.getText()}`);
      }
    }
    return {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(additional !== undefined ? { additionalProperties: additional } : {}),
    };
  }

  /** The members of a route's `Data` or `Responses` type literal, by name. */
  members(name: string): Map<string, ts.PropertySignature> {
    const type = this.alias(name);
    if (!ts.isTypeLiteralNode(type)) throw new Error(`@neon/sdk's ${name} is not an object type`);
    const out = new Map<string, ts.PropertySignature>();
    for (const member of type.members) {
      if (ts.isPropertySignature(member)) out.set(propertyName(member.name), member);
    }
    return out;
  }
}

/** Each SDK route function's `Data`, `Responses` and `Errors` type names, from sdk.gen.d.ts. */
function routeFunctions(text: string): Map<string, [data: string, responses: string, errors: string]> {
  const out = new Map<string, [string, string, string]>();
  const typeArg = (node: ts.TypeNode | undefined, expected: string, index: number): string => {
    if (node && ts.isTypeReferenceNode(node) && node.typeName.getText() === expected) {
      const arg = node.typeArguments?.[index];
      if (arg && ts.isTypeReferenceNode(arg)) return arg.typeName.getText();
    }
    throw new Error(`an SDK route function is not typed ${expected}<...>: ${node?.getText()}`);
  };
  for (const statement of parse("sdk.gen.d.ts", text).statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const fn = declaration.type;
      if (!fn || !ts.isFunctionTypeNode(fn)) continue;
      const name = declaration.name.getText();
      out.set(name, [
        typeArg(fn.parameters[0]?.type, "Options", 0),
        typeArg(fn.type, "RequestResult", 0),
        typeArg(fn.type, "RequestResult", 1),
      ]);
    }
  }
  return out;
}

const METHODS = new Set(["get", "put", "post", "patch", "delete"]);

/** Each SDK route function's HTTP method and URL, from sdk.gen.js (`(options.client ?? client).post({..., url})`). */
function routeCalls(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: ts.Node, name: string | undefined): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) name = node.name.text;
    if (
      name !== undefined &&
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      METHODS.has(node.expression.name.text)
    ) {
      const options = node.arguments[0];
      const url =
        options && ts.isObjectLiteralExpression(options)
          ? options.properties.find(
              (p): p is ts.PropertyAssignment =>
                ts.isPropertyAssignment(p) && p.name.getText() === "url" && ts.isStringLiteral(p.initializer),
            )
          : undefined;
      if (url) {
        out.set(
          name,
          `${node.expression.name.text.toUpperCase()} ${(url.initializer as ts.StringLiteral).text}`,
        );
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(parse("sdk.gen.js", text), undefined);
  return out;
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
