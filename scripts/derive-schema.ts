import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DECLARATIONS, PACKAGE, token } from "../provider/plugin/kinds";
import { CONFIG } from "../provider/resources/public/config";
import { examplesOf, notesOf } from "./kind-docs";

export { EXAMPLE_FILES, KIND_EXAMPLES } from "./kind-docs";
export { PACKAGE, token };

import type {
  ComponentDeclaration,
  EnumType,
  FunctionDeclaration,
  ObjectType,
  Output,
  ResourceDeclaration,
  Setting,
  Type,
} from "../provider/resources/public/declare";
import { importIdShape } from "../provider/resources/public/declare";
import { deprecationMessages } from "../provider/resources/public/deprecatedInputs";
import {
  componentFiles,
  DATA_DIR,
  type DeclaredDoc,
  declarationDocs,
  FUNCTION_FILES,
  ownerDocs,
  PUBLIC_DIR,
} from "./declaration-docs";

// Derives `schema.json`, the Pulumi package schema of the provider plugin, from the declarations:
// every resource kind of the registry (`provider/resources/public/kinds.ts`), every function of `provider/data/declared.ts`
// and the settings of `provider/resources/public/config.ts`, each property with its JSDoc. Nothing in
// the schema is written by hand but the package's identity and its language sections below.
//
//   npm run derive:schema          # rewrites schema.json
//
// A test re-derives it and fails when the committed file no longer matches the declarations.

/** The repository on GitHub, as its owner and name: the Go module path, the releases the engine downloads the plugin from. */
export const REPOSITORY = { owner: "pulumi-clouddb", name: "pulumi-clouddb" } as const;
const GITHUB = `github.com/${REPOSITORY.owner}/${REPOSITORY.name}`;
/** The Go module of the SDK in `sdk/go` (a module of its own: its release tag is `sdk/go/v<version>`). */
export const GO_MODULE = `${GITHUB}/sdk/go`;
/** The Go package the SDK generated into `sdk/go/clouddb` is imported as. */
export const GO_IMPORT_BASE_PATH = `${GO_MODULE}/clouddb`;
/**
 * Where the engine downloads the plugin from when a program needs it: the repository's GitHub
 * releases, whose assets are the archives `npm run release` writes.
 */
export const PLUGIN_DOWNLOAD_URL = `github://api.${GITHUB}`;
/** The Python package of the SDK generated into `sdk/python`. */
export const PYTHON_PACKAGE = "pulumi_clouddb";
/** The Java package the Java SDK's classes are under (`io.github.pulumiclouddb.clouddb`). */
export const JAVA_BASE_PACKAGE = "io.github.pulumiclouddb";
/** The .NET namespace the C# SDK's classes are under (`PulumiCloudDb.CloudDb`). */
export const CSHARP_ROOT_NAMESPACE = "PulumiCloudDb";

type Json = Record<string, unknown>;

/** The resource kinds of the registry, by type name. */
export function resourceDeclarations(): ResourceDeclaration[] {
  return [...DECLARATIONS].sort((a, b) => a.type.localeCompare(b.type));
}

/**
 * Every resource declaration the modules of `public/` export, by type name: what the registry must
 * hold (`tests/provider/kinds.test.ts`).
 */
export function declaredInPublic(): ResourceDeclaration[] {
  return declarationsIn(
    readdirSync(PUBLIC_DIR)
      .filter((f) => f.endsWith(".ts"))
      .sort()
      .map((f) => join(PUBLIC_DIR, f)),
    (value): value is ResourceDeclaration =>
      isDeclaration(value) && typeof value["type"] === "string" && typeof value["noun"] === "string",
  ).sort((a, b) => a.type.localeCompare(b.type));
}

/** The component declarations of `provider/components/` (`declareComponent`), by type name. */
export function componentDeclarations(): ComponentDeclaration[] {
  return declarationsIn(
    componentFiles(),
    (value): value is ComponentDeclaration =>
      isDeclaration(value) && typeof value["type"] === "string" && !("noun" in value),
  ).sort((a, b) => a.type.localeCompare(b.type));
}

/** The function declarations of `provider/data/`, by name. */
export function functionDeclarations(): FunctionDeclaration[] {
  return declarationsIn(
    FUNCTION_FILES.map((f) => join(DATA_DIR, f)),
    (value): value is FunctionDeclaration => isDeclaration(value) && typeof value["name"] === "string",
  ).sort((a, b) => a.name.localeCompare(b.name));
}

function isDeclaration(value: unknown): value is Json {
  return typeof value === "object" && value !== null && "inputs" in value && "outputs" in value;
}

function declarationsIn<D>(files: string[], is: (value: unknown) => value is D): D[] {
  return files.flatMap((file) => Object.values(require(file) as Json).filter(is));
}

/** Reads the docs once; `of` fails naming the property that has none. */
class Docs {
  private readonly properties = new Map<string, string | undefined>();
  private readonly owners = ownerDocs();

  constructor(docs: DeclaredDoc[] = declarationDocs()) {
    for (const d of docs)
      this.properties.set(`${d.of}:${d.owner}:${d.part}:${d.name}`, d.doc && paragraphs(d.doc));
  }

  of(of: DeclaredDoc["of"], owner: string, part: DeclaredDoc["part"], name: string): string {
    const doc = this.properties.get(`${of}:${owner}:${part}:${name}`);
    if (doc === undefined)
      throw new Error(`${owner}.${part}.${name} has no JSDoc: document it in its declaration`);
    return doc;
  }

  /** The doc above a class, function or named type; none is allowed for a type. */
  owner(name: string): string | undefined {
    const doc = this.owners.get(name);
    return doc && paragraphs(doc);
  }
}

/** A doc's paragraphs, each on one line: the line breaks of a JSDoc are the source's, not the text's. */
function paragraphs(doc: string): string {
  return doc
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

/** Collects the named types (objects and enums) the properties refer to. */
class Types {
  readonly specs = new Map<string, Json>();
  private readonly declared = new Map<string, EnumType | ObjectType>();

  constructor(private readonly docs: Docs) {}

  /** The schema type of `type`; a named type is added to `types` and referred to. */
  spec(type: Type): Json {
    if ("oneOf" in type) return { oneOf: type.oneOf.map((t) => this.spec(t)) };
    if (type.type === "array") return { type: "array", items: this.spec(type.items) };
    if (type.type === "map") return { type: "object", additionalProperties: this.spec(type.values) };
    if ("name" in type) {
      this.define(type.name, type);
      return { $ref: `#/types/${token(type.name)}` };
    }
    return { type: type.type };
  }

  private define(name: string, type: EnumType | ObjectType): void {
    const earlier = this.declared.get(name);
    if (earlier !== undefined) {
      if (earlier !== type) throw new Error(`two declared types are named ${name}: rename one`);
      return;
    }
    this.declared.set(name, type);
    const description = this.docs.owner(name);
    const about = description === undefined ? {} : { description };
    if ("enum" in type) {
      this.specs.set(token(name), {
        ...about,
        type: "string",
        enum: type.enum.map((value) => ({ value })),
      });
      return;
    }
    const spec: Json = { ...about, type: "object" };
    this.specs.set(token(name), spec);
    spec["properties"] = mapValues(type.properties, (property, key) => ({
      ...this.spec(property.type),
      description: this.docs.of("type", name, "properties", key),
    }));
    const required = presentAlways(type.properties);
    if (required.length > 0) spec["required"] = required;
  }
}

/** Names of the properties always present: neither `optional` nor `nullable`. */
function presentAlways(properties: { readonly [name: string]: Output }): string[] {
  return Object.keys(properties).filter((key) => {
    const p = properties[key];
    return p !== undefined && p.optional !== true && p.nullable !== true;
  });
}

/** `outputs` without their `secret` marks. */
function notMarkedSecret(outputs: { readonly [name: string]: Output }): { [name: string]: Output } {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, { secret: _, ...output }]) => [name, output]),
  );
}

function mapValues<V>(record: { readonly [name: string]: V }, f: (value: V, key: string) => Json): Json {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value, key)]));
}

function secret(declared: { readonly secret?: true }): Json {
  return declared.secret === true ? { secret: true } : {};
}

function sorted(record: Map<string, Json>): Json {
  return Object.fromEntries([...record.keys()].sort().map((key) => [key, record.get(key)]));
}

/** The package schema, derived (deterministic: same declarations, same schema). */
export function deriveSchema(): Json {
  const docs = new Docs();
  const types = new Types(docs);
  /** The schema properties of declared inputs, outputs or settings: type, doc, and secret when one is. */
  const properties = (
    of: DeclaredDoc["of"],
    owner: string,
    part: DeclaredDoc["part"],
    declared: { readonly [name: string]: { readonly type: Type; readonly secret?: true } },
  ): Json =>
    mapValues(declared, (property, name) => ({
      ...types.spec(property.type),
      description: docs.of(of, owner, part, name),
      ...secret(property),
    }));
  const requiredOf = (inputs: { readonly [name: string]: { readonly required?: true } }): Json => {
    const required = Object.keys(inputs).filter((name) => inputs[name]?.required === true);
    return required.length > 0 ? { required } : {};
  };
  const describedBy = (name: string): Json => {
    const description = docs.owner(name);
    return description === undefined ? {} : { description };
  };

  const resources = new Map<string, Json>();
  for (const kind of resourceDeclarations()) {
    const inputs = properties("resource", kind.type, "inputs", kind.inputs);
    for (const [name, input] of Object.entries(kind.inputs)) {
      if (input.change === "replace")
        inputs[name] = { ...(inputs[name] as Json), willReplaceOnChanges: true };
    }
    for (const [name, message] of Object.entries(deprecationMessages(kind.type)))
      inputs[name] = { ...(inputs[name] as Json), deprecationMessage: message };
    const { required: requiredInputs } = requiredOf(kind.inputs);
    const imported =
      kind.importId === undefined
        ? `${kind.type} resources cannot be imported: what one holds is returned only when it is created.`
        : `Import an existing one by its id, \`${importIdShape(kind.type, kind.importId)}\`:\n\n` +
          `\`\`\`sh\n$ pulumi import ${token(kind.type)} <name> ${importIdShape(kind.type, kind.importId)}\n\`\`\``;
    const about = [
      describedBy(kind.type).description ?? "",
      examplesOf(kind.type),
      notesOf(kind.type),
    ].filter((p) => p !== "");
    resources.set(token(kind.type), {
      description: [...about, `## Import\n\n${imported}`].join("\n\n"),
      properties: properties("resource", kind.type, "outputs", kind.outputs),
      required: presentAlways(kind.outputs),
      inputProperties: inputs,
      ...(requiredInputs === undefined ? {} : { requiredInputs }),
    });
  }

  // A component is made by the plugin's `Construct`: the SDKs' classes ask the engine for it. Its
  // secret outputs are secrets as `Construct` returns them, so the schema does not mark them (Java's
  // generator would give the component an option only custom resources have).
  for (const component of componentDeclarations()) {
    const about = [describedBy(component.type).description ?? "", notesOf(component.type)].filter(
      (p) => p !== "",
    );
    resources.set(token(component.type), {
      isComponent: true,
      description: about.join("\n\n"),
      properties: properties("resource", component.type, "outputs", notMarkedSecret(component.outputs)),
      required: presentAlways(component.outputs),
      inputProperties: properties("resource", component.type, "inputs", component.inputs),
      requiredInputs: requiredOf(component.inputs).required ?? [],
    });
  }

  const functions = new Map<string, Json>();
  for (const fn of functionDeclarations()) {
    functions.set(token(fn.name), {
      ...describedBy(fn.name),
      inputs: { properties: properties("function", fn.name, "inputs", fn.inputs), ...requiredOf(fn.inputs) },
      outputs: {
        properties: properties("function", fn.name, "outputs", fn.outputs),
        required: presentAlways(fn.outputs),
      },
    });
  }

  const settings = properties("config", "config", "properties", CONFIG as { [name: string]: Setting });

  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as Json;
  return {
    name: PACKAGE,
    displayName: "Cloud Database",
    version: pkg["version"],
    description:
      "Projects, branches, computes, roles, databases and API keys of the Cloud Database Control API v2.",
    keywords: ["pulumi", PACKAGE, "postgres", "category/database", "kind/native"],
    license: pkg["license"],
    publisher: REPOSITORY.owner,
    repository: `https://${GITHUB}`,
    homepage: `https://${GITHUB}`,
    logoUrl: `https://raw.githubusercontent.com/${REPOSITORY.owner}/${REPOSITORY.name}/main/docs/logo.svg`,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    config: { variables: settings },
    provider: {
      description: "The provider of the `clouddb` resources: one account's API key and URL.",
      inputProperties: settings,
    },
    resources: sorted(resources),
    functions: sorted(functions),
    types: sorted(types.specs),
    language: {
      nodejs: {
        packageName: pkg["name"],
        packageDescription: pkg["description"],
        respectSchemaVersion: true,
      },
      python: {
        packageName: PYTHON_PACKAGE,
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: GO_IMPORT_BASE_PATH,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      java: {
        basePackage: JAVA_BASE_PACKAGE,
        dependencies: { "com.pulumi:pulumi": "1.16.0" },
      },
      csharp: {
        rootNamespace: CSHARP_ROOT_NAMESPACE,
        namespaces: { [PACKAGE]: "CloudDb" },
        packageReferences: { Pulumi: "3.*" },
        respectSchemaVersion: true,
      },
    },
  };
}

/** The schema's path in the repository. */
export const SCHEMA = join(__dirname, "..", "schema.json");

/** The schema's exact text. */
export function renderSchema(schema: Json): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (require.main === module) {
  const text = renderSchema(deriveSchema());
  writeFileSync(SCHEMA, text);
  process.stdout.write(`wrote ${SCHEMA} (${text.length} bytes)\n`);
}
