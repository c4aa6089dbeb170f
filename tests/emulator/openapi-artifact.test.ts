import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import {
  ARTIFACT,
  CLIENT_TYPES,
  deriveRequests,
  documentPath,
  EMULATOR_TYPES,
  renderArtifact,
  renderTypes,
} from "../../scripts/derive-openapi";

// The emulator checks requests against emulator/openapi/requests.gen.json, derived from the
// official document, and types its handlers by requests.gen.ts, derived from the same schemas; the
// client types the requests it sends by provider/client/requests.gen.ts, derived from them too.
// Re-deriving them must give the committed files byte for byte.

describe("the request schemas and types derived from the official document", () => {
  it("match the official document (run `npm run derive:openapi` after updating it)", () => {
    const derived = renderArtifact(deriveRequests());
    const committed = readFileSync(ARTIFACT, "utf8");
    assert.ok(derived === committed, "emulator/openapi/requests.gen.json drifted from the document");
  });

  for (const [reader, types] of [
    ["the emulator's handlers", EMULATOR_TYPES],
    ["the client's requests", CLIENT_TYPES],
  ] as const) {
    it(`type ${reader} by the same schemas (run \`npm run derive:openapi\` after updating it)`, () => {
      const derived = renderTypes(deriveRequests(), types);
      const committed = readFileSync(types.path, "utf8");
      assert.ok(derived === committed, `${relative(process.cwd(), types.path)} drifted from the document`);
    });
  }

  it("types a request as its reader gets it: the emulator's with the defaults filled in and the listed values only, the client's as it may send it", () => {
    const derived = deriveRequests();
    const route = /"GET \/projects\/\{project_id\}\/branches": \{[\s\S]*?\n {2}\};/;
    const emulator = renderTypes(derived, EMULATOR_TYPES).match(route)?.[0] ?? "";
    const client = renderTypes(derived, CLIENT_TYPES).match(route)?.[0] ?? "";
    assert.match(emulator, /\n {6}include_deleted: boolean;/);
    assert.match(emulator, /\n {6}sort_order: "asc" \| "desc";/);
    assert.match(client, /\n {6}include_deleted\?: boolean \| undefined;/);
    assert.match(client, /\n {6}sort_order\?: "asc" \| "desc" \| \(string & \{\}\) \| undefined;/);
  });

  it("would notice a changed document: a bound moved in the YAML changes the artifact", () => {
    const text = readFileSync(documentPath(), "utf8");
    const edited = text.replace(/maxLength: 256/g, "maxLength: 255");
    assert.notEqual(edited, text, "the document has the bound this test moves");
    assert.notEqual(renderArtifact(deriveRequests(edited)), readFileSync(ARTIFACT, "utf8"));
  });
});
