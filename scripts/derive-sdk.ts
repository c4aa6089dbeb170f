import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SCHEMA } from "./derive-schema";

// Generates the SDKs of the provider plugin from schema.json with Pulumi's own generators (the
// `codegen/python` and `codegen/go` packages of github.com/pulumi/pulumi/pkg/v3, run by
// tools/schema-check): Python in sdk/python (module `pulumi_clouddb`), Go in sdk/go (package
// `clouddb`); and with the Java and .NET languages' own (pulumi-java's `codegen/java` and
// pulumi-dotnet's `codegen`, run by tools/sdk-gen): Java in sdk/java (a Maven project), .NET in
// sdk/dotnet. Nothing in them is written by hand but sdk/go's go.mod and go.sum.
//
//   npm run derive:schema && npm run derive:sdk      # after changing a declaration
//
// A test generates them again and fails when the committed files differ.

const ROOT = join(__dirname, "..");

/** Where each SDK is committed. */
export const SDK = {
  python: join(ROOT, "sdk", "python"),
  go: join(ROOT, "sdk", "go"),
  java: join(ROOT, "sdk", "java"),
  dotnet: join(ROOT, "sdk", "dotnet"),
} as const;

export type SdkLanguage = keyof typeof SDK;

/** Folders a build writes inside an SDK folder, never generated: Maven's and dotnet's outputs. */
const BUILT = new Set(["__pycache__", "target", "bin", "obj"]);

/** The logo the .NET package carries (the schema's logoUrl, read from the repository, not fetched). */
const LOGO = join(ROOT, "docs", "logo.svg");

/** Files of an SDK folder the generator does not write (the Go module's own files). */
export const KEPT = new Set(["go.mod", "go.sum"]);

/** Builds tools/<name> when missing (a few minutes the first time) and returns its binary's path. */
function goTool(name: "schema-check" | "sdk-gen"): string {
  const tool = join(ROOT, "tools", name, "build.sh");
  return execFileSync("bash", [tool], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/**
 * Generates every SDK into a fresh folder (`<dir>/python`, `<dir>/go`, `<dir>/java`,
 * `<dir>/dotnet`): from the committed schema.json, or from `schemaText` (a schema derived in
 * memory) when given.
 */
export function generateSdks(schemaText?: string): { dir: string } & Record<SdkLanguage, string> {
  const dir = mkdtempSync(join(tmpdir(), "clouddb-sdk-"));
  const python = join(dir, "python");
  const go = join(dir, "go");
  const java = join(dir, "java");
  const dotnet = join(dir, "dotnet");
  let schema = SCHEMA;
  if (schemaText !== undefined) {
    schema = join(dir, "schema.json");
    writeFileSync(schema, schemaText);
  }
  execFileSync(goTool("schema-check"), [schema, python, go], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(goTool("sdk-gen"), [schema, LOGO, java, dotnet], { stdio: ["ignore", "ignore", "inherit"] });
  return { dir, python, go, java, dotnet };
}

/** The generated files under `dir`, as paths relative to it, sorted. */
export function generatedFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !KEPT.has(file) && !file.split("/").some((part) => BUILT.has(part)))
    .sort();
}

/** The files that differ between a committed SDK folder and a generated one (missing on either side included). */
export function staleFiles(committed: string, generated: string): string[] {
  const names = [...new Set([...generatedFiles(committed), ...generatedFiles(generated)])].sort();
  return names.filter((name) => {
    const a = join(committed, name);
    const b = join(generated, name);
    return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
  });
}

if (require.main === module) {
  const fresh = generateSdks();
  for (const language of Object.keys(SDK) as SdkLanguage[]) {
    for (const file of generatedFiles(SDK[language])) rmSync(join(SDK[language], file));
    cpSync(fresh[language], SDK[language], { recursive: true });
    process.stdout.write(
      `wrote ${relative(ROOT, SDK[language])} (${generatedFiles(SDK[language]).length} files)\n`,
    );
  }
  rmSync(fresh.dir, { recursive: true, force: true });
}
