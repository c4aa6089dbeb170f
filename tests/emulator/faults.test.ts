import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, call, start } from "./helpers";

// Scripted faults for reliability tests, the request log and request ids.

const P = `/projects/${DEMO.projectId}`;

describe("faults and the request log", () => {
  let emu: RunningEmulator;
  let demo: ReturnType<typeof api>;

  beforeEach(async () => {
    emu = await start({ opDurationMs: 0 });
    demo = api(emu, DEMO.personalKey);
  });
  afterEach(() => emu.stop());

  it("answers the next N matching requests with the scripted status and body, then the real API", async () => {
    emu.control.failNext("POST /projects/{project_id}/branches", { status: 423 }, 3);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await demo.post(`${P}/branches`, {})).status);
    assert.deepEqual(statuses, [423, 423, 423, 201]);
    const log = emu.control.requests({ route: "POST /projects/{project_id}/branches" });
    assert.deepEqual(
      log.map((e) => e.faulted ?? false),
      [true, true, true, false],
    );
  });

  it("matches :param and {param} templates, concrete ids, any method and '*'", async () => {
    emu.control.failNext("GET /projects/:id", { status: 500 });
    emu.control.failNext(`* /projects/${DEMO.orgProjectId}`, { status: 502 });
    emu.control.failNext("*", { status: 504 });
    assert.equal((await demo.get(`/projects/${DEMO.orgProjectId}`)).status, 500);
    assert.equal((await demo.get(`/projects/${DEMO.orgProjectId}`)).status, 502);
    assert.equal((await demo.get("/api_keys")).status, 504);
    assert.equal((await demo.get("/api_keys")).status, 200);
  });

  it("sends a custom JSON body, headers and Retry-After (seconds or HTTP date)", async () => {
    emu.control.failNext("GET /projects", { status: 429, retryAfter: 7, headers: { "x-extra": "yes" } });
    emu.control.failNext("GET /projects", { status: 429, retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT" });
    emu.control.failNext("GET /projects", { status: 409, body: { code: "CUSTOM", message: "scripted" } });
    const first = await demo.get("/projects");
    assert.equal(first.headers.get("retry-after"), "7");
    assert.equal(first.headers.get("x-extra"), "yes");
    assert.equal(first.body.message, "too many requests");
    assert.equal((await demo.get("/projects")).headers.get("retry-after"), "Wed, 21 Oct 2026 07:28:00 GMT");
    assert.deepEqual((await demo.get("/projects")).body, { code: "CUSTOM", message: "scripted" });
  });

  it("sends an HTML gateway page (524 by default)", async () => {
    emu.control.failNext("GET /projects", { html: "<html><body>A timeout occurred</body></html>" });
    const reply = await demo.get("/projects");
    assert.equal(reply.status, 524);
    assert.match(reply.headers.get("content-type") ?? "", /text\/html/);
    assert.match(reply.text, /A timeout occurred/);
  });

  it("adds latency, with or without passing through to the real handler", async () => {
    emu.control.failNext("GET /projects", { status: 503, delayMs: 120 });
    emu.control.failNext("GET /projects", { passThrough: true, delayMs: 120 });
    let began = Date.now();
    assert.equal((await demo.get("/projects")).status, 503);
    assert.ok(Date.now() - began >= 110);
    began = Date.now();
    assert.equal((await demo.get("/projects")).status, 200);
    assert.ok(Date.now() - began >= 110);
  });

  it("resets the connection without an answer, and logs it with status 0", async () => {
    emu.control.failNext("POST /projects/{project_id}/branches", { reset: true });
    await assert.rejects(demo.post(`${P}/branches`, {}));
    assert.equal(emu.control.requests().at(-1)?.status, 0);
    assert.equal((await demo.post(`${P}/branches`, {})).status, 201, "the next request is served");
  });

  it("loses the answer after the change is made (afterHandler): reset, a 502, or a truncated body", async () => {
    const branches = () =>
      emu.control.dumpState().branches.filter((b) => b.deleted_at_ms === undefined).length;
    const before = branches();
    emu.control.failNext("POST /projects/{project_id}/branches", { afterHandler: true, reset: true });
    await assert.rejects(demo.post(`${P}/branches`, { branch: { name: "made-1" } }));
    assert.equal(emu.control.requests().at(-1)?.status, 0);
    emu.control.advance(1000);
    emu.control.failNext("POST /projects/{project_id}/branches", { afterHandler: true, status: 502 });
    assert.equal((await demo.post(`${P}/branches`, { branch: { name: "made-2" } })).status, 502);
    emu.control.advance(1000);
    emu.control.failNext("POST /api_keys", { afterHandler: true, status: 200, body: '{"id": 1, "ke' });
    await assert.rejects(
      demo.post("/api_keys", { key_name: "made-3" }),
      SyntaxError,
      "a truncated JSON body",
    );
    assert.equal(emu.control.requests().at(-1)?.status, 200);
    assert.equal(branches(), before + 2, "both branches were made although their answers were lost");
    assert.ok(
      emu.control.dumpState().apiKeys.some((k) => k.name === "made-3" && !k.revoked),
      "the key was made",
    );
  });

  it("holds the answer after the change is made (holdMs): the key exists while its answer waits", async () => {
    const HOLD_MS = 1000;
    emu.control.failNext("POST /api_keys", { holdMs: HOLD_MS });
    const started = Date.now();
    let answered = false;
    const answer = demo.post("/api_keys", { key_name: "held" }).finally(() => {
      answered = true;
    });
    const made = () => emu.control.dumpState().apiKeys.some((k) => k.name === "held" && !k.revoked);
    while (!made() && !answered) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(made(), "the key was made");
    assert.equal(answered, false, "the key existed before its answer left");
    const reply = await answer;
    assert.equal(reply.status, 200, reply.text);
    assert.ok(typeof reply.body.key === "string" && reply.body.key !== "");
    assert.ok(Date.now() - started >= HOLD_MS, "the answer was held");
    assert.equal(emu.control.requests().at(-1)?.faulted, true);
  });

  it("leaves a failing handler's answer alone under afterHandler", async () => {
    emu.control.failNext("POST /projects/{project_id}/branches", { afterHandler: true, status: 502 });
    const dup = await demo.post(`${P}/branches`, { branch: { name: "main" } });
    assert.equal(dup.status, 409, "the real refusal is sent");
  });

  it("drops pending faults on clearFaults", async () => {
    emu.control.failNext("*", { status: 500 }, 5);
    emu.control.clearFaults();
    assert.equal((await demo.get("/projects")).status, 200);
  });

  it("logs method, OpenAPI route template, path, status, time, request id and key id", async () => {
    const reply = await demo.get(`${P}/operations?limit=5`);
    const [entry] = emu.control.requests();
    assert.ok(entry);
    assert.equal(entry.method, "GET");
    assert.equal(entry.route, "GET /projects/{project_id}/operations");
    assert.equal(entry.path, `${P}/operations`);
    assert.equal(entry.query, "limit=5");
    assert.equal(entry.status, 200);
    assert.equal(entry.at, emu.control.now());
    assert.equal(entry.requestId, reply.headers.get("x-request-id"));
    assert.equal(entry.keyId, DEMO.personalKeyId);
    emu.control.clearRequests();
    assert.deepEqual(emu.control.requests(), []);
  });

  it("filters the log by route pattern, method and status", async () => {
    await demo.get("/projects");
    await demo.get(P);
    await demo.get("/projects/no-such-project-1");
    assert.equal(emu.control.requests({ route: "GET /projects/{project_id}" }).length, 2);
    assert.equal(emu.control.requests({ status: 404 }).length, 1);
    assert.equal(emu.control.requests({ method: "get" }).length, 3);
    assert.equal(emu.control.requests({ route: `GET ${P}` }).length, 1);
  });

  it("echoes the client's X-Request-ID in the header and the error body, else makes one", async () => {
    const mine = await call(emu.url, "GET", "/projects/no-such-project-1", {
      key: DEMO.personalKey,
      headers: { "x-request-id": "my-request-42" },
    });
    assert.equal(mine.headers.get("x-request-id"), "my-request-42");
    assert.equal(mine.body.request_id, "my-request-42");
    const generated = await demo.get("/projects");
    assert.match(generated.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  });

  it("keeps the control API out of /api/v2 and out of the request log", async () => {
    assert.equal((await call(emu.url, "GET", "/__emulator/state")).status, 404);
    assert.equal((await call(emu.origin, "GET", "/__emulator/health")).status, 200);
    assert.deepEqual(
      emu.control.requests().map((e) => e.route),
      ["GET /__emulator/state"],
    );
  });
});
