import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import {
  type ApiError,
  type ClientEvent,
  type CloudDbClient,
  createClient,
  isApiError,
  isBadRequest,
  isConfigError,
  isConflict,
  isForbidden,
  isLocked,
  isNetworkError,
  isNotFound,
  isRateLimited,
  isResponseValidationError,
  isServerError,
  isUnauthorized,
  resetRegistry,
} from "../../provider/client";
import { type FakeApi, startFakeApi } from "./support/fakeApi";
import { branch, SECRET_KEY } from "./support/fixtures";

const FAST = {
  lockedBaseMs: 1,
  rateLimitedBaseMs: 1,
  rateLimitedMaxMs: 2,
  backoffBaseMs: 1,
  backoffMaxMs: 2,
};

describe("client errors against a local HTTP server", () => {
  let api: FakeApi;
  let client: CloudDbClient;
  const seen: unknown[] = [];
  const events: ClientEvent[] = [];

  beforeEach(async () => {
    resetRegistry();
    api = await startFakeApi();
    client = createClient({
      apiKey: SECRET_KEY,
      apiUrl: api.url,
      retry: FAST,
      attemptTimeoutMs: 2_000,
      onEvent: (e) => events.push(e),
    });
  });
  afterEach(async () => {
    sinon.restore();
    await api.stop();
  });

  async function failure(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    assert.ok(isApiError(error), `not an ApiError: ${String(error)}`);
    seen.push(error);
    return error;
  }

  const cases: Array<[number, (e: unknown) => boolean, RegExp]> = [
    [401, isUnauthorized, /pulumi config set --secret clouddb:apiKey.*CLOUDDB_API_KEY/],
    [403, isForbidden, /scope/],
    [404, isNotFound, /does not exist/],
    [409, isConflict, /already exists/],
    [400, isBadRequest, /refused the request/],
    [422, isBadRequest, /refused the request/],
  ];
  for (const [status, guard, hint] of cases) {
    it(`maps ${status} to its error class with status, code, request id, method, path and a next step`, async () => {
      api.route("GET", "/projects/:project_id/branches/:branch_id", {
        status,
        json: { request_id: "body-rid", code: "SOME_CODE", message: "the server says no" },
      });
      const error = await failure(client.getBranch("p1", "br-1"));
      assert.ok(guard(error));
      assert.equal(error.status, status);
      assert.equal(error.code, "SOME_CODE");
      assert.equal(error.requestId, "body-rid");
      assert.equal(error.method, "GET");
      assert.equal(error.path, "/projects/p1/branches/br-1");
      assert.equal(error.pathTemplate, "/projects/{project_id}/branches/{branch_id}");
      assert.equal(error.attempts, 1);
      assert.equal(typeof error.elapsedMs, "number");
      assert.match(error.message, new RegExp(`GET /projects/p1/branches/br-1 failed: ${status}`));
      assert.match(error.message, /the server says no/);
      assert.match(error.message, hint);
      assert.equal(api.requests.length, 1);
    });
  }

  it("prefers the x-request-id header for the request id", async () => {
    api.route("GET", "/api_keys", {
      status: 404,
      headers: { "x-request-id": "hdr-rid" },
      json: { code: "", message: "x" },
    });
    const error = await failure(client.listApiKeys());
    assert.equal(error.requestId, "hdr-rid");
    assert.match(error.message, /request id hdr-rid/);
  });

  it("reports BRANCH_ALREADY_EXISTS as a Conflict with its code", async () => {
    api.route("POST", "/projects/:project_id/branches", {
      status: 409,
      json: { code: "BRANCH_ALREADY_EXISTS", message: "branch with name preview-1 already exists" },
    });
    const error = await failure(client.createBranch("p1", { branch: { name: "preview-1" } }));
    assert.ok(isConflict(error));
    assert.equal(error.code, "BRANCH_ALREADY_EXISTS");
    assert.equal(api.requests.length, 1);
  });

  it("gives LockedError after six 423 answers on a GET", async () => {
    api.route("GET", "/api_keys", {
      status: 423,
      json: { code: "", message: "project already has running conflicting operations" },
    });
    const error = await failure(client.listApiKeys());
    assert.ok(isLocked(error));
    assert.equal(error.attempts, 6);
    assert.equal(api.requests.length, 6);
  });

  it("gives RateLimitedError when the deadline ends the 429 retries, honouring Retry-After 0", async () => {
    api.route("GET", "/api_keys", {
      status: 429,
      headers: { "retry-after": "0" },
      json: { code: "", message: "rate" },
    });
    const limited = createClient({
      apiKey: SECRET_KEY,
      apiUrl: api.url,
      retry: FAST,
      timeoutMs: 300,
      throttle: false,
    });
    const error = await failure(limited.listApiKeys());
    assert.ok(isRateLimited(error));
    assert.ok(api.requests.length > 7, `retried past the old count of attempts (${api.requests.length})`);
    assert.match(error.message, /the next retry would start after its deadline/);
  });

  it("retries a GET on 500 and then gives ServerError", async () => {
    api.route("GET", "/api_keys", { status: 500, json: { code: "", message: "internal" } });
    const error = await failure(client.listApiKeys());
    assert.ok(isServerError(error));
    assert.equal(api.requests.length, 4);
    assert.match(error.message, /try again later/);
  });

  it("does not re-send a POST after a 502", async () => {
    api.route("POST", "/projects/:project_id/branches", {
      status: 502,
      json: { code: "", message: "bad gateway" },
    });
    const error = await failure(client.createBranch("p1", {}));
    assert.ok(isServerError(error));
    assert.equal(api.requests.length, 1);
    assert.match(error.message, /not re-sent.*pulumi refresh/);
    assert.equal(error.mayHaveChanged, true, "marked: the branch may exist");
  });

  it("marks a POST whose 2xx body cannot be read as possibly applied", async () => {
    api.route("POST", "/api_keys", {
      status: 200,
      text: '{"id": 1, "ke',
      headers: { "content-type": "application/json" },
    });
    const error = await failure(client.createApiKey({ keyName: "k" }));
    assert.ok(isResponseValidationError(error));
    assert.equal(error.mayHaveChanged, true);
    assert.match(error.message, /not re-sent because the change may have been made/);
    assert.equal(api.requests.length, 1);
  });

  it("does not mark a GET or a refused POST as possibly applied", async () => {
    api.route("GET", "/api_keys", { status: 200, text: "not json" });
    assert.equal((await failure(client.listApiKeys())).mayHaveChanged, false);
    api.route("POST", "/api_keys", { status: 400, json: { code: "", message: "key_name is required" } });
    assert.equal((await failure(client.createApiKey({ keyName: "k" }))).mayHaveChanged, false);
  });

  it("does not re-send a POST after a reset connection", async () => {
    api.route("POST", "/api_keys", { destroy: true });
    const error = await failure(client.createApiKey({ keyName: "k" }));
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ECONNRESET");
    assert.equal(api.requests.length, 1);
    assert.match(error.message, /not re-sent/);
    assert.equal(error.mayHaveChanged, true);
  });

  it("re-sends a GET after a reset connection", async () => {
    api.script("GET", "/api_keys", [{ destroy: true }]);
    api.route("GET", "/api_keys", { json: [] });
    assert.deepEqual(await client.listApiKeys(), []);
    assert.equal(api.requests.length, 2);
    assert.equal(api.requests[0]?.headers["x-request-id"], api.requests[1]?.headers["x-request-id"]);
  });

  it("re-sends a POST after a 503", async () => {
    api.script("POST", "/api_keys", [{ status: 503, json: { code: "", message: "unavailable" } }]);
    api.route("POST", "/api_keys", { json: { id: 1, key: "napi_fresh" } });
    assert.equal((await client.createApiKey({ keyName: "k" })).id, 1);
    assert.equal(api.requests.length, 2);
  });

  it("turns an HTML gateway page (524) into a clean ServerError with the status", async () => {
    api.route("POST", "/api_keys", {
      status: 524,
      headers: { "content-type": "text/html; charset=UTF-8" },
      text: "<!DOCTYPE html><html><body><h1>A timeout occurred</h1></body></html>",
    });
    const error = await failure(client.createApiKey({ keyName: "k" }));
    assert.ok(isServerError(error));
    assert.equal(error.status, 524);
    assert.match(error.message, /failed: 524 .*\(non-JSON text\/html body\)/);
    assert.ok(!error.message.includes("<html>"));
  });

  it("gives ResponseValidationError naming the fields when a success body has the wrong shape", async () => {
    api.route("GET", "/projects/:project_id/branches/:branch_id", {
      json: { branch: { ...branch(), id: 5, name: undefined } },
    });
    const error = await failure(client.getBranch("p1", "br-1"));
    assert.ok(isResponseValidationError(error));
    assert.match(error.message, /GET \/projects\/p1\/branches\/br-1/);
    assert.match(error.message, /branch\.id/);
    assert.match(error.message, /branch\.name/);
    assert.deepEqual(
      error.issues.map((i) => i.split(":")[0]),
      ["branch.id", "branch.name"],
    );
  });

  it("gives ResponseValidationError when a success body is not JSON", async () => {
    api.route("GET", "/api_keys", { headers: { "content-type": "text/html" }, text: "<html>login</html>" });
    const error = await failure(client.listApiKeys());
    assert.ok(isResponseValidationError(error));
    assert.match(error.message, /not JSON \(text\/html\)/);
  });

  it("gives NetworkError when an attempt times out, without re-sending a POST", async () => {
    api.route("POST", "/api_keys", { delayMs: 500, json: { id: 1, key: "napi_late" } });
    const slow = createClient({ apiKey: SECRET_KEY, apiUrl: api.url, attemptTimeoutMs: 100 });
    const error = await failure(slow.createApiKey({ keyName: "k" }));
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ETIMEDOUT");
    assert.match(error.message, /no response within 100 ms/);
    assert.equal(api.requests.length, 1);
  });

  it("gives NetworkError when nothing listens", async () => {
    const url = api.url;
    await api.stop();
    api = await startFakeApi();
    const dead = createClient({ apiKey: SECRET_KEY, apiUrl: url, retry: { ...FAST, networkAttempts: 1 } });
    const error = await failure(dead.listApiKeys());
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ECONNREFUSED");
    assert.equal(error.attempts, 2);
  });

  it("rejects (not throws) with ConfigError when no key is set", async () => {
    sinon.stub(process, "env").value({});
    const unconfigured = createClient({ apiUrl: api.url });
    const pending = unconfigured.listApiKeys();
    const error = await pending.then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    seen.push(error);
    assert.ok(isConfigError(error) && !isApiError(error), `not a ConfigError: ${String(error)}`);
    assert.equal(api.requests.length, 0);
  });

  it("redacts a key the server echoes back", async () => {
    api.route("GET", "/api_keys", (r) => ({
      status: 400,
      json: {
        code: "",
        message: `bad header authorization=${String(r.headers.authorization)} key=${SECRET_KEY}`,
      },
    }));
    const error = await failure(client.listApiKeys());
    assert.ok(!error.message.includes(SECRET_KEY));
    assert.match(error.message, /\[REDACTED\]/);
  });

  it("never puts the key or the Authorization header in any message, stack, JSON or event", () => {
    assert.ok(seen.length >= 15, `only ${seen.length} errors collected`);
    for (const error of seen) {
      const e = error as ApiError;
      for (const text of [
        e.message,
        String(e.stack),
        JSON.stringify(e),
        inspect(e, { depth: 10, showHidden: true }),
      ]) {
        assert.ok(!text.includes(SECRET_KEY), `key leaked in ${e.kind}: ${text}`);
        assert.ok(!/Bearer napi/i.test(text), `Authorization leaked in ${e.kind}`);
      }
    }
    assert.ok(events.length > 0);
    assert.ok(!JSON.stringify(events).includes(SECRET_KEY));
  });
});
