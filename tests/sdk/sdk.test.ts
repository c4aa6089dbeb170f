import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DECLARATIONS } from "../../provider/resources/public/kinds";
import { deriveSchema, functionDeclarations, renderSchema } from "../../scripts/derive-schema";
import { generateSdks, SDK, type SdkLanguage, staleFiles } from "../../scripts/derive-sdk";
import { pythonSdkSite, venvPython } from "../e2e/support/languages";

// sdk/python, sdk/go, sdk/java and sdk/dotnet are generated from schema.json by Pulumi's own
// generators (scripts/derive-sdk.ts). Generating them again must give the committed files byte for byte; the
// Python SDK must install with pip and load; a Go program on the Go SDK must compile.

const ROOT = join(__dirname, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("the generated SDKs", function () {
  // The first run builds tools/schema-check and downloads the Go SDK's modules: minutes.
  this.timeout(20 * 60 * 1000);

  it("are what the generators make from the declarations' schema (else run `npm run derive:sdk`)", () => {
    // From the schema derived now, not the committed file: a changed declaration makes the SDKs
    // stale even before schema.json is derived again.
    const fresh = generateSdks(renderSchema(deriveSchema()));
    try {
      for (const language of Object.keys(SDK) as SdkLanguage[]) {
        const stale = staleFiles(SDK[language], fresh[language]);
        assert.deepEqual(
          stale,
          [],
          `sdk/${language} is stale (files listed): run \`npm run derive:schema && npm run derive:sdk\``,
        );
      }
    } finally {
      rmSync(fresh.dir, { recursive: true, force: true });
    }
  });

  it("install the Python SDK with pip: pulumi_clouddb has every resource and function, at the package's version", () => {
    const site = pythonSdkSite();
    // Each function's snake-case name, and its `_output` form.
    const functions = functionDeclarations().flatMap((f) => {
      const name = f.name.replace(/([A-Z])/g, "_$1").toLowerCase();
      return [name, `${name}_output`];
    });
    const check = [
      "import sys, pulumi_clouddb as c",
      `names = ${JSON.stringify([...DECLARATIONS.map((d) => d.type), "Provider", ...functions])}`,
      "missing = [n for n in names if not hasattr(c, n)]",
      "print(','.join(missing) or 'none', c._utilities.get_version())",
    ].join("\n");
    const run = spawnSync(venvPython(), ["-c", check], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: site },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), `none ${VERSION}`);
  });

  it("compile a Go program on the Go SDK with Go's compiler", () => {
    // `go list -export` compiles the program and every package it imports, as `go build` does, and
    // stops short of linking a binary no one runs (no Go language host here): a type error fails it.
    const run = spawnSync("go", ["list", "-export", "-f", "{{.Export}}", "."], {
      cwd: join(__dirname, "../sdk/go-program"),
      encoding: "utf8",
      env: { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" },
    });
    assert.equal(run.status, 0, `the Go program does not compile:\n${run.stderr}`);
  });
});

describe("the generated Java SDK", function () {
  // The first run fetches com.pulumi:pulumi and Maven's plugins from Maven Central: a minute.
  this.timeout(10 * 60 * 1000);

  it("builds with Maven into a jar with every resource, the package's version and the plugin the engine needs", () => {
    const run = spawnSync("bash", [join(ROOT, "tools/java/install-sdk.sh")], { encoding: "utf8" });
    assert.equal(run.status, 0, `tools/java/install-sdk.sh failed:\n${run.stderr}`);
    const pom = readFileSync(join(SDK.java, "pom.xml"), "utf8");
    assert.match(pom, /<groupId>io\.github\.pulumiclouddb<\/groupId>\s*<artifactId>clouddb<\/artifactId>/);
    const jar = join(run.stdout.trim(), "io/github/pulumiclouddb/clouddb", VERSION, `clouddb-${VERSION}.jar`);
    const list = spawnSync("unzip", ["-Z1", jar], { encoding: "utf8" });
    assert.equal(list.status, 0, `${jar} is not a jar: ${list.stderr}`);
    const classes = [
      "Branch",
      "Project",
      "Endpoint",
      "Role",
      "Database",
      "ApiKey",
      "Provider",
      "ClouddbFunctions",
    ];
    const missing = classes.filter(
      (name) => !list.stdout.includes(`io/github/pulumiclouddb/clouddb/${name}.class`),
    );
    assert.deepEqual(missing, []);
    const read = (file: string) =>
      spawnSync("unzip", ["-p", jar, `io/github/pulumiclouddb/clouddb/${file}`], { encoding: "utf8" }).stdout;
    assert.equal(read("version.txt"), VERSION);
    const plugin = JSON.parse(read("plugin.json")) as Record<string, unknown>;
    const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")) as {
      pluginDownloadURL: string;
    };
    assert.deepEqual(plugin, {
      resource: true,
      name: "clouddb",
      version: VERSION,
      server: schema.pluginDownloadURL,
    });
  });
});
