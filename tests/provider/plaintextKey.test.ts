import assert from "node:assert/strict";
import { plaintextKeyWarning } from "../../provider/resources/public/plaintextKey";

// A key set with `pulumi config set clouddb:apiKey` (no --secret) sits unencrypted in the stack's
// config file: the program warns, saying the command that encrypts it.

describe("plaintext clouddb:apiKey warning", () => {
  it("warns when the key is set and the CLI does not list it among the secret keys", () => {
    const warning = plaintextKeyWarning("napi_plain", "[]");
    assert.match(warning ?? "", /clouddb:apiKey is stored in plain text/);
    assert.match(warning ?? "", /pulumi config set --secret clouddb:apiKey <key>/);
    assert.doesNotMatch(warning ?? "", /napi_plain/);
    assert.ok(plaintextKeyWarning("napi_plain", '["clouddb:other"]'));
  });

  it("says nothing for a secret key, an unset key, or when the CLI does not list secret keys", () => {
    assert.equal(plaintextKeyWarning("napi_secret", '["clouddb:apiKey"]'), undefined);
    assert.equal(plaintextKeyWarning(undefined, "[]"), undefined);
    assert.equal(plaintextKeyWarning("", "[]"), undefined);
    assert.equal(plaintextKeyWarning("napi_plain", undefined), undefined);
    assert.equal(plaintextKeyWarning("napi_plain", "not json"), undefined);
  });
});
