import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { ABOVE_FAMILIES, FAMILY_LEVELS, type FamilyLevel } from "../emulator/families/layers";

// Checks the imports of the emulator's families against their levels (emulator/families/layers.ts,
// docs/architecture.md "Imports go one way"): a family imports only families of a lower level and
// none of the layers above the families, directly or through modules outside the folder (type
// imports too); every family file has exactly one level. `npm run lint` runs it after biome.
//
//   ts-node -T scripts/check-family-imports.ts      # prints each broken rule, exits 1 if any

/** The table's file name in the families' folder; it is no family. */
export const TABLE_FILE = "layers.ts";

/** The rules a folder of families is checked against: by default, those of `layers.ts`. */
export interface LayerRules {
  readonly levels: readonly FamilyLevel[];
  readonly above: readonly string[];
}

const RULES: LayerRules = { levels: FAMILY_LEVELS, above: ABOVE_FAMILIES };

/** One relative import of a module: what it names, where it resolves, its line. */
interface Import {
  readonly specifier: string;
  readonly file: string;
  readonly line: number;
}

/** The relative imports of a TypeScript file: `import`, `import type`, `export ... from`, `import()`, `require()`. */
function relativeImports(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const info = ts.preProcessFile(text, true, true);
  const lineOf = (pos: number) => text.slice(0, pos).split("\n").length;
  return info.importedFiles
    .filter((ref) => ref.fileName.startsWith("./") || ref.fileName.startsWith("../"))
    .map((ref) => ({
      specifier: ref.fileName,
      file: resolveModule(file, ref.fileName),
      line: lineOf(ref.pos),
    }));
}

/** The file a relative specifier names, as TypeScript finds it (`x.ts`, `x/index.ts`, `x.json`). */
function resolveModule(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [`${base}.ts`, join(base, "index.ts"), base.replace(/\.js$/, ".ts"), base];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? `${base}.ts`;
}

/** A path under `root` with `/` separators, or undefined when it is outside. */
function under(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  return rel.startsWith("..") || rel === "" ? undefined : rel.split(sep).join("/");
}

/**
 * The problems of the families in `familiesDir` (a folder of the emulator: the layers above are
 * named from its parent), one sentence each naming the file, the import and the rule; none when
 * every import keeps the layering.
 */
export function checkFamilyImports(familiesDir: string, rules: LayerRules = RULES): string[] {
  const folder = basename(familiesDir);
  const table = `${folder}/${TABLE_FILE}`;
  const emulatorDir = dirname(familiesDir);
  const problems: string[] = [];

  const levelOf = new Map<string, number>();
  rules.levels.forEach((level, index) => {
    for (const family of level.families) {
      const earlier = levelOf.get(family);
      if (earlier !== undefined)
        problems.push(`${table} puts ${folder}/${family}.ts at levels ${earlier} and ${index}: give it one`);
      else levelOf.set(family, index);
    }
  });

  const files = readdirSync(familiesDir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== TABLE_FILE)
    .filter((name) => statSync(join(familiesDir, name)).isFile())
    .sort();
  const present = new Set(files.map((name) => name.slice(0, -".ts".length)));
  for (const family of levelOf.keys())
    if (!present.has(family))
      problems.push(`${table} names ${folder}/${family}.ts, which does not exist: remove it from its level`);

  const familyOf = (file: string): string | undefined => {
    const rel = under(familiesDir, file);
    return rel !== undefined && !rel.includes("/") && rel !== TABLE_FILE
      ? rel.replace(/\.ts$/, "")
      : undefined;
  };
  const aboveOf = (file: string): string | undefined => {
    const rel = under(emulatorDir, file);
    if (rel === undefined) return undefined;
    return rules.above.some((entry) => (entry.endsWith("/") ? rel.startsWith(entry) : rel === entry))
      ? rel
      : undefined;
  };
  const aboveRule = `the families sit below ${rules.above.join(", ")} (${table}, docs/architecture.md "Imports go one way"): move the piece it needs down into a primitive below the families, or have the caller above pass it in`;

  for (const name of files) {
    const family = name.slice(0, -".ts".length);
    const level = levelOf.get(family);
    if (level === undefined) {
      problems.push(
        `${folder}/${name} has no level in ${table}: add it to the lowest level above every family it imports (and below every family that imports it)`,
      );
      continue;
    }
    const self = `${folder}/${name} (level ${level})`;
    const reported = new Set<string>();
    const judge = (target: string, imp: Import, via: readonly string[]) => {
      if (reported.has(target)) return;
      const where = `${via.length > 0 ? ` through ${via.join(" -> ")}` : ""} (line ${imp.line}: "${imp.specifier}")`;
      const other = familyOf(target);
      if (other !== undefined) {
        const otherLevel = levelOf.get(other);
        if (otherLevel === undefined || otherLevel < level) return;
        reported.add(target);
        problems.push(
          `${self} imports ${folder}/${other}.ts (level ${otherLevel})${where}: a family may import only a family of a lower level (${table}); move the shared piece down into a lower family or a primitive, or have the caller above pass it in`,
        );
        return;
      }
      const above = aboveOf(target);
      if (above === undefined) return;
      reported.add(target);
      problems.push(`${self} imports ${above}${where}: ${aboveRule}`);
    };

    // A module of the emulator outside the folder is followed through its own imports until they
    // reach a family or a layer above: a family must not get there through it either.
    const seen = new Set<string>();
    const follow = (file: string, origin: Import, via: readonly string[]) => {
      const rel = under(emulatorDir, file);
      if (familyOf(file) !== undefined || aboveOf(file) !== undefined) judge(file, origin, via);
      else if (rel?.endsWith(".ts") && !rel.startsWith(`${folder}/`) && !seen.has(file) && existsSync(file)) {
        seen.add(file);
        for (const imp of relativeImports(file)) follow(imp.file, origin, [...via, rel]);
      }
    };
    for (const imp of relativeImports(join(familiesDir, name))) follow(imp.file, imp, []);
  }
  return problems;
}

if (require.main === module) {
  const familiesDir = join(__dirname, "..", "emulator", "families");
  const problems = checkFamilyImports(familiesDir);
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`${problem}\n`);
    process.stderr.write(`${problems.length} broken rule(s) of emulator/families/${TABLE_FILE}\n`);
    process.exit(1);
  }
  const families = FAMILY_LEVELS.reduce((n, level) => n + level.families.length, 0);
  process.stdout.write(
    `family imports: ${families} families in ${FAMILY_LEVELS.length} levels, each importing only lower ones\n`,
  );
}
