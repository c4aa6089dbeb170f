/**
 * What the schema's description of a kind carries besides its declaration's doc: its examples in
 * every language (`docs/examples/<kind>/`) and its hand-written notes (`docs/resources/<kind>.notes.md`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folder of the per-kind examples: `docs/examples/<kind>/`, one program per language. */
export const KIND_EXAMPLES = join(__dirname, "..", "docs", "examples");

/** Each language's example file in a kind's folder, in the order the registry shows them. */
export const EXAMPLE_FILES = {
  typescript: "index.ts",
  python: "__main__.py",
  go: "main.go",
  csharp: "Program.cs",
  java: "App.java",
  yaml: "Pulumi.yaml",
} as const;

/**
 * A kind's examples as the registry and the SDK generators read them from a description: one
 * `{{% example %}}` with a fenced block per language, each generator keeping its own language's.
 * Empty for a kind with no folder in `docs/examples/`.
 */
export function examplesOf(type: string): string {
  const folder = join(KIND_EXAMPLES, type.charAt(0).toLowerCase() + type.slice(1));
  if (!existsSync(folder)) return "";
  const fences = Object.entries(EXAMPLE_FILES).map(([language, file]) => {
    const path = join(folder, file);
    if (!existsSync(path)) throw new Error(`${path} is missing: each example has every language`);
    return `\`\`\`${language}\n${readFileSync(path, "utf8").trimEnd()}\n\`\`\``;
  });
  return `{{% examples %}}\n## Example Usage\n\n{{% example %}}\n### Basic usage\n\n${fences.join("\n")}\n{{% /example %}}\n{{% /examples %}}`;
}

/**
 * A kind's hand-written notes (`docs/resources/<kind>.notes.md`) as a `## Notes` part of its
 * description, so the SDKs' doc comments and the registry's pages carry them; empty without a file.
 */
export function notesOf(type: string): string {
  const path = join(
    __dirname,
    "..",
    "docs",
    "resources",
    `${type.charAt(0).toLowerCase() + type.slice(1)}.notes.md`,
  );
  return existsSync(path) ? `## Notes\n\n${readFileSync(path, "utf8").trim()}` : "";
}
