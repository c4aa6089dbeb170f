import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIG } from "../../provider/resources/public/config";
import { changesOf, secretsOf } from "../../provider/resources/public/declare";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { declarationDocs } from "../../scripts/declaration-docs";
import {
  componentDeclarations,
  deriveSchema,
  functionDeclarations,
  renderSchema,
  resourceDeclarations,
  SCHEMA,
  token,
} from "../../scripts/derive-schema";

// schema.json, the package schema of the provider plugin, is derived from the declarations
// (scripts/derive-schema.ts). Re-deriving it must give the committed file byte for byte, and
// Pulumi's own schema binder and SDK generators must accept it.

const schema = deriveSchema();

/** The value at `path` in the schema (undefined when any step is missing). */
function at(...path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], schema);
}

/** The names of the object at `path`. */
function keysAt(...path: string[]): string[] {
  return Object.keys((at(...path) as object | undefined) ?? {});
}

describe("the package schema", () => {
  it("is the committed schema.json (run `npm run derive:schema` after changing a declaration)", () => {
    assert.ok(
      renderSchema(schema) === readFileSync(SCHEMA, "utf8"),
      "schema.json drifted from the declarations",
    );
  });

  it("has every resource kind, component and data source under a clouddb:index token", () => {
    const resources = [...DECLARATIONS, ...componentDeclarations()].map((d) => token(d.type)).sort();
    assert.deepEqual(keysAt("resources"), resources);
    assert.deepEqual(keysAt("functions"), [
      "clouddb:index:getAdvisors",
      "clouddb:index:getAiGateway",
      "clouddb:index:getApiKeys",
      "clouddb:index:getBranch",
      "clouddb:index:getBranches",
      "clouddb:index:getBuckets",
      "clouddb:index:getConnectionUri",
      "clouddb:index:getConsumption",
      "clouddb:index:getDatabase",
      "clouddb:index:getDatabases",
      "clouddb:index:getEndpoint",
      "clouddb:index:getEndpoints",
      "clouddb:index:getFunctions",
      "clouddb:index:getOperation",
      "clouddb:index:getOperations",
      "clouddb:index:getOrganizationInvitations",
      "clouddb:index:getOrganizationMembers",
      "clouddb:index:getPreloadLibraries",
      "clouddb:index:getProject",
      "clouddb:index:getProjects",
      "clouddb:index:getRegions",
      "clouddb:index:getRole",
      "clouddb:index:getRolePassword",
      "clouddb:index:getRoles",
      "clouddb:index:getSchemaDiff",
      "clouddb:index:getSnapshots",
      "clouddb:index:getVpcEndpoints",
    ]);
  });

  it("marks as secret exactly the outputs each kind declares secret", () => {
    for (const kind of resourceDeclarations()) {
      const properties = ["resources", token(kind.type), "properties"];
      const secret = keysAt(...properties).filter((name) => at(...properties, name, "secret") === true);
      assert.deepEqual(secret, secretsOf(kind), kind.type);
    }
    assert.equal(at("resources", "clouddb:index:Role", "properties", "password", "secret"), true);
  });

  it("marks an input to replace on changes exactly when its declared change is replace", () => {
    for (const kind of resourceDeclarations()) {
      const inputs = ["resources", token(kind.type), "inputProperties"];
      const replacing = Object.entries(changesOf(kind))
        .filter(([, change]) => change === "replace")
        .map(([name]) => name);
      const marked = keysAt(...inputs).filter((name) => at(...inputs, name, "willReplaceOnChanges") === true);
      assert.deepEqual(marked, replacing, kind.type);
    }
  });

  it("requires the required inputs, and lists as always present the outputs neither optional nor nullable", () => {
    assert.deepEqual(at("resources", "clouddb:index:Branch", "requiredInputs"), ["projectId"]);
    const required = at("resources", "clouddb:index:Branch", "required") as string[];
    assert.ok(required.includes("branchId") && required.includes("connectionUri"), required.join(", "));
    assert.ok(!required.includes("parentId"), "a nullable output is not always present");
    assert.ok(!required.includes("deleteProtection"), "an optional output is not always present");
  });

  it("carries each declared property's JSDoc as its description", () => {
    const docs = declarationDocs();
    for (const d of docs) {
      const section =
        d.of === "resource"
          ? ["resources", token(d.owner), d.part === "inputs" ? "inputProperties" : "properties"]
          : d.of === "function"
            ? ["functions", token(d.owner), d.part, "properties"]
            : d.of === "type"
              ? ["types", token(d.owner), "properties"]
              : ["config", "variables"];
      const description = at(...section, d.name, "description");
      assert.equal(description, d.doc?.replace(/\s*\n\s*/g, " "), `${d.owner}.${d.part}.${d.name} (${d.at})`);
    }
    assert.ok(docs.filter((d) => d.of === "function").length >= 4);
  });

  it("declares the provider's configuration: each clouddb: setting, the API key a secret", () => {
    assert.deepEqual(keysAt("config", "variables"), Object.keys(CONFIG));
    assert.deepEqual(keysAt("config", "variables"), [
      "apiKey",
      "apiUrl",
      "operationTimeoutSeconds",
      "limiterUrl",
      "limiterAccount",
    ]);
    assert.equal(at("config", "variables", "apiKey", "secret"), true);
    assert.equal(at("config", "variables", "apiUrl", "secret"), undefined);
    assert.deepEqual(at("provider", "inputProperties"), at("config", "variables"));
  });

  it("returns a connection string from getConnectionUri as a secret", () => {
    const fn = functionDeclarations().find((f) => f.name === "getConnectionUri");
    assert.equal(fn?.outputs["uri"]?.secret, true);
    assert.equal(
      at("functions", "clouddb:index:getConnectionUri", "outputs", "properties", "uri", "secret"),
      true,
    );
  });
});

describe("Pulumi's own rules for a package schema (tools/schema-check)", function () {
  // The first build compiles Pulumi's codegen modules: minutes on a small machine.
  this.timeout(20 * 60 * 1000);
  let checker: string;
  let dir: string;

  before(() => {
    checker = execFileSync("bash", [join(__dirname, "../../tools/schema-check/build.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    dir = mkdtempSync(join(tmpdir(), "schema-check-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("accept schema.json: it binds, and the Python and Go SDKs generate from it", () => {
    const run = spawnSync(checker, [SCHEMA], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const counts = [
      resourceDeclarations().length + componentDeclarations().length,
      functionDeclarations().length,
      Object.keys(CONFIG).length,
    ];
    const bound = `package clouddb binds with ${counts[0]} resources, ${counts[1]} functions, ${counts[2]} config entries`;
    assert.ok(run.stdout.includes(bound), run.stdout);
    assert.match(run.stdout, /generates \d+ Python and \d+ Go files/);
  });

  it("refuse a schema with a type Pulumi does not know, naming where it is", () => {
    const text = renderSchema(schema);
    const broken = text.replace(
      '"type": "string",\n          "description": "Branch name',
      '"type": "text",\n          "description": "Branch name',
    );
    assert.notEqual(broken, text, "the schema has the property this test breaks");
    const path = join(dir, "broken.json");
    writeFileSync(path, broken);
    const run = spawnSync(checker, [path], { encoding: "utf8" });
    assert.equal(run.status, 1, run.stdout);
    assert.match(
      run.stderr,
      /error: #\/resources\/clouddb:index:Branch\/inputProperties\/name\/type: unknown type kind text/,
    );
  });
});
