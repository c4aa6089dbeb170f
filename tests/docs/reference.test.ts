// The reference pages of docs/resources/ and docs/functions/, and the list of kinds on the landing
// page docs/_index.md, are derived from schema.json by
// `npm run derive:docs` (scripts/derive-docs.ts); these tests fail when a committed page is stale.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  committedPages,
  deriveDocs,
  FUNCTION_DOCS,
  INDEX_PAGE,
  RESOURCE_DOCS,
} from "../../scripts/derive-docs";
import { EXAMPLE_FILES, KIND_EXAMPLES, resourceDeclarations, SCHEMA } from "../../scripts/derive-schema";
import { ROOT } from "./blocks";

describe("the reference pages generated from schema.json", function () {
  this.timeout(60_000);
  let pages: Map<string, string>;
  before(() => {
    pages = deriveDocs();
  });

  it("each committed page is what `npm run derive:docs` writes (run it after changing a declaration or a notes file)", () => {
    for (const [page, text] of pages) {
      const committed = path.join(ROOT, page);
      assert.ok(fs.existsSync(committed), `${page} is missing: run npm run derive:docs`);
      assert.equal(fs.readFileSync(committed, "utf8"), text, `${page} is stale: run npm run derive:docs`);
    }
  });

  it("no page is left for a kind or function that is gone", () => {
    assert.deepEqual(committedPages().sort(), [...pages.keys()].sort());
  });

  it("the landing page (docs/_index.md) lists every kind of the registry, linked to its page", () => {
    const landing = pages.get(INDEX_PAGE) ?? "";
    const listed = [...landing.matchAll(/^\| \[(\w+)\]\(\.\/resources\/(\w+)\.md\) \|/gm)];
    assert.deepEqual(
      listed.map((m) => m[1]),
      resourceDeclarations().map((kind) => kind.type),
    );
    for (const [, , file] of listed)
      assert.ok(pages.has(`${RESOURCE_DOCS}/${file}.md`), `no page ${file}.md`);
  });

  it("every kind has a page with its inputs, outputs and import, secrets marked", () => {
    for (const kind of resourceDeclarations()) {
      const file = `${RESOURCE_DOCS}/${kind.type.charAt(0).toLowerCase()}${kind.type.slice(1)}.md`;
      const page = pages.get(file) ?? "";
      assert.match(page, /## Inputs/, file);
      for (const input of Object.keys(kind.inputs))
        assert.ok(page.includes(`| \`${input}\``), `${file}: ${input}`);
      for (const [name, output] of Object.entries(kind.outputs)) {
        const row = output.secret === true ? `| \`${name}\` **secret**` : `| \`${name}\` |`;
        assert.ok(page.includes(row), `${file}: ${row}`);
      }
      assert.match(page, /## Import/, file);
    }
  });

  it("every notes file is appended to a page", () => {
    for (const folder of [RESOURCE_DOCS, FUNCTION_DOCS]) {
      for (const note of fs.readdirSync(path.join(ROOT, folder)).filter((f) => f.endsWith(".notes.md"))) {
        const page = `${folder}/${note.replace(".notes.md", ".md")}`;
        const text = fs.readFileSync(path.join(ROOT, folder, note), "utf8").trim();
        assert.ok(pages.get(page)?.includes(text), `${folder}/${note} belongs to no page`);
      }
    }
  });

  it("the schema's descriptions of the main kinds carry docs/examples/<kind>/ in every language, as the registry reads examples", () => {
    const resources = JSON.parse(fs.readFileSync(SCHEMA, "utf8")).resources as Record<
      string,
      { description: string }
    >;
    for (const kind of ["ApiKey", "Branch", "Database", "Endpoint", "Project", "Role"]) {
      const description = resources[`clouddb:index:${kind}`]?.description ?? "";
      assert.match(
        description,
        /\{\{% examples %\}\}[\s\S]*\{\{% example %\}\}[\s\S]*\{\{% \/examples %\}\}/,
        kind,
      );
      for (const [language, file] of Object.entries(EXAMPLE_FILES)) {
        const code = fs.readFileSync(
          path.join(KIND_EXAMPLES, kind.charAt(0).toLowerCase() + kind.slice(1), file),
          "utf8",
        );
        assert.ok(
          description.includes(`\`\`\`${language}\n${code.trimEnd()}\n\`\`\``),
          `${kind}: ${language}`,
        );
      }
    }
  });
});
