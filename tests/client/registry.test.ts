import assert from "node:assert/strict";
import * as path from "node:path";

type Registry = typeof import("../../provider/client/registry");

const CLIENT_DIR = path.resolve(__dirname, "../../provider/client");

/** A copy of the client loaded from scratch, as a second installed copy of the package would be. */
function freshCopy(): Registry {
  for (const file of Object.keys(require.cache)) if (file.startsWith(CLIENT_DIR)) delete require.cache[file];
  return require("../../provider/client/registry") as Registry;
}

describe("two copies of the package in one process", () => {
  const API = "https://api.example.test/api/v2";
  // The rest of the suite keeps the copy it loaded.
  let loaded: NodeJS.Dict<NodeJS.Module>;
  before(() => {
    loaded = Object.fromEntries(
      Object.entries(require.cache).filter(([file]) => file.startsWith(CLIENT_DIR)),
    );
  });
  after(() => {
    freshCopy().resetRegistry();
    Object.assign(require.cache, loaded);
  });

  it("share one throttle, one listing cache and one set of project queues per account", () => {
    const one = freshCopy();
    const two = freshCopy();
    assert.notEqual(one, two, "the copies are distinct modules");
    assert.notEqual(one.accountThrottle, two.accountThrottle);
    assert.equal(one.accountThrottle(API, "napi_a"), two.accountThrottle(API, "napi_a"));
    assert.equal(one.accountListingCache(API, "napi_a"), two.accountListingCache(API, "napi_a"));
    assert.equal(one.projectQueues(API), two.projectQueues(API));
    assert.notEqual(
      one.accountThrottle(API, "napi_a"),
      two.accountThrottle(API, "napi_b"),
      "another key is another account",
    );
  });
});
