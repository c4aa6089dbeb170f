import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { deriveLists } from "../../scripts/derive-lists";

// The lists an export or an import must write out (the package's exports of each kind, the client's
// route modules) are generated from the registry and the folder tree; a committed one that no longer
// matches what `npm run derive:lists` writes fails here, naming the file.

const ROOT = path.join(__dirname, "../..");

describe("the lists derived from the registry and the folder tree", () => {
  for (const [file, text] of deriveLists()) {
    it(`${file} is what \`npm run derive:lists\` writes`, () => {
      assert.equal(
        readFileSync(path.join(ROOT, file), "utf8"),
        text,
        `${file} is stale: run npm run derive:lists and commit it`,
      );
    });
  }
});
