import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import type { Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The official CLI (`neonctl`, unchanged) on a branch's functions and triggers (docs/api-rules.md
// §27): `functions deploy` (bundled with the esbuild the CLI ships, and --no-bundle), waiting on the
// deployment's status until it completes; `functions list`, `get`, `delete`; `triggers create`,
// `list`, `get`, `update`, `disable`, `enable`, `delete`.
// Not here: `neonctl deploy` is `config apply` on a neon.ts policy (the config-as-code command), not
// a function route; `functions domains` belongs to custom domains.

describe("the official CLI (neonctl): functions and triggers", function () {
  this.timeout(120_000);
  const cli = useNeonctl({ seed: "demo" });
  const { ok, neonctl } = cli;
  const on = ["--project-id", DEMO.projectId, "--branch", DEMO.branchId];
  let src = "";

  before(() => {
    // The CLI waits on a deployment by polling every two seconds unless told otherwise.
    process.env.NEON_FUNCTIONS_POLL_INTERVAL_MS = "100";
    src = mkdtempSync(join(tmpdir(), "fn-src-"));
    writeFileSync(join(src, "index.mjs"), "export default { fetch: () => new Response('hello') };\n");
  });
  after(() => {
    delete process.env.NEON_FUNCTIONS_POLL_INTERVAL_MS;
    rmSync(src, { recursive: true, force: true });
  });

  it("functions deploy waits until the deployment completes; list and get show it; a redeploy is a new version", async () => {
    const first = await ok("functions", "deploy", "hello", "--src", src, "--env", "GREETING=hi", ...on);
    assert.deepEqual([first.id, first.status], [1, "completed"]);
    assert.equal(first.invocation_url, `${cli.emu.origin}/__functions/${DEMO.branchId}-hello/`);
    const listed = await ok("functions", "list", ...on);
    assert.deepEqual(
      listed.map((f: Json) => f.slug),
      ["hello"],
    );
    const again = await ok("functions", "deploy", "hello", "--src", src, "--no-bundle", ...on);
    assert.equal(again.id, 2);
    const got = await ok("functions", "get", "hello", ...on);
    assert.deepEqual([got.current_deployment.id, got.active_deployment.id], [2, 2]);
    assert.deepEqual(
      got.active_deployment.environment,
      ["GREETING"],
      "a deployment without --env keeps the variables",
    );
  });

  it("triggers create, update, disable, enable, get, list and delete", async () => {
    const made = await ok(
      "triggers",
      "create",
      "--function-slug",
      "hello",
      "--name",
      "nightly",
      "--cron",
      "0 3 * * *",
      ...on,
    );
    const id = made.trigger_id as string;
    assert.ok(id, JSON.stringify(made));
    await ok(
      "triggers",
      "create",
      "--function-slug",
      "hello",
      "--name",
      "uploads",
      "--bucket",
      "media",
      "--prefix",
      "in/",
      ...on,
    );
    const updated = await ok("triggers", "update", id, "--cron", "15 4 * * *", ...on);
    assert.equal(updated.schedule.cron, "15 4 * * *");
    await ok("triggers", "disable", id, ...on);
    const disabled = await ok("triggers", "get", id, ...on);
    assert.equal(disabled.enabled, false);
    await ok("triggers", "enable", id, ...on);
    const listed = await ok("triggers", "list", ...on);
    assert.deepEqual(listed.map((t: Json) => t.name).sort(), ["nightly", "uploads"]);
    await ok("triggers", "delete", id, ...on);
    const gone = await neonctl("triggers", "get", id, ...on);
    assert.notEqual(gone.code, 0);
  });

  it("functions delete removes it; deleting it again says it is not found", async () => {
    await ok("functions", "delete", "hello", ...on);
    const again = await neonctl("functions", "delete", "hello", ...on);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /not found/);
  });
});
