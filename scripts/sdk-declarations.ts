import ts from "typescript";

// Reads @neon/sdk's declarations with the TypeScript compiler, for scripts/derive-sdk-contract.ts:
// the types of types.gen.d.ts as JSON Schemas (with the fields and types marked `@deprecated`),
// each route function's `Data`, `Responses` and `Errors` types from sdk.gen.d.ts, and its HTTP
// method and URL from sdk.gen.js. It throws on a construct it cannot read.

type Obj = Record<string, unknown>;

/** A field (or a named type) the SDK marks `@deprecated`, with its note. */
export interface DeprecatedNote {
  /** `Type.property.property`, or `Type` for a whole named type. */
  at: string;
  /** The SDK's doc comment, without its leading "Deprecated." */
  note: string;
}

/** A declaration or script file's syntax tree, with its parents set (`getText` needs them). */
export const parse = (name: string, text: string): ts.SourceFile =>
  ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);

/** A node's `@deprecated` note (its doc's first paragraph), or undefined when it is not deprecated. */
export function deprecatedNote(node: ts.Node): string | undefined {
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
export class SchemaReader {
  readonly aliases = new Map<string, ts.TypeAliasDeclaration>();
  readonly referenced = new Set<string>();
  readonly deprecated: DeprecatedNote[] = [];

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
export function routeFunctions(text: string): Map<string, [data: string, responses: string, errors: string]> {
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
export function routeCalls(text: string): Map<string, string> {
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
