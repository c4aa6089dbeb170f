import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { lazyProvider } from "../../provider/resources/lifecycle/lazyProvider";

// Pulumi's dynamic-provider host prints a failed call as `${error}: ${error.stack}` and answers the
// engine with `error.message`; this is the line a user reads under the resource.
const hostLine = (e: Error) => `${e}: ${e.stack}`;

describe("the dynamic provider's errors as its host prints them", () => {
  const errors = resolve(__dirname, "../../provider/resources/errors");
  const dir = mkdtempSync(join(tmpdir(), "clouddb-lazy-"));
  const methods = join(dir, "methods.js");
  writeFileSync(
    methods,
    `const { ResourceError } = require(${JSON.stringify(errors)});
const refuse = async () => { throw new ResourceError("DeleteRefused", "branch br-1 is protected: run pulumi up --refresh, then destroy again."); };
module.exports = { configure: refuse, check: refuse, diff: refuse, create: refuse, read: refuse, update: refuse, remove: refuse };`,
  );
  const provider = lazyProvider<Record<string, unknown>, Record<string, unknown>>(methods);

  it("reads as the error's name and message, with no dangling ': ' after it", async () => {
    for (const call of [
      () => provider.check?.({}, {}),
      () => provider.create({}),
      () => provider.delete?.("br-1", {}),
    ]) {
      const err = await Promise.resolve(call()).then(
        () => assert.fail("the call should fail"),
        (e: Error) => e,
      );
      assert.equal(
        hostLine(err),
        "DeleteRefusedError: branch br-1 is protected: run pulumi up --refresh, then destroy again.",
      );
      assert.equal(err.message, "branch br-1 is protected: run pulumi up --refresh, then destroy again.");
    }
  });
});
