import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SCHEMA } from "./derive-schema";

// Generates the SDKs of the provider plugin from schema.json with Pulumi's own generators (the
// `codegen/python` and `codegen/go` packages of github.com/pulumi/pulumi/pkg/v3, run by
// tools/schema-check): Python in sdk/python (module `pulumi_clouddb`), Go in sdk/go (package
// `clouddb`). Nothing in them is written by hand but sdk/go's go.mod and go.sum.
//
//   npm run derive:schema && npm run derive:sdk      # after changing a declaration
//
// A test generates them again and fails when the committed files differ.

const ROOT = join(__dirname, "..");

/** Where each SDK is committed. */
export const SDK = { python: join(ROOT, "sdk", "python"), go: join(ROOT, "sdk", "go") } as const;

/** Files of an SDK folder the generator does not write (the Go module's own files). */
export const KEPT = new Set(["go.mod", "go.sum"]);

/** Builds tools/schema-check when missing (a few minutes the first time) and returns its path. */
function schemaCheck(): string {
  const tool = join(ROOT, "tools", "schema-check", "build.sh");
  return execFileSync("bash", [tool], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/**
 * Generates both SDKs into a fresh folder (`<dir>/python`, `<dir>/go`): from the committed
 * schema.json, or from `schemaText` (a schema derived in memory) when given.
 */
export function generateSdks(schemaText?: string): { dir: string; python: string; go: string } {
  const dir = mkdtempSync(join(tmpdir(), "clouddb-sdk-"));
  const python = join(dir, "python");
  const go = join(dir, "go");
  let schema = SCHEMA;
  if (schemaText !== undefined) {
    schema = join(dir, "schema.json");
    writeFileSync(schema, schemaText);
  }
  execFileSync(schemaCheck(), [schema, python, go], { stdio: ["ignore", "ignore", "inherit"] });
  return { dir, python, go };
}

/** The generated files under `dir`, as paths relative to it, sorted. */
export function generatedFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !KEPT.has(file) && !file.split("/").includes("__pycache__"))
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
  for (const language of ["python", "go"] as const) {
    for (const file of generatedFiles(SDK[language])) rmSync(join(SDK[language], file));
    cpSync(fresh[language], SDK[language], { recursive: true });
    process.stdout.write(
      `wrote ${relative(ROOT, SDK[language])} (${generatedFiles(SDK[language]).length} files)\n`,
    );
  }
  rmSync(fresh.dir, { recursive: true, force: true });
}
