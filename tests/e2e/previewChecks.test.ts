// The real Pulumi engine, the package installed from `npm pack`, the emulator: what `pulumi preview`
// catches in the stack's configuration before anything is changed, what `pulumi up` prints while it
// waits on operations, and the warning for a key kept in plain text.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

/** Long enough that a wait polls several times and crosses whole seconds. */
const OP_MS = 2500;
const WRONG_KEY = `napi_${"w".repeat(64)}`;

describe("e2e: configuration checked at preview, progress while waiting", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  const branchIn = (projectId: string, res = "dev") => ({
    branches: [{ res, projectId, name: res, endpoints: [{ type: "read_write" }] }],
  });
  /** A program that plans a create: only a planned create or update checks the configuration. */
  const planned = (projectId: string = DEMO.orgProjectId) => setScenario(branchIn(projectId, "planned"));
  const setScenario = (s: object) => e2e.stack.setConfig("scenario", { value: JSON.stringify(s) });
  const text = () => e2e.output.join("");

  /** Runs `pulumi preview`, expecting it to fail; returns everything it printed. */
  async function failingPreview(): Promise<string> {
    let failure: unknown;
    await e2e.stack.preview(collect(e2e.output)).catch((err: unknown) => {
      failure = err;
    });
    assert.ok(failure !== undefined, `preview should fail:\n${text()}`);
    return `${text()}\n${String(failure)}`;
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: OP_MS });
    e2e = await programStack({
      packed: fixture("scenario"),
      emulator,
      env: { CLOUDDB_POLL_INTERVAL_MS: "100,1000" },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  describe("each config mistake fails the preview of a planned create, saying what to do", () => {
    beforeEach(() => planned());
    afterEach(async () => {
      await e2e.stack.setConfig("clouddb:apiUrl", { value: emulator.url });
      await e2e.stack.setConfig("clouddb:apiKey", { value: DEMO.personalKey, secret: true });
    });

    it("no API key", async () => {
      await e2e.stack.removeConfig("clouddb:apiKey");
      const out = await failingPreview();
      assert.match(out, /No API key for the Cloud Database API/);
      assert.match(out, /pulumi config set --secret clouddb:apiKey/);
    });

    it("an API URL without /api/v2", async () => {
      await e2e.stack.setConfig("clouddb:apiUrl", { value: emulator.url.replace(/\/api\/v2$/, "") });
      const out = await failingPreview();
      assert.match(out, /does not end in \/api\/v2/);
      assert.match(out, /pulumi config set clouddb:apiUrl/);
    });

    it("an unreachable API", async () => {
      await e2e.stack.setConfig("clouddb:apiUrl", { value: "http://127.0.0.1:9/api/v2" });
      const out = await failingPreview();
      assert.match(out, /the API at http:\/\/127\.0\.0\.1:9\/api\/v2 could not be reached \(ECONNREFUSED/);
      assert.match(out, /check clouddb:apiUrl/);
    });

    it("a key the API refuses (401)", async () => {
      await e2e.stack.setConfig("clouddb:apiKey", { value: WRONG_KEY, secret: true });
      const out = await failingPreview();
      assert.match(out, /the API refused the API key \(401 Unauthorized, request id [\w-]+\)/);
      assert.match(out, /pulumi config set --secret clouddb:apiKey/);
      assert.doesNotMatch(out, new RegExp(WRONG_KEY));
    });

    it("an unknown project (404)", async () => {
      await planned("no-such-project-404");
      const out = await failingPreview();
      assert.match(out, /project no-such-project-404 was not found with this API key \(404 Not Found/);
      assert.match(out, /check projectId/);
    });

    it("a project the key may not use (403)", async () => {
      await planned(DEMO.memberProjectId);
      const out = await failingPreview();
      assert.match(
        out,
        new RegExp(`this API key may not use project ${DEMO.memberProjectId} \\(403 Forbidden`),
      );
    });

    it("and an organization the key may not use (403)", async () => {
      await setScenario({ keys: [{ res: "org", name: "org-key", orgId: "org-not-mine-12345678" }] });
      const out = await failingPreview();
      assert.match(out, /organization org-not-mine-12345678/);
      assert.match(out, /check orgId/);
    });
  });

  describe("then a correct configuration", () => {
    before(() => setScenario(branchIn(DEMO.orgProjectId)));

    it("up prints one line per operation state change while it waits, and warns about a plaintext key", async () => {
      await e2e.stack.setConfig("clouddb:apiKey", { value: DEMO.personalKey });
      const up = await e2e.stack.up(collect(e2e.output));
      assert.equal(up.summary.resourceChanges?.create, 2, text());
      const lines = text()
        .split("\n")
        .map((l) => /((?:create_branch|start_compute) \S+ on \S+(?: of \S+)?: [\w ,()]+?) \((\d+)s\)/.exec(l))
        .filter((m) => m !== null);
      const states = lines.map((m) => m[1]);
      // An operation shows once it has taken two seconds: its state then, and each change after.
      assert.ok(
        lines.some((m) => /^create_branch \S+ on br-[\w-]+: finished$/.test(m[1] ?? "") && Number(m[2]) >= 2),
        text(),
      );
      assert.ok(
        states.some((s) => /^start_compute \S+ on ep-[\w-]+ of br-[\w-]+: finished$/.test(s ?? "")),
        text(),
      );
      // The engine shows each line twice: live, then in the stack's diagnostics at the end.
      for (const state of new Set(states)) {
        assert.ok(
          states.filter((s) => s === state).length <= 2,
          `${state} reported more than once:\n${text()}`,
        );
      }
      assert.match(text(), /clouddb:apiKey is stored in plain text/);
      assert.match(text(), /pulumi config set --secret clouddb:apiKey <key>/);
    });

    it("a preview with no changes makes no API call, and says nothing about a key kept as a secret", async () => {
      await e2e.stack.setConfig("clouddb:apiKey", { value: DEMO.personalKey, secret: true });
      emulator.control.clearRequests();
      const preview = await e2e.stack.preview(collect(e2e.output));
      assert.equal(preview.changeSummary.same, 2, text());
      assert.deepEqual(emulator.control.requests(), []);
      assert.doesNotMatch(text(), /plain text/);
    });
  });
});
