/**
 * The code blocks of the registry docs (`docs/_index.md`, `docs/installation-configuration.md`),
 * read back from their Markdown so the tests compile or run exactly what a reader copies.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { EXAMPLE_FILES, KIND_EXAMPLES } from "../../scripts/derive-schema";

/** The repository's root folder. */
export const ROOT = path.resolve(__dirname, "../..");

/** The registry docs whose program examples are compiled or run. */
export const REGISTRY_DOCS = ["docs/_index.md", "docs/installation-configuration.md"] as const;

/** The languages whose blocks are programs; any other fence (`sh`, `xml`) is not compiled. */
export const PROGRAM_LANGUAGES = Object.keys(EXAMPLE_FILES) as (keyof typeof EXAMPLE_FILES)[];
export type ProgramLanguage = keyof typeof EXAMPLE_FILES;

/** One fenced code block: its language, its text and where it starts (`docs/_index.md:42`). */
export interface CodeBlock {
  language: string;
  code: string;
  at: string;
}

/** The fenced blocks of `file` (a path relative to the root), in order. Throws on an unclosed fence. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] ?? "");
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a code block is never closed`);
    blocks.push({ language: open[1] ?? "", code: `${body.join("\n")}\n`, at: `${file}:${start + 1}` });
  }
  return blocks;
}

/**
 * The program blocks of every registry doc in `language`. A YAML block is a program when it is a
 * `Pulumi.yaml` (it names its `runtime`); one that shows a stack's config file or an ESC
 * environment is not.
 */
export function programBlocks(language: ProgramLanguage): CodeBlock[] {
  return REGISTRY_DOCS.flatMap((file) => codeBlocks(file)).filter(
    (b) => b.language === language && (language !== "yaml" || /^runtime:/m.test(b.code)),
  );
}

/** The per-kind examples in `language`, one block per kind folder of `docs/examples/`. */
export function kindExampleBlocks(language: ProgramLanguage): CodeBlock[] {
  return fs
    .readdirSync(KIND_EXAMPLES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(ROOT, path.join(KIND_EXAMPLES, entry.name, EXAMPLE_FILES[language])))
    .map((file) => ({ language, code: fs.readFileSync(path.join(ROOT, file), "utf8"), at: file }));
}

/**
 * The in-repo examples' programs in a language no e2e suite runs here (no Go language host, no
 * `dotnet`), checked as the docs' blocks are: `examples/pull-request-database/` in Go and C#.
 */
export function exampleProgramBlocks(language: ProgramLanguage): CodeBlock[] {
  const files: Partial<Record<ProgramLanguage, string>> = {
    go: "examples/pull-request-database/go/main.go",
    csharp: "examples/pull-request-database/csharp/Program.cs",
  };
  const file = files[language];
  return file === undefined
    ? []
    : [{ language, code: fs.readFileSync(path.join(ROOT, file), "utf8"), at: file }];
}
