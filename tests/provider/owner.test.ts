import * as assert from "node:assert/strict";
import { createKeyFor, forgetReplacementKeys } from "../../provider/resources/lifecycle/owner";

const URN = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::feature";

describe("create keys: how a create after a killed run finds its own object", () => {
  beforeEach(() => forgetReplacementKeys());

  it("gives a resource not in the state the same key on every run, from its URN", () => {
    assert.equal(createKeyFor({}, { __owner: URN }), createKeyFor({}, { __owner: URN }));
    assert.notEqual(createKeyFor({}, { __owner: URN }), createKeyFor({}, { __owner: `${URN}2` }));
  });

  it("gives a resource in the state a key other than the one its object was made with, so a replacement never takes it", () => {
    const first = createKeyFor({}, { __owner: URN }) as string;
    const next = createKeyFor({ __createKey: first }, { __owner: URN });
    assert.notEqual(next, first);
    assert.equal(createKeyFor({ __createKey: first }, { __owner: URN }), next);
  });

  it("gives a replacement, which the engine checks a second time with no stored inputs, the next key, not the URN's", () => {
    const original = createKeyFor({}, { __owner: URN }) as string;
    // The engine's run that replaces it: a check against the stored inputs (for the diff)...
    const next = createKeyFor({ __createKey: original }, { __owner: URN });
    // ...then the replacement's own check, without them.
    assert.equal(createKeyFor({}, { __owner: URN }), next);
    // A resource this process never saw in the state still gets its URN's key.
    assert.equal(createKeyFor({}, { __owner: `${URN}2` }), createKeyFor({}, { __owner: `${URN}2` }));
    forgetReplacementKeys();
    assert.equal(createKeyFor({}, { __owner: URN }), original);
  });

  it("gives no key without a URN, or while the URN is not known yet", () => {
    assert.equal(createKeyFor({}, {}), undefined);
    assert.equal(createKeyFor({}, { __owner: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }), undefined);
  });
});
