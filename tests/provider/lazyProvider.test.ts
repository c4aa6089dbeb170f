import * as assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { ResourceError } from "../../provider/resources/errors";
import { forHost, lazyProvider } from "../../provider/resources/lifecycle/lazyProvider";
import { useEmulator } from "./support";

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

describe("a dynamic resource read with get (Branch.get(name, importId))", () => {
  useEmulator();
  const bookkeeping = { __provider: "exports.handler = () => ({});", __owner: "urn:pulumi:s::p::t::n" };

  it("reads by the import id when the resource holds only this package's bookkeeping, and answers plain JSON", async () => {
    const read = await lazyProvider("Branch").read!(
      `${DEMO.projectId}/${DEMO.branchId}`,
      bookkeeping as never,
    );
    assert.equal(read.id, DEMO.branchId, "the object's own id, not the import id");
    const props = read.props as Record<string, unknown>;
    assert.equal(props.name, "main");
    assert.deepEqual(JSON.parse(JSON.stringify(read)), read, "no undefined for the host's protobuf encoding");
  });

  it("refuses an id of the wrong shape with the shape it takes", async () => {
    await assert.rejects(
      lazyProvider("Role").read!(DEMO.branchId, bookkeeping as never),
      /<projectId>\/<branchId>\/<name>|import id/i,
    );
  });
});
