import * as assert from "node:assert/strict";
import { ResourceError } from "../../provider/resources/errors";
import { forHost } from "../../provider/resources/lifecycle/lazyProvider";

// Pulumi's dynamic-provider host prints a failed call as `${error}: ${error.stack}` and answers the
// engine with `error.message`; this is the line a user reads under the resource.
const hostLine = (e: Error) => `${e}: ${e.stack}`;

describe("the dynamic provider's errors as its host prints them", () => {
  it("read as the error's name and message, with no dangling ': ' after it, the message unchanged", () => {
    const message = "branch br-1 is protected: run pulumi up --refresh, then destroy again.";
    const err = (() => {
      try {
        forHost(new ResourceError("DeleteRefused", message));
      } catch (thrown) {
        return thrown as Error;
      }
      return assert.fail("forHost rethrows");
    })();
    assert.equal(hostLine(err), `DeleteRefusedError: ${message}`);
    assert.equal(err.message, message);
  });
});
