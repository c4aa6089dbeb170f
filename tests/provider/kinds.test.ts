import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { ROUTE_MODULES } from "../../provider/client/routes";
import { METHODS } from "../../provider/plugin/kinds";
import type { ResourceDeclaration } from "../../provider/resources/public/declare";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { declaredInPublic } from "../../scripts/derive-schema";
import { PROGRAM } from "../fuzz/support/stack";

// The checklist of a resource kind (docs/architecture.md, "Adding a resource kind"), held for every
// kind of the registry: each place that must know a kind is checked here, by the kind's names, so a
// kind left out of one fails naming the kind and the place. Lists that derive from the registry
// (the plugin's kinds and methods, the package's exports, the schema's tokens, the docs' lists of
// kinds, the fuzzer's providers, the class and drift tests) need no line here.

const ROOT = path.join(__dirname, "../..");
/** The family of the kinds that work over SQL on a branch's database rather than through the API. */
const SQL_FAMILY = "sql";
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const exists = (file: string) => existsSync(path.join(ROOT, file));

/** `ProjectVpcEndpoint` -> `projectVpcEndpoint`. */
const camel = (type: string) => type[0]?.toLowerCase() + type.slice(1);
/** `ProjectVpcEndpoint` -> `project_vpc_endpoint`. */
const snake = (type: string) => type.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();
/** `apiKeys` -> `api-keys`. */
const kebab = (name: string) => name.replace(/([A-Z])/g, "-$1").toLowerCase();

/** What the package's entry point exports, values and types, by name (read by the compiler). */
function packageExports(): Set<string> {
  const entry = path.join(ROOT, "provider/index.ts");
  const program = ts.createProgram([entry], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  assert.ok(module, "provider/index.ts is a module");
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.getName()));
}

/** Every place a kind must be named in, with the kind's name it must carry there. */
function missing(kind: ResourceDeclaration, exported: Set<string>): string[] {
  const { type, family } = kind;
  const name = camel(type);
  const gaps: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) gaps.push(what);
  };
  const mentions = (file: string, pattern: RegExp) => pattern.test(read(file));

  // The package: the class, its provider and the types derived from its declaration.
  for (const symbol of [type, `${name}Provider`, `${type}Args`, `${type}Inputs`, `${type}Outputs`]) {
    need(exported.has(symbol), `provider/index.ts exports ${symbol}`);
  }
  // The provider process: the registry's methods module (which the plugin and the state's code share).
  const exportsOf = METHODS[type]?.() as unknown as Record<string, unknown>;
  for (const method of ["configure", "check", "diff", "create", "read", "update", "remove"]) {
    need(typeof exportsOf[method] === "function", `its methods module (public/kinds.ts) exports ${method}`);
  }
  // A kind over SQL (family "sql") works on a branch's database through its compute: it has no API
  // family of its own in the client or the emulator.
  const overApi = family !== SQL_FAMILY;
  if (overApi) {
    // The client: the family's routes, bound by the client, and its response schemas.
    need(exists(`provider/client/api/${family}.ts`), `provider/client/api/${family}.ts`);
    need(
      family in ROUTE_MODULES,
      `provider/client/routes.ts has the route module api/${family} in ROUTE_MODULES`,
    );
    need(exists(`provider/client/schemas/${family}.ts`), `provider/client/schemas/${family}.ts`);
    // The emulator: the family's state changes, its routes and its typed responses.
    for (const folder of ["families", "routes", "render"]) {
      need(exists(`emulator/${folder}/${kebab(family)}.ts`), `emulator/${folder}/${kebab(family)}.ts`);
    }
  }
  // What `npm run derive:schema && npm run derive:sdk && npm run derive:docs` writes.
  need(
    mentions("schema.json", new RegExp(`"clouddb:index:${type}"`)),
    `schema.json has clouddb:index:${type}`,
  );
  need(exists(`sdk/python/pulumi_clouddb/${snake(type)}.py`), `sdk/python/pulumi_clouddb/${snake(type)}.py`);
  need(exists(`sdk/go/clouddb/${name}.go`), `sdk/go/clouddb/${name}.go`);
  need(exists(`sdk/dotnet/${type}.cs`), `sdk/dotnet/${type}.cs`);
  need(
    exists(`sdk/java/src/main/java/io/github/pulumiclouddb/clouddb/${type}.java`),
    `sdk/java/src/main/java/io/github/pulumiclouddb/clouddb/${type}.java`,
  );
  need(exists(`docs/resources/${name}.md`), `docs/resources/${name}.md`);
  need(
    mentions("docs/resources/README.md", new RegExp(`\\(\\./${name}\\.md\\)`)),
    `docs/resources/README.md links ${name}.md`,
  );
  // The prose a user reads: the changelog, the API's rules it relies on.
  need(mentions("CHANGELOG.md", new RegExp(`\\b${type}\\b`)), `CHANGELOG.md names ${type}`);
  need(
    mentions("docs/api-rules.md", new RegExp(`\`${type}\``)),
    `docs/api-rules.md names \`${type}\` where its rules are`,
  );
  // Tests: its behaviour against the emulator, and the fuzzer's program.
  const providerTests = readdirSync(path.join(ROOT, "tests/provider")).filter((f) => f.endsWith(".test.ts"));
  const uses = new RegExp(`\\b(${name}Definition|${name}Provider|new ${type}\\()`);
  need(
    providerTests.some((f) => f !== "classes.test.ts" && mentions(`tests/provider/${f}`, uses)),
    `a tests/provider suite runs ${type}'s definition against the emulator`,
  );
  // The fuzzer's emulator runs without Postgres: a kind over SQL is fuzzed by its own suite's rows.
  need(
    !overApi || PROGRAM.some((spec) => spec.kind === type),
    `the fuzzer's program (PROGRAM in tests/fuzz/support/stack.ts) has a ${type}`,
  );
  return gaps;
}

describe("the registry of resource kinds, and each kind's checklist", () => {
  it("holds every kind `public/` declares, each once", () => {
    const types = DECLARATIONS.map((d) => d.type);
    assert.equal(new Set(types).size, types.length, `a kind is in DECLARATIONS twice: ${types}`);
    assert.deepEqual(
      declaredInPublic().map((d) => d.type),
      [...types].sort(),
      "each declaration of provider/resources/public/ is in DECLARATIONS (provider/resources/public/kinds.ts)",
    );
  });

  it("has no type name or noun twice", () => {
    for (const field of ["type", "noun"] as const) {
      const values = DECLARATIONS.map((d) => d[field]);
      assert.equal(new Set(values).size, values.length, `${field} repeats: ${values}`);
    }
  });

  const exported = packageExports();
  for (const kind of DECLARATIONS) {
    it(`${kind.type}: named everywhere a kind must be (package, plugin, client, emulator, schema, SDKs, docs, tests)`, () => {
      assert.deepEqual(missing(kind, exported), [], `${kind.type} is missing from these`);
    });
  }
});
