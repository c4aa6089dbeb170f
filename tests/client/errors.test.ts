import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import {
  ApiError,
  answerErrorKind,
  CloudDbError,
  ConfigError,
  ERROR_MARKER,
  InvalidArgumentError,
  isApiError,
  isCloudDbError,
  isConfigError,
  isConflict,
  isLocked,
  isNotFound,
  isUsageError,
  NotFoundError,
  OperationFailedError,
  redactSecrets,
} from "../../provider/client";
import { SECRET_KEY } from "./support/fixtures";

describe("client errors", () => {
  afterEach(() => sinon.restore());

  it("are recognised by the global marker and kind, not by class identity", () => {
    // What a second, deserialized copy of the module would produce: same marker, different class.
    class ForeignCopy extends Error {
      readonly kind = "NotFound";
    }
    const foreign = new ForeignCopy("gone");
    Object.defineProperty(foreign, Symbol.for("pulumi-clouddb.error"), { value: true });
    assert.equal(foreign instanceof ApiError, false);
    assert.equal(isApiError(foreign), true);
    assert.equal(isNotFound(foreign), true);
    assert.equal(isConflict(foreign), false);
  });

  it("take an answer's kind from the kinds' statuses: its own, else a failure of the service from 500 up, else a refused request", () => {
    const kinds = Object.fromEntries(
      [100, 302, 400, 401, 403, 404, 409, 418, 422, 423, 429, 500, 502, 524].map((s) => [
        s,
        answerErrorKind(s),
      ]),
    );
    assert.deepEqual(kinds, {
      100: "BadRequest",
      302: "BadRequest",
      400: "BadRequest",
      401: "Unauthorized",
      403: "Forbidden",
      404: "NotFound",
      409: "Conflict",
      418: "BadRequest",
      422: "BadRequest",
      423: "Locked",
      429: "RateLimited",
      500: "ServerError",
      502: "ServerError",
      524: "ServerError",
    });
  });

  it("do not mistake ordinary errors for API errors", () => {
    assert.equal(isApiError(new Error("x")), false);
    assert.equal(isApiError({ kind: "NotFound" }), false);
    assert.equal(isLocked(null), false);
  });

  it("tell a setup or argument error, raised before any request, from a failed call to the API", () => {
    const config = new ConfigError("no key");
    const argument = new InvalidArgumentError("bad id");
    const answer = new NotFoundError("gone", { status: 404 });
    for (const usage of [config, argument]) {
      assert.equal(isApiError(usage), false);
      assert.equal(usage instanceof ApiError, false);
      assert.equal(isUsageError(usage), true);
      assert.equal(isCloudDbError(usage), true);
      assert.equal(usage instanceof CloudDbError, true);
      assert.equal(usage[ERROR_MARKER], true);
    }
    assert.equal(isConfigError(config), true);
    assert.deepEqual({ ...config.toJSON() }, { name: "ConfigError", kind: "Config", message: "no key" });
    assert.equal(isApiError(answer) && isCloudDbError(answer) && !isUsageError(answer), true);
    assert.equal(answer instanceof CloudDbError, true);
  });

  it("carry status, code, request id, method, path template, attempts and elapsed time", () => {
    const e = new NotFoundError("GET /projects/p/branches/b failed", {
      status: 404,
      code: "",
      requestId: "rid-1",
      method: "GET",
      path: "/projects/p/branches/b",
      pathTemplate: "/projects/{project_id}/branches/{branch_id}",
      attempts: 1,
      elapsedMs: 12,
    });
    assert.equal(e[ERROR_MARKER], true);
    assert.equal(e.name, "NotFoundError");
    assert.deepEqual(
      { ...e.toJSON() },
      {
        name: "NotFoundError",
        kind: "NotFound",
        message: "GET /projects/p/branches/b failed",
        status: 404,
        code: "",
        requestId: "rid-1",
        method: "GET",
        path: "/projects/p/branches/b",
        pathTemplate: "/projects/{project_id}/branches/{branch_id}",
        attempts: 1,
        elapsedMs: 12,
        mayHaveChanged: false,
      },
    );
  });

  it("keep a recorded response out of logs", () => {
    const e = new OperationFailedError("failed", "p", { id: "o", action: "create_branch", status: "error" });
    e.response = { connection_uris: [{ connection_uri: "postgres://u:dbpassword@h/db" }] };
    assert.ok(!inspect(e).includes("dbpassword"));
    assert.ok(!JSON.stringify(e).includes("dbpassword"));
    assert.ok(e.response);
  });

  it("redact keys, Bearer tokens and napi_ tokens from server text", () => {
    const text = `bad header Authorization: Bearer ${SECRET_KEY}; key ${SECRET_KEY}; other napi_abcdefgh12345678`;
    const out = redactSecrets(text, [SECRET_KEY]);
    assert.ok(!out.includes(SECRET_KEY));
    assert.ok(!out.includes("napi_abcdefgh12345678"));
    assert.match(out, /Bearer \[REDACTED\]/);
  });

  it("redact a key of any format that the client was given", () => {
    const plain = "plain-looking-key-0123456789";
    assert.equal(redactSecrets(`echo ${plain} echo ${plain}`, [plain]), "echo [REDACTED] echo [REDACTED]");
  });
});
