// One version and one identity everywhere: package.json's version is the one written by hand; the
// schema, every SDK and the emulator package carry it, and the schema's download server and
// repository are the ones the Go module path names.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DECLARATIONS, METHODS } from "../../provider/plugin/kinds";
import { GO_MODULE, PLUGIN_DOWNLOAD_URL } from "../../scripts/derive-schema";

const ROOT = path.join(__dirname, "../..");
/** Where the Java SDK's jar carries its version and its plugin (the schema's java basePackage and name). */
const JAVA_RESOURCES = "sdk/java/src/main/resources/io/github/pulumiclouddb/clouddb";
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

describe("the release's versions and identity", () => {
  const version = json("package.json").version as string;

  it("gives package.json's version to the schema, the emulator package and every SDK", () => {
    const found: Record<string, unknown> = {
      "schema.json": json("schema.json").version,
      "emulator/package.json": json("emulator/package.json").version,
      "sdk/python/pyproject.toml": /^\s*version = "([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))?.[1],
      "sdk/python/pulumi_clouddb/pulumi-plugin.json": json("sdk/python/pulumi_clouddb/pulumi-plugin.json")
        .version,
      "sdk/go/clouddb/pulumi-plugin.json": json("sdk/go/clouddb/pulumi-plugin.json").version,
      "sdk/java/pom.xml": /^ {2}<version>([^<]+)<\/version>$/m.exec(read("sdk/java/pom.xml"))?.[1],
      [`${JAVA_RESOURCES}/version.txt`]: read(`${JAVA_RESOURCES}/version.txt`),
      [`${JAVA_RESOURCES}/plugin.json`]: json(`${JAVA_RESOURCES}/plugin.json`).version,
      "sdk/dotnet/PulumiCloudDb.CloudDb.csproj": /<Version>([^<]+)<\/Version>/.exec(
        read("sdk/dotnet/PulumiCloudDb.CloudDb.csproj"),
      )?.[1],
      "sdk/dotnet/version.txt": read("sdk/dotnet/version.txt"),
      "sdk/dotnet/pulumi-plugin.json": json("sdk/dotnet/pulumi-plugin.json").version,
    };
    for (const [file, value] of Object.entries(found)) {
      assert.equal(
        value,
        version,
        `${file} has version ${String(value)}, package.json ${version}: run npm run derive:schema && npm run derive:sdk`,
      );
    }
  });

  it("downloads the plugin from the releases of the repository the Go module path names", () => {
    const schema = json("schema.json");
    const module = /^module (\S+)$/m.exec(read("sdk/go/go.mod"))?.[1];
    assert.equal(module, GO_MODULE);
    const [, owner, repo] = /^github\.com\/([^/]+)\/([^/]+)\/sdk\/go$/.exec(module ?? "") ?? [];
    assert.equal(schema.pluginDownloadURL, `github://api.github.com/${owner}/${repo}`);
    assert.equal(PLUGIN_DOWNLOAD_URL, schema.pluginDownloadURL);
    assert.equal(schema.repository, `https://github.com/${owner}/${repo}`);
    for (const file of [
      "sdk/python/pulumi_clouddb/pulumi-plugin.json",
      "sdk/go/clouddb/pulumi-plugin.json",
    ]) {
      assert.equal(json(file).server, schema.pluginDownloadURL, `${file} names the download server`);
    }
  });

  it("names a logo the repository holds, and a publisher, homepage and package per language", () => {
    const schema = json("schema.json");
    const logo = /\/main\/(.+)$/.exec(String(schema.logoUrl))?.[1];
    assert.ok(
      logo !== undefined && fs.existsSync(path.join(ROOT, logo)),
      `logoUrl ${schema.logoUrl} names no file here`,
    );
    assert.ok(typeof schema.publisher === "string" && schema.publisher !== "");
    assert.ok(String(schema.homepage).startsWith("https://"));
    const language = schema.language as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(language).sort(), ["csharp", "go", "java", "nodejs", "python"]);
    assert.equal(language.nodejs?.packageName, json("package.json").name);
  });

  it("serves each kind from the table its dynamic resource's state code reaches too", () => {
    for (const declaration of DECLARATIONS) {
      const methods = METHODS[declaration.type];
      assert.ok(methods !== undefined, `${declaration.type} has no entry in the plugin's table`);
      assert.equal(typeof methods().create, "function", `${declaration.type}'s methods have no create`);
    }
    assert.deepEqual(Object.keys(METHODS).sort(), DECLARATIONS.map((d) => d.type).sort());
  });
});
