import * as assert from "node:assert/strict";
import { createKeyFor, forgetReplacementKeys } from "../../provider/resources/lifecycle/owner";

const URN = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::feature";

describe("create keys: how a create after a killed run finds its own object", () => {
  beforeEach(() => forgetReplacementKeys());

  it("gives a resource not in the state the same key on every run, from its URN", () => {
    assert.equal(createKeyFor({}, { __owner: URN }), createKeyFor({}, { __owner: URN }));
    assert.notEqual(createKeyFor({}, { __owner: URN }), createKeyFor({}, { __owner: `${URN}2` }));
  });

  it("gives a resource in the state the key it has on every run, so a run that changes nothing leaves its state as it was", () => {
    const first = createKeyFor({}, { __owner: URN }) as string;
    assert.equal(createKeyFor({ __createKey: first }, { __owner: URN }), first);
    assert.equal(createKeyFor({ __createKey: first }, { __owner: URN }), first);
  });

  it("gives a replacement, which the engine checks a second time with no stored inputs, the next key, not the URN's", () => {
    const original = createKeyFor({}, { __owner: URN }) as string;
    // The engine's run that replaces it: a check against the stored inputs (for the diff)...
    assert.equal(createKeyFor({ __createKey: original }, { __owner: URN }), original);
    // ...then the replacement's own check, without them: a key other than the one its object was made with.
    const next = createKeyFor({}, { __owner: URN });
    assert.notEqual(next, original);
    assert.equal(createKeyFor({}, { __owner: URN }), next, "the same on the next check of this process");
    // The next run (the replacement's create was killed) checks against the same stored inputs: the same key.
    forgetReplacementKeys();
    createKeyFor({ __createKey: original }, { __owner: URN });
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
