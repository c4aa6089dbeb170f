import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ABOVE_FAMILIES, FAMILY_LEVELS } from "../../emulator/families/layers";
import { checkFamilyImports, type LayerRules } from "../../scripts/check-family-imports";

// The families of the emulator each have a level (emulator/families/layers.ts) and import only
// lower ones; `npm run lint` runs the check. Here it runs on the real tree, and on small trees
// written for each rule it must refuse.

const ROOT = join(__dirname, "..", "..");
const FAMILIES = join(ROOT, "emulator", "families");

/** The rules of the small trees: `low` below `high`, `mid` beside `low`. */
const RULES: LayerRules = {
  levels: [
    { why: "the bottom", families: ["low", "mid"] },
    { why: "above it", families: ["high"] },
  ],
  above: ["render/", "server.ts"],
};

describe("family layers: which emulator family may import which", () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "family-layers-"));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  /** Writes an emulator's files (paths under it) and returns its families' folder. */
  function tree(files: Record<string, string>): string {
    const all: Record<string, string> = {
      "families/low.ts": "export const low = 1;\n",
      "families/mid.ts": "export const mid = 1;\n",
      "families/high.ts": 'import { low } from "./low";\nexport const high = low + 1;\n',
      "families/layers.ts": "export const TABLE = 1;\n",
      "records.ts": "export interface Rec { id: string }\n",
      "render/view.ts": "export const view = 1;\n",
      "server.ts": "export const server = 1;\n",
      ...files,
    };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    return join(work, "families");
  }

  it("finds no broken rule in the emulator's own families", () => {
    assert.deepEqual(checkFamilyImports(FAMILIES), []);
  });

  it("gives each family one level, and each level a reason", () => {
    const named = FAMILY_LEVELS.flatMap((level) => level.families);
    assert.equal(new Set(named).size, named.length);
    for (const level of FAMILY_LEVELS) assert.ok(level.why.length > 0 && level.families.length > 0);
  });

  it("passes a small tree whose families import only lower ones, through other modules too", () => {
    const families = tree({
      "helper.ts":
        'import type { Rec } from "./records";\nimport { low } from "./families/low";\nexport const helper = (r: Rec) => r.id + low;\n',
      "families/high.ts":
        'import { helper } from "../helper";\nimport { low } from "./low";\nexport { helper, low };\n',
    });
    assert.deepEqual(checkFamilyImports(families, RULES), []);
  });

  it("refuses a low family importing a higher one, naming both, their levels, the line and the rule", () => {
    const families = tree({
      "families/low.ts":
        'import type { Rec } from "../records";\nimport { high } from "./high";\nexport const low = (r: Rec) => high;\n',
    });
    assert.deepEqual(checkFamilyImports(families, RULES), [
      'families/low.ts (level 0) imports families/high.ts (level 1) (line 2: "./high"): a family may import only a family of a lower level (families/layers.ts); move the shared piece down into a lower family or a primitive, or have the caller above pass it in',
    ]);
  });

  it("refuses a family importing one of its own level, a type import and an export from included", () => {
    const families = tree({
      "families/low.ts": 'export type { Mid } from "./mid";\nexport const low = 1;\n',
      "families/mid.ts": 'import type { Low } from "./low";\nexport type Mid = Low;\n',
    });
    const problems = checkFamilyImports(families, RULES);
    assert.equal(problems.length, 2);
    assert.match(
      problems[0]!,
      /^families\/low\.ts \(level 0\) imports families\/mid\.ts \(level 0\) \(line 1: "\.\/mid"\)/,
    );
    assert.match(
      problems[1]!,
      /^families\/mid\.ts \(level 0\) imports families\/low\.ts \(level 0\) \(line 1: "\.\/low"\)/,
    );
  });

  it("refuses a low family reaching a higher one through a module outside the folder", () => {
    const families = tree({
      "helper.ts": 'export { high } from "./families/high";\n',
      "families/low.ts": 'import { high } from "../helper";\nexport const low = high;\n',
      "families/high.ts": "export const high = 1;\n",
    });
    assert.deepEqual(checkFamilyImports(families, RULES), [
      'families/low.ts (level 0) imports families/high.ts (level 1) through helper.ts (line 1: "../helper"): a family may import only a family of a lower level (families/layers.ts); move the shared piece down into a lower family or a primitive, or have the caller above pass it in',
    ]);
  });

  it("refuses a family importing a layer above the families, a folder or a file", () => {
    const families = tree({
      "families/high.ts":
        'import { view } from "../render/view";\nimport type { server } from "../server";\nexport const high = view;\n',
    });
    const rule =
      'the families sit below render/, server.ts (families/layers.ts, docs/architecture.md "Imports go one way"): move the piece it needs down into a primitive below the families, or have the caller above pass it in';
    assert.deepEqual(checkFamilyImports(families, RULES), [
      `families/high.ts (level 1) imports render/view.ts (line 1: "../render/view"): ${rule}`,
      `families/high.ts (level 1) imports server.ts (line 2: "../server"): ${rule}`,
    ]);
  });

  it("refuses a family file the table gives no level, and a level naming a file that is gone", () => {
    const families = tree({ "families/extra.ts": "export const extra = 1;\n" });
    const rules: LayerRules = { ...RULES, levels: [...RULES.levels, { why: "gone", families: ["gone"] }] };
    assert.deepEqual(checkFamilyImports(families, rules), [
      "families/layers.ts names families/gone.ts, which does not exist: remove it from its level",
      "families/extra.ts has no level in families/layers.ts: add it to the lowest level above every family it imports (and below every family that imports it)",
    ]);
  });

  it("is run by npm run lint, and the architecture doc states the rule, points to the table and names the layers above", () => {
    const lint: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.lint;
    assert.match(lint, /scripts\/check-family-imports\.ts/);
    const doc = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
    const paragraph = doc.slice(
      doc.indexOf("Imports go one way"),
      doc.indexOf("\n\n", doc.indexOf("Imports go one way")),
    );
    assert.match(paragraph, /`emulator\/families\/layers\.ts`/);
    for (const above of ABOVE_FAMILIES)
      assert.ok(paragraph.includes(`\`${above}\``), `the paragraph names \`${above}\``);
  });
});
