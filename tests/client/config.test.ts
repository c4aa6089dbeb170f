import assert from "node:assert/strict";
import sinon from "sinon";
import { DEFAULT_API_URL, isConfigError, resolveConfig } from "../../provider/client";
import { SECRET_KEY } from "./support/fixtures";

describe("client config", () => {
  afterEach(() => sinon.restore());

  it("prefers explicit values over the environment", () => {
    const env = { CLOUDDB_API_KEY: "env-key-123456", CLOUDDB_API_URL: "https://env.example/api/v2" };
    const config = resolveConfig({ apiKey: "explicit-key-1", apiUrl: "https://x.example/api/v2" }, env);
    assert.deepEqual(config, { apiKey: "explicit-key-1", apiUrl: "https://x.example/api/v2" });
  });

  it("reads CLOUDDB_API_KEY and CLOUDDB_API_URL at call time", () => {
    sinon
      .stub(process, "env")
      .value({ CLOUDDB_API_KEY: "later-key-1234", CLOUDDB_API_URL: "http://127.0.0.1:9/api/v2/" });
    assert.deepEqual(resolveConfig(), { apiKey: "later-key-1234", apiUrl: "http://127.0.0.1:9/api/v2" });
  });

  it("defaults the URL to the public API", () => {
    assert.equal(resolveConfig({ apiKey: "k-123456789" }, {}).apiUrl, DEFAULT_API_URL);
  });

  it("treats empty strings as unset", () => {
    const config = resolveConfig({ apiKey: "", apiUrl: " " }, { CLOUDDB_API_KEY: "env-key-123456" });
    assert.deepEqual(config, { apiKey: "env-key-123456", apiUrl: DEFAULT_API_URL });
  });

  it("names both ways to set a key when none is set", () => {
    assert.throws(
      () => resolveConfig({}, {}),
      (e: unknown) =>
        isConfigError(e) &&
        e.message.includes("pulumi config set --secret clouddb:apiKey") &&
        e.message.includes("CLOUDDB_API_KEY"),
    );
  });

  for (const bad of [
    "https://console.neon.tech/api/v1",
    "https://console.neon.tech",
    "ftp://x/api/v2",
    "not a url",
  ]) {
    it(`refuses the URL ${JSON.stringify(bad)} with a clear error`, () => {
      assert.throws(
        () => resolveConfig({ apiKey: "k-123456789", apiUrl: bad }, {}),
        (e: unknown) => isConfigError(e) && e.message.includes("/api/v2"),
      );
    });
  }

  it("never echoes credentials embedded in the URL or a malformed key", () => {
    for (const attempt of [
      () =>
        resolveConfig({ apiKey: "k-123456789", apiUrl: `https://user:${SECRET_KEY}@x.example/api/v2` }, {}),
      () => resolveConfig({ apiKey: `${SECRET_KEY} \n` + "x y" }, {}),
    ]) {
      assert.throws(attempt, (e: unknown) => isConfigError(e) && !e.message.includes(SECRET_KEY));
    }
  });
});
