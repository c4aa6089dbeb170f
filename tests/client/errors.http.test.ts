import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import { DEMO, type RequestFilter, startEmulator } from "../../emulator";
import {
  type ApiError,
  type ClientEvent,
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
} from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";
import { branch } from "./support/fixtures";

// Client errors against the emulator: its refusals and its scripted faults (statuses, HTML pages,
// resets, lost answers, latency) mapped to the error tree, the retry budget of each, and no key in
// any message.

const FAST = {
  lockedBaseMs: 1,
  rateLimitedBaseMs: 1,
  rateLimitedMaxMs: 2,
  backoffBaseMs: 1,
  backoffMaxMs: 2,
};
const KEY = DEMO.personalKey;
const BRANCH = `GET /projects/{project_id}/branches/{branch_id}`;

describe("client errors against the emulator", () => {
  const harness = useEmulatorClient({ limits: false });
  const seen: unknown[] = [];
  const events: ClientEvent[] = [];
  const client = () =>
    harness.client({ retry: FAST, attemptTimeoutMs: 2_000, onEvent: (e) => events.push(e) });
  const requests = (filter: RequestFilter = {}) => harness.emulator.control.requests(filter);
  const failNext: typeof harness.emulator.control.failNext = (...args) =>
    harness.emulator.control.failNext(...args);

  afterEach(() => sinon.restore());

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
      failNext(BRANCH, {
        status,
        body: { request_id: "body-rid", code: "SOME_CODE", message: "the server says no" },
      });
      const error = await failure(client().getBranch(DEMO.projectId, DEMO.branchId));
      assert.ok(guard(error));
      assert.equal(error.status, status);
      assert.equal(error.code, "SOME_CODE");
      assert.equal(error.requestId, requests()[0]?.requestId, "the request id the API answered with");
      assert.equal(error.method, "GET");
      assert.equal(error.path, `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`);
      assert.equal(error.pathTemplate, "/projects/{project_id}/branches/{branch_id}");
      assert.equal(error.attempts, 1);
      assert.equal(typeof error.elapsedMs, "number");
      assert.match(error.message, new RegExp(`GET ${error.path} failed: ${status}`));
      assert.match(error.message, /the server says no/);
      assert.match(error.message, hint);
      assert.equal(requests().length, 1, "not retried");
    });
  }

  it("maps the service's own refusals: an unknown key, a missing branch, a taken branch name", async () => {
    const stranger = createClient({ apiKey: `napi_${"0".repeat(64)}`, apiUrl: harness.emulator.url });
    assert.ok(isUnauthorized(await failure(stranger.listApiKeys())));
    assert.ok(isNotFound(await failure(client().getBranch(DEMO.projectId, "br-missing-00000000"))));
    const taken = harness.emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)?.name;
    const conflict = await failure(client().createBranch(DEMO.projectId, { branch: { name: taken } }));
    assert.ok(isConflict(conflict));
    assert.equal(conflict.code, "BRANCH_ALREADY_EXISTS");
    assert.equal(conflict.requestId, requests({ method: "POST" }).at(-1)?.requestId);
    assert.equal(requests({ method: "POST" }).length, 1, "a refused POST is not re-sent");
  });

  it("prefers the x-request-id header for the request id", async () => {
    failNext("GET /api_keys", {
      status: 404,
      headers: { "x-request-id": "hdr-rid" },
      body: { request_id: "body-rid", code: "", message: "x" },
    });
    const error = await failure(client().listApiKeys());
    assert.equal(error.requestId, "hdr-rid");
    assert.match(error.message, /request id hdr-rid/);
  });

  it("gives LockedError after six 423 answers on a GET", async () => {
    failNext(
      "GET /api_keys",
      { status: 423, body: { code: "", message: "project already has running conflicting operations" } },
      20,
    );
    const error = await failure(client().listApiKeys());
    assert.ok(isLocked(error));
    assert.equal(error.attempts, 6);
    assert.equal(requests().length, 6);
  });

  it("gives RateLimitedError when the deadline ends the 429 retries, honouring Retry-After 0", async () => {
    failNext("GET /api_keys", { status: 429, retryAfter: 0, body: { code: "", message: "rate" } }, 10_000);
    const limited = harness.client({ retry: FAST, timeoutMs: 300, throttle: false });
    const error = await failure(limited.listApiKeys());
    assert.ok(isRateLimited(error));
    assert.ok(requests().length > 7, `retried past the old count of attempts (${requests().length})`);
    assert.match(error.message, /the next retry would start after its deadline/);
  });

  it("retries a GET on 500 and then gives ServerError", async () => {
    failNext("GET /api_keys", { status: 500 }, 20);
    const error = await failure(client().listApiKeys());
    assert.ok(isServerError(error));
    assert.equal(requests().length, 4);
    assert.match(error.message, /try again later/);
  });

  it("does not re-send a POST whose 502 came after the change was made", async () => {
    failNext("POST /projects/{project_id}/branches", { afterHandler: true, status: 502 });
    const before = harness.emulator.control.dumpState().branches.length;
    const error = await failure(client().createBranch(DEMO.projectId, {}));
    assert.ok(isServerError(error));
    assert.equal(requests({ method: "POST" }).length, 1);
    assert.match(error.message, /not re-sent.*pulumi refresh/);
    assert.equal(error.mayHaveChanged, true, "marked: the branch may exist");
    assert.equal(harness.emulator.control.dumpState().branches.length, before + 1, "and it does");
  });

  it("marks a POST whose 2xx body cannot be read as possibly applied", async () => {
    failNext("POST /api_keys", { afterHandler: true, status: 200, body: '{"id": 1, "ke' });
    const error = await failure(client().createApiKey({ keyName: "truncated" }));
    assert.ok(isResponseValidationError(error));
    assert.equal(error.mayHaveChanged, true);
    assert.match(error.message, /not re-sent because the change may have been made/);
    assert.equal(requests().length, 1);
    assert.ok(harness.emulator.control.dumpState().apiKeys.some((k) => k.name === "truncated"));
  });

  it("does not mark a GET or a refused POST as possibly applied", async () => {
    failNext("GET /api_keys", { status: 200, body: "not json" });
    assert.equal((await failure(client().listApiKeys())).mayHaveChanged, false);
    failNext("POST /api_keys", { status: 400, body: { code: "", message: "key_name is required" } });
    assert.equal((await failure(client().createApiKey({ keyName: "k" }))).mayHaveChanged, false);
  });

  it("does not re-send a POST after a reset connection", async () => {
    failNext("POST /api_keys", { reset: true });
    const error = await failure(client().createApiKey({ keyName: "k" }));
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ECONNRESET");
    assert.equal(requests().length, 1);
    assert.match(error.message, /not re-sent/);
    assert.equal(error.mayHaveChanged, true);
  });

  it("re-sends a GET after a reset connection, under the same request id", async () => {
    failNext("GET /api_keys", { reset: true });
    const keys = await client().listApiKeys();
    assert.ok(keys.some((k) => k.id === DEMO.personalKeyId));
    const [reset, answered] = requests();
    assert.deepEqual([reset?.status, answered?.status, requests().length], [0, 200, 2]);
    assert.equal(reset?.requestId, answered?.requestId);
  });

  it("re-sends a POST after a 503, which the API answers before making any change", async () => {
    failNext("POST /api_keys", { status: 503, body: { code: "", message: "unavailable" } });
    const created = await client().createApiKey({ keyName: "after-503" });
    assert.deepEqual(
      requests().map((r) => r.status),
      [503, 200],
    );
    const made = harness.emulator.control.dumpState().apiKeys.filter((k) => k.name === "after-503");
    assert.deepEqual(
      made.map((k) => k.id),
      [created.id],
    );
  });

  it("turns an HTML gateway page (524) into a clean ServerError with the status", async () => {
    failNext("POST /api_keys", {
      html: "<!DOCTYPE html><html><body><h1>A timeout occurred</h1></body></html>",
    });
    const error = await failure(client().createApiKey({ keyName: "k" }));
    assert.ok(isServerError(error));
    assert.equal(error.status, 524);
    assert.match(error.message, /failed: 524 .*\(non-JSON text\/html body\)/);
    assert.ok(!error.message.includes("<html>"));
  });

  it("gives ResponseValidationError naming the fields when a success body has the wrong shape", async () => {
    failNext(BRANCH, { status: 200, body: { branch: { ...branch(), id: 5, name: undefined } } });
    const error = await failure(client().getBranch("p1", "br-1"));
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
    failNext("GET /api_keys", { status: 200, html: "<html>login</html>" });
    const error = await failure(client().listApiKeys());
    assert.ok(isResponseValidationError(error));
    assert.match(error.message, /not JSON \(text\/html/);
  });

  it("gives NetworkError when an attempt times out, without re-sending a POST", async () => {
    failNext("POST /api_keys", { holdMs: 500 });
    const slow = harness.client({ attemptTimeoutMs: 100 });
    const error = await failure(slow.createApiKey({ keyName: "slow-answer" }));
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ETIMEDOUT");
    assert.match(error.message, /no response within 100 ms/);
    assert.equal(error.mayHaveChanged, true);
    const made = harness.emulator.control.dumpState().apiKeys.filter((k) => k.name === "slow-answer");
    assert.equal(made.length, 1, "the POST was sent once: a re-send would have made a second key");
  });

  it("gives NetworkError when nothing listens", async () => {
    const gone = await startEmulator({ seed: "empty" });
    await gone.stop();
    const dead = createClient({ apiKey: KEY, apiUrl: gone.url, retry: { ...FAST, networkAttempts: 1 } });
    const error = await failure(dead.listApiKeys());
    assert.ok(isNetworkError(error));
    assert.equal(error.networkCode, "ECONNREFUSED");
    assert.equal(error.attempts, 2);
  });

  it("rejects (not throws) with ConfigError when no key is set", async () => {
    sinon.stub(process, "env").value({});
    const unconfigured = createClient({ apiUrl: harness.emulator.url });
    const pending = unconfigured.listApiKeys();
    const error = await pending.then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    seen.push(error);
    assert.ok(isConfigError(error) && !isApiError(error), `not a ConfigError: ${String(error)}`);
    assert.equal(requests().length, 0);
  });

  it("redacts a key the server echoes back", async () => {
    failNext("GET /api_keys", {
      status: 400,
      body: { code: "", message: `bad header authorization=Bearer ${KEY} key=${KEY}` },
    });
    const error = await failure(client().listApiKeys());
    assert.ok(!error.message.includes(KEY));
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
        assert.ok(!text.includes(KEY), `key leaked in ${e.kind}: ${text}`);
        assert.ok(!/Bearer napi/i.test(text), `Authorization leaked in ${e.kind}`);
      }
    }
    assert.ok(events.length > 0);
    assert.ok(!JSON.stringify(events).includes(KEY));
  });
});
