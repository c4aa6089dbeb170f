import * as assert from "node:assert/strict";
import { createKeyFor } from "../../provider/resources/lifecycle/owner";

const URN = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/clouddb:Branch::feature";

describe("create keys: how a create after a killed run finds its own object", () => {
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

  it("gives no key without a URN, or while the URN is not known yet", () => {
    assert.equal(createKeyFor({}, {}), undefined);
    assert.equal(createKeyFor({}, { __owner: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }), undefined);
  });
});
