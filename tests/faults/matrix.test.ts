// The fault matrix: one row per fault injected through the emulator's control API (or the
// recording proxy, when the API must act before its answer is lost) while a real workload runs — the
// provider objects creating branches and keys, the client and the data source listing operations.
// Every row ends with the same checks (World.finish): every object the API created is in the recorded
// state, deleted, or reported by the error; destroy leaves no key unrevoked and no branch behind; no
// secret is in the state (outside ApiKey `key`), the logs or any error message.
// A table of faults: it grows by a row with each fault, so it is longer than 400 lines.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO, type EmulatorOptions } from "../../emulator";
import { getOperations } from "../../provider";
import { isUnauthorized } from "../../provider/client";
import { CheckFailed, errorText, type ResourceSpec, standardProgram, TOTALS, World } from "./support/world";

interface Row {
  /** The fault, as the summary names it. */
  fault: string;
  /** What the row proves, as a behaviour sentence. */
  asserts: string;
  emulator?: EmulatorOptions;
  run(w: World): Promise<void>;
}

const BRANCHES = "POST /projects/{project_id}/branches";
const BRANCH = "GET /projects/{project_id}/branches/{branch_id}";
const OPERATION = "GET /projects/{project_id}/operations/{operation_id}";
const OPERATIONS = "GET /projects/{project_id}/operations";
const PERSONAL_KEYS = "POST /api_keys";
const ORG_KEYS = "POST /organizations/{org_id}/api_keys";
const GATEWAY_PAGE =
  "<html><head><title>Bad gateway</title></head><body>cloudflare: origin unreachable</body></html>";

const count = (w: World, route: string, status?: number) =>
  w.control.requests({ route, ...(status === undefined ? {} : { status }) }).length;
/** Requests on `route` the API did not refuse with 423 (a 423 acted on nothing, so re-sending it is right). */
const sent = (w: World, route: string) =>
  w.control.requests({ route }).filter((r) => r.status !== 423).length;

/** Asserts the last step raised no error and every resource of `program` is in the state, whole. */
function assertConverged(w: World, program: ResourceSpec[]): void {
  assert.deepEqual(
    [...w.errors].map(([n, e]) => `${n}: ${e.message}`),
    [],
    "the workload ends without errors",
  );
  for (const spec of program) {
    const entry = w.state.get(spec.name);
    assert.ok(entry, `${spec.name} is in the state`);
    assert.equal(entry.initErrors, undefined, `${spec.name} has no init errors`);
    if (spec.type === "Branch")
      assert.deepEqual(entry.outs.pendingOperationIds, [], `${spec.name} waits for nothing`);
  }
}

/**
 * Asserts each object name of the program was created exactly once (nothing made twice); with
 * `liveOnly`, that it is live exactly once (after a lost answer, a revoked orphan may have a successor).
 */
function assertCreatedOnce(w: World, program: ResourceSpec[], liveOnly = false): void {
  const { branches, keys } = w.created();
  for (const spec of program) {
    const name = spec.inputs.name;
    const made =
      spec.type === "Branch"
        ? branches.filter((b) => b.name === name && !(liveOnly && b.deleted_at_ms !== undefined))
        : keys.filter((k) => k.name === name && !(liveOnly && k.revoked));
    assert.equal(
      made.length,
      1,
      `${spec.type} ${String(name)} was created ${liveOnly ? "and is live " : ""}exactly once`,
    );
  }
}

/** Lists the project's operations through the data source and compares with the API's own count. */
async function assertListingComplete(w: World): Promise<void> {
  const listed = await getOperations(
    { projectId: DEMO.projectId },
    { apiKey: w.credential, apiUrl: w.proxy.url },
  );
  const expected = w.control.dumpState().operations.filter((op) => op.project_id === DEMO.projectId).length;
  assert.equal(listed.operations.length, expected, "every operation is listed once");
  assert.equal(new Set(listed.operations.map((op) => op.id)).size, expected);
}

/** The single failed resource of the last step, by type. */
function onlyError(w: World, type: "Branch" | "ApiKey", program: ResourceSpec[]): [string, Error] {
  const failed = [...w.errors].filter(([name]) => program.find((s) => s.name === name)?.type === type);
  assert.equal(
    failed.length,
    1,
    `exactly one ${type} failed: ${failed.map(([n, e]) => `${n}: ${e.message}`).join("; ")}`,
  );
  return failed[0]!;
}

/**
 * The object made by the POST whose answer the proxy lost (the API acted, the client saw a failure):
 * it was made once (never re-sent) and is either found and recorded in the state, revoked with the
 * error saying so (a key whose token was lost cannot be used by anyone), or reported by the error.
 */
function assertFoundOrReported(
  w: World,
  program: ResourceSpec[],
  kind: "branch" | "key",
  route: RegExp,
): "found" | "revoked" | "reported" {
  const asked = JSON.parse(w.proxy.faulted.at(-1)!.body) as { branch?: { name?: string }; key_name?: string };
  const name = kind === "branch" ? asked.branch?.name : asked.key_name;
  const spec = program.find((s) => s.inputs.name === name);
  assert.ok(spec, `the lost answer belongs to a resource of the program (${String(name)})`);
  const { branches, keys } = w.created();
  const made =
    kind === "branch"
      ? branches
          .filter((b) => b.name === name)
          .map((b) => ({ id: b.id, gone: b.deleted_at_ms !== undefined }))
      : keys.filter((k) => k.name === name).map((k) => ({ id: String(k.id), gone: k.revoked }));
  assert.equal(made.length, 1, `the API made ${String(name)} once: the POST was not re-sent`);
  const object = made[0]!;
  if (w.state.get(spec.name)?.id === object.id) return "found";
  const err = w.errors.get(spec.name);
  assert.ok(err, `${spec.name} is neither in the state nor failed`);
  if (object.gone) {
    assert.match(err.message, new RegExp(`${object.id}.*(revoked|deleted)`), err.message);
    return "revoked";
  }
  w.expectReported(err, kind, String(name), route);
  return "reported";
}

/** After a lost answer: found or revoked objects converge on the next up; reported ones are left to the user. */
async function convergeUnlessReported(w: World, program: ResourceSpec[], outcome: string): Promise<void> {
  if (outcome === "reported") return;
  await w.up(program);
  assertConverged(w, program);
  assertCreatedOnce(w, program, true);
}

const ROWS: Row[] = [
  {
    fault: "423 storm (overlapping platform operations)",
    asserts: "every branch is created once, after the project frees up, with no failure",
    async run(w) {
      const p = standardProgram();
      let started = 0;
      const storm = () => {
        w.control.startPlatformOperation(DEMO.projectId, "check_availability", 60);
        w.faults += 1;
        started += 1;
      };
      storm();
      storm();
      const timer = setInterval(() => (started < 10 ? storm() : clearInterval(timer)), 40);
      try {
        await w.up(p);
      } finally {
        clearInterval(timer);
      }
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      assert.ok(count(w, BRANCHES, 423) > 0, "the storm was felt: POSTs got 423");
      assert.equal(count(w, BRANCHES, 201), 2);
      await assertListingComplete(w);
    },
  },
  {
    fault: "429 with Retry-After",
    asserts: "the retry waits the Retry-After time and the key is created once",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(PERSONAL_KEYS, { status: 429, retryAfter: 1 });
      w.control.failNext(OPERATION, { status: 429, retryAfter: 1 });
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      const posts = w.control.requests({ route: PERSONAL_KEYS });
      assert.deepEqual(
        posts.map((r) => r.status),
        [429, 200],
      );
      assert.ok(
        posts[1]!.at - posts[0]!.at >= 950,
        `retried after ${posts[1]!.at - posts[0]!.at} ms, not 1 s`,
      );
    },
  },
  {
    fault: "429 without Retry-After",
    asserts: "the client backs off by itself and the key is created once",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(ORG_KEYS, { status: 429 }, 2);
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      assert.deepEqual(
        w.control.requests({ route: ORG_KEYS }).map((r) => r.status),
        [429, 429, 200],
      );
    },
  },
  {
    fault: "503 on POST (and on a listing page)",
    asserts: "503 is retried for every method: each object is created exactly once",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(BRANCHES, { status: 503 }, 2);
      w.control.failNext(PERSONAL_KEYS, { status: 503 });
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      assert.equal(count(w, BRANCHES), 4, "2 refused + 2 accepted");
      assert.equal(count(w, PERSONAL_KEYS), 2);
      w.control.addOperations(DEMO.projectId, 2500);
      w.control.failNext(OPERATIONS, { status: 503 });
      await assertListingComplete(w);
    },
  },
  {
    fault: "502 on POST before the API acted",
    asserts: "the POST is not re-sent, the error says why, and the next up creates the branch once",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(BRANCHES, { status: 502 });
      await w.up(p);
      const [name, err] = onlyError(w, "Branch", p);
      assert.match(err.message, /502 Bad Gateway/);
      assert.match(err.message, /not re-sent/);
      assert.equal(count(w, BRANCHES), 2, "one 502 + one success: nothing re-sent");
      assert.equal(w.state.has(name), false);
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "502 on POST after the API acted (proxy)",
    asserts: "the POST is not re-sent; the branch it made is found (by its unique name) or reported",
    async run(w) {
      const p = standardProgram();
      w.proxy.after("POST", /^\/projects\/[^/]+\/branches$/, { kind: "bad-gateway-after" });
      await w.up(p);
      assert.equal(
        sent(w, BRANCHES),
        2,
        "not re-sent (the other branch's POST may meet a 423 from its operations)",
      );
      const outcome = assertFoundOrReported(w, p, "branch", /POST \/projects\/.+\/branches/);
      await convergeUnlessReported(w, p, outcome);
    },
  },
  {
    fault: "connection reset on POST before the API acted",
    asserts: "the POST is not re-sent, the error says why, and the next up creates the key once",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(PERSONAL_KEYS, { reset: true });
      await w.up(p);
      const [, err] = onlyError(w, "ApiKey", p);
      assert.match(err.message, /no response \(ECONNRESET/);
      assert.match(err.message, /not re-sent/);
      assert.equal(count(w, PERSONAL_KEYS), 1);
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "connection reset on POST after the API acted (proxy)",
    asserts: "the POST is not re-sent; the key it made is found, revoked (its token is lost) or reported",
    async run(w) {
      const p = standardProgram();
      w.proxy.after("POST", /^\/organizations\/[^/]+\/api_keys$/, { kind: "reset-after" });
      await w.up(p);
      assert.equal(count(w, ORG_KEYS), 1, "not re-sent");
      const outcome = assertFoundOrReported(w, p, "key", /POST \/organizations\/.+\/api_keys/);
      await convergeUnlessReported(w, p, outcome);
    },
  },
  {
    fault: "slow responses beyond the per-attempt timeout (client, attemptTimeoutMs 250)",
    asserts: "a slow GET is retried and the listing completes; a slow POST is not re-sent and is reported",
    async run(w) {
      const client = w.client({ attemptTimeoutMs: 250 });
      w.control.addOperations(DEMO.projectId, 2500);
      w.control.failNext(OPERATIONS, { delayMs: 700, passThrough: true });
      let listed = 0;
      for await (const op of client.listOperations(DEMO.projectId)) if (op.id) listed += 1;
      assert.equal(
        listed,
        w.control.dumpState().operations.filter((o) => o.project_id === DEMO.projectId).length,
      );
      const made = await client.createBranch(DEMO.projectId, { branch: { name: "fm-direct" } });
      w.state.set("direct", {
        type: "Branch",
        id: made.branch.id,
        outs: { projectId: DEMO.projectId, name: made.branch.name, branchId: made.branch.id },
      });
      w.control.failNext(BRANCHES, { delayMs: 700, passThrough: true });
      const slow = await client
        .createBranch(DEMO.projectId, { branch: { name: "fm-slow" } })
        .catch((e: Error) => e);
      assert.ok(slow instanceof Error, "the slow POST fails");
      w.allErrors.push(slow);
      assert.match(slow.message, /no response within 250 ms/);
      await sleep(900); // the API answers (and acts) after the client gave up
      assert.equal(w.control.requests({ route: BRANCHES }).length, 2, "the slow POST was not re-sent");
      w.expectReported(slow, "branch", "fm-slow", /POST \/projects\/.+\/branches/);
      assert.equal(w.reported.size, 1, "the API made the slow branch");
    },
  },
  {
    fault: "HTML error bodies (gateway pages on GET, POST and a listing page)",
    asserts: "GETs are retried; the POST error names the status and content type, never the page",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(BRANCH, { status: 524, html: GATEWAY_PAGE });
      w.control.failNext(PERSONAL_KEYS, { status: 502, html: GATEWAY_PAGE });
      await w.up(p);
      const [, err] = onlyError(w, "ApiKey", p);
      assert.match(err.message, /502 Bad Gateway/);
      assert.match(err.message, /text\/html/);
      assert.doesNotMatch(err.message, /<html|cloudflare/);
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      w.control.addOperations(DEMO.projectId, 1500);
      w.control.failNext(OPERATIONS, { status: 520, html: GATEWAY_PAGE });
      await assertListingComplete(w);
    },
  },
  {
    fault: "malformed JSON in an operation poll",
    asserts: "the branch is recorded (partial failure) and the next up finishes it",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(OPERATION, { status: 200, html: '{"operation": {"id": "' });
      await w.up(p);
      const [name, err] = onlyError(w, "Branch", p);
      assert.match(err.message, /not JSON/);
      assert.ok(w.state.get(name)?.initErrors, "recorded with init errors, not orphaned");
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "malformed JSON in the 200 of POST /api_keys (proxy: the key exists)",
    asserts: "the key the API made is found, revoked (its token is unreadable) or reported; no token leaks",
    async run(w) {
      const p = standardProgram();
      w.proxy.after("POST", /^\/api_keys$/, { kind: "rewrite", rewrite: (body) => body.slice(0, 40) });
      await w.up(p);
      assert.equal(count(w, PERSONAL_KEYS), 1, "not re-sent");
      const outcome = assertFoundOrReported(w, p, "key", /POST \/api_keys/);
      await convergeUnlessReported(w, p, outcome);
    },
  },
  {
    fault: "a listing page missing a required field",
    asserts: "the error names the method, path and field; the next listing is complete",
    async run(w) {
      const p = standardProgram();
      await w.up(p);
      assertConverged(w, p);
      w.control.failNext(OPERATIONS, { status: 200, body: { operations: [{ id: "x" }], pagination: {} } });
      const err = await getOperations(
        { projectId: DEMO.projectId },
        { apiKey: w.credential, apiUrl: w.proxy.url },
      ).catch((e: Error) => e);
      assert.ok(err instanceof Error);
      w.allErrors.push(err);
      assert.match(err.message, /GET \/projects\/[^/]+\/operations returned 200/);
      assert.match(err.message, /operations\.0\.(project_id|action|status|created_at)/);
      await assertListingComplete(w);
    },
  },
  {
    fault: "the read after a branch create misses a required field",
    asserts: "the ready branch the API made is still recorded in the state, not orphaned",
    async run(w) {
      const p = standardProgram();
      w.control.failNext(BRANCH, { status: 200, body: { branch: { name: "fm-a" } } });
      await w.up(p);
      assert.equal(count(w, BRANCH), 2, "the spoiled read happened");
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "the 201 of POST /branches misses branch.id (proxy: the branch exists)",
    asserts: "the branch the API made is found (by its unique name) or reported",
    async run(w) {
      const p = standardProgram();
      w.proxy.after("POST", /^\/projects\/[^/]+\/branches$/, {
        kind: "rewrite",
        rewrite: (body) => {
          const parsed = JSON.parse(body) as { branch: Record<string, unknown> };
          delete parsed.branch.id;
          return JSON.stringify(parsed);
        },
      });
      await w.up(p);
      assert.equal(sent(w, BRANCHES), 2, "not re-sent");
      const outcome = assertFoundOrReported(w, p, "branch", /POST \/projects\/.+\/branches/);
      await convergeUnlessReported(w, p, outcome);
    },
  },
  {
    fault: "operation failed 3 times, then finished",
    asserts: "failed is not terminal: the create waits it out, reports the failures and succeeds",
    // Long enough for a poll to see the `failed` status between the platform's retries.
    emulator: { opDurationMs: 100 },
    async run(w) {
      const p = standardProgram();
      const failThrice = () => {
        w.control.scriptOperations(
          { action: "create_branch", projectId: DEMO.projectId, count: 1 },
          { kind: "fail", times: 3 },
        );
        w.faults += 3;
      };
      failThrice();
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
      failThrice();
      const made = await w.client().createBranch(DEMO.projectId, { branch: { name: "fm-direct" } });
      w.state.set("direct", {
        type: "Branch",
        id: made.branch.id,
        outs: { projectId: DEMO.projectId, name: made.branch.name, branchId: made.branch.id },
      });
      const retried = w.control.dumpState().operations.filter((op) => op.failures_count === 3);
      assert.deepEqual(
        retried.map((op) => [op.action, op.status]),
        [
          ["create_branch", "finished"],
          ["create_branch", "finished"],
        ],
      );
      const notes = w.logs.flatMap((line) => {
        const event = JSON.parse(line) as { type?: string; status?: string; note?: string };
        return event.type === "operation" && event.status === "failed" ? [event.note ?? ""] : [];
      });
      assert.ok(
        notes.some((n) => /failed \d time\(s\) so far; the platform retries it/.test(n)),
        `the client reports the failures: ${JSON.stringify(notes)}`,
      );
    },
  },
  {
    fault: "operation cancelled (start_compute)",
    asserts: "the branch is recorded with the failure named, and the next up converges",
    async run(w) {
      const p = standardProgram();
      w.control.scriptOperations({ action: "start_compute", count: 1 }, { kind: "cancelled" });
      w.faults += 1;
      await w.up(p);
      const [name, err] = onlyError(w, "Branch", p);
      assert.match(err.message, /start_compute/);
      assert.match(err.message, /cancelled/);
      assert.ok(w.state.get(name)?.initErrors, "recorded, not orphaned");
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "operation error (create_branch)",
    asserts:
      "the error is named, the branch it began is deleted and not recorded, and the next up creates it anew",
    async run(w) {
      const p = standardProgram();
      w.control.scriptOperations(
        { action: "create_branch", count: 1 },
        { kind: "error", message: "storage quota exceeded" },
      );
      w.faults += 1;
      await w.up(p);
      const [name, err] = onlyError(w, "Branch", p);
      assert.match(err.message, /create_branch operation \S+ ended error \(storage quota exceeded\)/);
      assert.match(err.message, /Run `pulumi up` again/);
      const begun = /branch (br-[a-z0-9-]+)/.exec(err.message)?.[1];
      assert.ok(begun, err.message);
      assert.equal(w.state.has(name), false, "nothing recorded for a branch that was never made");
      const live = w.control
        .dumpState()
        .branches.filter((b) => b.id === begun && b.deleted_at_ms === undefined);
      assert.deepEqual(live, [], "the branch the failed operation began is deleted");
      await w.up(p);
      assertConverged(w, p);
    },
  },
  {
    fault: "operation error whose text echoes the credential",
    asserts: "the credential is redacted from the failing up's message, and the next up converges",
    async run(w) {
      const p = standardProgram();
      w.control.scriptOperations(
        { action: "create_branch", count: 1 },
        { kind: "error", message: `storage quota exceeded for ${DEMO.personalKey}` },
      );
      w.faults += 1;
      await w.up(p);
      const [, err] = onlyError(w, "Branch", p);
      assert.match(err.message, /storage quota exceeded for napi_\[REDACTED\]/);
      w.assertNoSecretLeaks();
      // The converged branch's connection string is a secret output; `finish` checks after destroy.
      await w.up(p);
      assertConverged(w, p);
    },
  },
  {
    fault: "operation stuck past the timeout (start_compute 1.2 s, create timeout 0.3 s)",
    asserts:
      "the branch is recorded as a partial failure listing its pending operation; the next up resumes and converges",
    emulator: { opDurationMs: { default: 20, start_compute: 1200 } },
    async run(w) {
      const p = standardProgram();
      p[0]!.inputs.timeouts = { create: 0.3 };
      await w.up(p);
      const [name, err] = onlyError(w, "Branch", p);
      assert.equal(name, "branchA");
      assert.match(err.message, /Timed out/);
      const pending = w.state.get(name)?.outs.pendingOperationIds as string[];
      const compute = w.control
        .dumpState()
        .operations.find((op) => op.action === "start_compute" && pending.includes(op.id));
      assert.ok(compute, "the unfinished start_compute is among the pending operations");
      await w.up(p);
      assertConverged(w, p);
      assertCreatedOnce(w, p);
    },
  },
  {
    fault: "a key revoked out of band",
    asserts: "refresh drops it from the state and the next up creates a new one",
    async run(w) {
      const p = standardProgram();
      await w.up(p);
      const old = w.state.get("personalKey")!.outs.keyId as number;
      w.control.revokeApiKey(old);
      w.faults += 1;
      await w.refresh();
      assert.deepEqual([...w.errors], []);
      assert.equal(w.state.has("personalKey"), false);
      await w.up(p);
      assertConverged(w, p);
      assert.notEqual(w.state.get("personalKey")!.outs.keyId, old);
    },
  },
  {
    fault: "a branch deleted and a key revoked out of band, then destroy",
    asserts: "destroy counts the missing objects as gone (204 / not found) and finishes",
    async run(w) {
      const p = standardProgram();
      await w.up(p);
      assertConverged(w, p);
      w.control.deleteBranch(DEMO.projectId, w.state.get("branchB")!.id);
      w.control.revokeApiKey(w.state.get("projectKey")!.outs.keyId as number);
      w.faults += 2;
      await sleep(60); // the out-of-band delete's operations finish
    },
  },
  {
    fault: "project transferred out of its organization",
    asserts: "its project-scoped key gets a clear 401 on the next use; destroy still revokes it",
    async run(w) {
      const p = standardProgram();
      await w.up(p);
      assertConverged(w, p);
      const token = w.state.get("projectKey")!.outs.key as string;
      const scoped = async () =>
        getOperations({ projectId: DEMO.orgProjectId }, { apiKey: token, apiUrl: w.proxy.url });
      assert.ok((await scoped()).operations.length > 0, "the key works before the transfer");
      w.control.transferProject(DEMO.orgProjectId, null, DEMO.userId);
      w.faults += 1;
      const err = await scoped().catch((e: Error) => e);
      assert.ok(isUnauthorized(err), errorText(err));
      w.allErrors.push(err);
      assert.match(err.message, /401 Unauthorized/);
      assert.match(err.message, /missing, invalid or revoked/);
      await w.refresh();
      assert.deepEqual(
        [...w.errors].map(([n, e]) => `${n}: ${e.message}`),
        [],
      );
    },
  },
  {
    fault: "a revoked credential (401)",
    asserts: "every step fails with a clear 401 naming how to fix it, and nothing is changed",
    async run(w) {
      const p = standardProgram();
      const credential = w.control.createApiKey({ userId: DEMO.userId, name: "fm-ci-credential" });
      w.control.revokeApiKey(credential.id);
      w.faults += 1;
      w.useCredential(credential.key);
      const before = w.created();
      await w.up(p);
      assert.equal(w.errors.size, p.length, "every resource fails");
      for (const err of w.errors.values()) {
        // A create stops at check (the configuration is checked there), an update may get further.
        assert.ok(isUnauthorized(err) || err instanceof CheckFailed, err.message);
        assert.match(err.message, /401 Unauthorized/);
        assert.match(err.message, /clouddb:apiKey|CLOUDDB_API_KEY/);
      }
      assert.equal(w.state.size, 0);
      assert.deepEqual(w.created(), before, "nothing was created or changed");
      assert.ok(
        w.control.requests().every((r) => r.status === 401),
        "every request was refused",
      );
    },
  },
];

describe("fault matrix: faults injected while the provider and client work, end state exactly right", function () {
  this.timeout(60_000);

  after(() => {
    console.log(
      `fault matrix: rows run ${TOTALS.rows}, faults injected ${TOTALS.faults}, objects checked ${TOTALS.objects}, ` +
        `reported (not re-sent, said so) ${TOTALS.reported}, lost = ${TOTALS.lost}`,
    );
  });

  for (const row of ROWS) {
    it(`${row.fault}: ${row.asserts}`, async () => {
      const w = await World.start(row.emulator);
      try {
        await row.run(w);
        await w.finish();
      } finally {
        await w.stop();
      }
    });
  }
});
