import assert from "node:assert/strict";
import { assertSupportedNode } from "../../provider/client/node-version";

describe("the Node.js version check", () => {
  it("passes on this Node.js, which can require() an ES module", () => {
    assert.doesNotThrow(() => assertSupportedNode());
  });

  it("refuses a Node.js that cannot require() an ES module, naming the version found and what to install", () => {
    assert.throws(
      () => assertSupportedNode("22.11.0", false),
      /needs Node\.js 22\.12 or newer; this is Node\.js 22\.11\.0, which cannot require\(\) an ES module .*Install a current Node\.js/,
    );
  });
});
