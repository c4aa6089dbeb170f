/**
 * The docs of the resource declarations: each input, output and object-type property of
 * `provider/resources/public/*.ts` is documented by the JSDoc on its property, which editors show on
 * hover and the published `.d.ts` keeps. This reads them back with the TypeScript compiler, for
 * whatever needs them as data (a package schema, the test that every property has one).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** One declared property and its doc (undefined when it has none). */
export interface DeclaredDoc {
  /** `Branch` for a resource, `Timeouts` for an object type. */
  owner: string;
  /** `inputs`, `outputs`, or `properties` for an object type. */
  part: "inputs" | "outputs" | "properties";
  name: string;
  doc: string | undefined;
  /** `branch.ts:42`. */
  at: string;
}

/** The folder of the public declarations. */
export const PUBLIC_DIR = join(__dirname, "..", "provider", "resources", "public");

/** Every declared property of every declaration in `dir`, in source order. */
export function declarationDocs(dir: string = PUBLIC_DIR): DeclaredDoc[] {
  const docs: DeclaredDoc[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(dir, file), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const callee = node.expression.text;
        if (callee === "declareResource") docs.push(...resourceDocs(source, node));
        if (callee === "objectType") docs.push(...objectTypeDocs(source, node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return docs;
}

/** `declareResource({ type: "Branch", inputs: {...}, outputs: {...} })`. */
function resourceDocs(source: ts.SourceFile, call: ts.CallExpression): DeclaredDoc[] {
  const [declaration] = call.arguments;
  if (declaration === undefined || !ts.isObjectLiteralExpression(declaration)) return [];
  const type = property(declaration, "type");
  const owner = type !== undefined && ts.isStringLiteral(type) ? type.text : "?";
  return (["inputs", "outputs"] as const).flatMap((part) => {
    const props = property(declaration, part);
    return props !== undefined && ts.isObjectLiteralExpression(props)
      ? docsOf(source, owner, part, props)
      : [];
  });
}

/** `objectType("Timeouts", {...})`. */
function objectTypeDocs(source: ts.SourceFile, call: ts.CallExpression): DeclaredDoc[] {
  const [name, props] = call.arguments;
  if (name === undefined || !ts.isStringLiteral(name)) return [];
  if (props === undefined || !ts.isObjectLiteralExpression(props)) return [];
  return docsOf(source, name.text, "properties", props);
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name) return p.initializer;
  }
  return undefined;
}

function docsOf(
  source: ts.SourceFile,
  owner: string,
  part: DeclaredDoc["part"],
  props: ts.ObjectLiteralExpression,
): DeclaredDoc[] {
  return props.properties.flatMap((p) => {
    if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return [];
    const comments = ts.getJSDocCommentsAndTags(p).filter(ts.isJSDoc);
    const text = comments
      .map((c) => ts.getTextOfJSDocComment(c.comment) ?? "")
      .join("\n")
      .trim();
    const line = source.getLineAndCharacterOfPosition(p.getStart(source)).line + 1;
    return [
      {
        owner,
        part,
        name: p.name.text,
        doc: text === "" ? undefined : text,
        at: `${source.fileName}:${line}`,
      },
    ];
  });
}
