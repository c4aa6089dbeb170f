/**
 * The docs of the declarations: each input, output, object-type property and setting of
 * `provider/resources/public/*.ts` (resources, config) and `provider/data/declared.ts` (functions)
 * is documented by the JSDoc on its property, which editors show on hover and the published `.d.ts`
 * keeps; each resource class, declared function and named type by the JSDoc above it. This reads
 * them back with the TypeScript compiler, for whatever needs them as data (the package schema, the
 * test that every property has one).
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import ts from "typescript";

/** One declared property and its doc (undefined when it has none). */
export interface DeclaredDoc {
  /** What declares it: a resource kind, a function, an object type, or the provider's config. */
  of: "resource" | "function" | "type" | "config";
  /** `Branch` for a resource, `getProjects` for a function, `Timeouts` for an object type, `config`. */
  owner: string;
  /** `inputs`, `outputs`, or `properties` for an object type or the config. */
  part: "inputs" | "outputs" | "properties";
  name: string;
  doc: string | undefined;
  /** `branch.ts:42`. */
  at: string;
}

/** The folder of the public declarations. */
export const PUBLIC_DIR = join(__dirname, "..", "provider", "resources", "public");

/** The folder of the data sources, whose declarations are in `declared.ts`, `lookups.declared.ts` and `inventory.declared.ts`. */
export const DATA_DIR = join(__dirname, "..", "provider", "data");

/** The files of `DATA_DIR` that declare functions. */
export const FUNCTION_FILES = ["declared.ts", "lookups.declared.ts", "inventory.declared.ts"] as const;

/** The folder of the components, whose declarations are in `<component>.declared.ts`. */
export const COMPONENTS_DIR = join(__dirname, "..", "provider", "components");

/** The components' declaration files. */
export function componentFiles(): string[] {
  return readdirSync(COMPONENTS_DIR)
    .filter((f) => f.endsWith(".declared.ts"))
    .sort()
    .map((f) => join(COMPONENTS_DIR, f));
}

/** The declaration files: every file of `public/`, the data sources' and the components'. */
function declarationFiles(): string[] {
  const publicFiles = readdirSync(PUBLIC_DIR)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => join(PUBLIC_DIR, f));
  return [...publicFiles, ...FUNCTION_FILES.map((f) => join(DATA_DIR, f)), ...componentFiles()];
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(basename(path), readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

/** Every declared property of every declaration, in source order. */
export function declarationDocs(files: readonly string[] = declarationFiles()): DeclaredDoc[] {
  const docs: DeclaredDoc[] = [];
  for (const source of files.map(parse)) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const callee = node.expression.text;
        if (callee === "declareResource" || callee === "declareComponent")
          docs.push(...declarationPartDocs(source, node, "resource", "type"));
        if (callee === "declareFunction") docs.push(...declarationPartDocs(source, node, "function", "name"));
        if (callee === "objectType") docs.push(...objectTypeDocs(source, node));
        if (callee === "declareConfig") docs.push(...configDocs(source, node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return docs;
}

/**
 * The doc above each resource class, declared function and named type, by its name in a schema
 * (`Branch`, `getProjects`, `Timeouts`). A resource's doc is its class's.
 */
export function ownerDocs(files: readonly string[] = declarationFiles()): Map<string, string> {
  const docs = new Map<string, string>();
  for (const source of files.map(parse)) {
    for (const statement of source.statements) {
      if (ts.isClassDeclaration(statement) && statement.name !== undefined) {
        const doc = jsDocOf(statement);
        if (doc !== undefined) docs.set(statement.name.text, doc);
      }
      if (!ts.isVariableStatement(statement)) continue;
      for (const variable of statement.declarationList.declarations) {
        const call = variable.initializer;
        if (call === undefined || !ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) continue;
        const doc = jsDocOf(statement);
        const name = declaredName(call);
        if (doc !== undefined && name !== undefined && !docs.has(name)) docs.set(name, doc);
      }
    }
  }
  return docs;
}

/** `Timeouts` of `objectType("Timeouts", ...)` or `enumOf(...)`, `getProjects` of `declareFunction({ name })`. */
function declaredName(call: ts.CallExpression): string | undefined {
  const callee = (call.expression as ts.Identifier).text;
  const [first] = call.arguments;
  if ((callee === "objectType" || callee === "enumOf") && first !== undefined && ts.isStringLiteral(first))
    return first.text;
  if (callee === "declareFunction" && first !== undefined && ts.isObjectLiteralExpression(first)) {
    const name = property(first, "name");
    return name !== undefined && ts.isStringLiteral(name) ? name.text : undefined;
  }
  return undefined;
}

function jsDocOf(node: ts.Node): string | undefined {
  const text = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((c) => ts.getTextOfJSDocComment(c.comment) ?? "")
    .join("\n")
    .trim();
  return text === "" ? undefined : text;
}

/** `declareResource({ type: "Branch", inputs, outputs })` or `declareFunction({ name: "getProjects", inputs, outputs })`. */
function declarationPartDocs(
  source: ts.SourceFile,
  call: ts.CallExpression,
  of: "resource" | "function",
  nameField: "type" | "name",
): DeclaredDoc[] {
  const [declaration] = call.arguments;
  if (declaration === undefined || !ts.isObjectLiteralExpression(declaration)) return [];
  const type = property(declaration, nameField);
  const owner = type !== undefined && ts.isStringLiteral(type) ? type.text : "?";
  return (["inputs", "outputs"] as const).flatMap((part) => {
    const props = property(declaration, part);
    return props !== undefined && ts.isObjectLiteralExpression(props)
      ? docsOf(source, of, owner, part, props)
      : [];
  });
}

/** `objectType("Timeouts", {...})`. */
function objectTypeDocs(source: ts.SourceFile, call: ts.CallExpression): DeclaredDoc[] {
  const [name, props] = call.arguments;
  if (name === undefined || !ts.isStringLiteral(name)) return [];
  if (props === undefined || !ts.isObjectLiteralExpression(props)) return [];
  return docsOf(source, "type", name.text, "properties", props);
}

/** `declareConfig({...})`. */
function configDocs(source: ts.SourceFile, call: ts.CallExpression): DeclaredDoc[] {
  const [props] = call.arguments;
  if (props === undefined || !ts.isObjectLiteralExpression(props)) return [];
  return docsOf(source, "config", "config", "properties", props);
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name) return p.initializer;
  }
  return undefined;
}

function docsOf(
  source: ts.SourceFile,
  of: DeclaredDoc["of"],
  owner: string,
  part: DeclaredDoc["part"],
  props: ts.ObjectLiteralExpression,
): DeclaredDoc[] {
  return props.properties.flatMap((p) => {
    if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return [];
    const line = source.getLineAndCharacterOfPosition(p.getStart(source)).line + 1;
    return [
      {
        of,
        owner,
        part,
        name: p.name.text,
        doc: jsDocOf(p),
        at: `${source.fileName}:${line}`,
      },
    ];
  });
}
