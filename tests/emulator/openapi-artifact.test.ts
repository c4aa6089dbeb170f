import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  ARTIFACT,
  deriveRequests,
  documentPath,
  renderArtifact,
  renderTypes,
  TYPES_ARTIFACT,
} from "../../scripts/derive-openapi";

// The emulator checks requests against emulator/openapi/requests.gen.json, derived from the
// official document, and types its handlers by requests.gen.ts, derived from the same schemas.
// Re-deriving them must give the committed files byte for byte.

describe("the request schemas the emulator ships", () => {
  it("match the official document (run `npm run derive:openapi` after updating it)", () => {
    const derived = renderArtifact(deriveRequests());
    const committed = readFileSync(ARTIFACT, "utf8");
    assert.ok(derived === committed, "emulator/openapi/requests.gen.json drifted from the document");
  });

  it("type the handlers by the same schemas (run `npm run derive:openapi` after updating it)", () => {
    const derived = renderTypes(deriveRequests());
    const committed = readFileSync(TYPES_ARTIFACT, "utf8");
    assert.ok(derived === committed, "emulator/openapi/requests.gen.ts drifted from the document");
  });

  it("would notice a changed document: a bound moved in the YAML changes the artifact", () => {
    const text = readFileSync(documentPath(), "utf8");
    const edited = text.replace(/maxLength: 256/g, "maxLength: 255");
    assert.notEqual(edited, text, "the document has the bound this test moves");
    assert.notEqual(renderArtifact(deriveRequests(edited)), readFileSync(ARTIFACT, "utf8"));
  });
});
