import assert from "node:assert/strict";
import { createNeonClient } from "@neon/sdk";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { zipOf } from "./helpers";

// The official SDK (@neon/sdk, unchanged) on a branch's functions and triggers: a deployment sent
// as the SDK sends it (multipart, the archive a Blob), its status, a rename, and a trigger's whole
// life (docs/api-rules.md §27).

describe("the official SDK (@neon/sdk): functions and triggers", function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let neon: ReturnType<typeof createNeonClient<true>>;
  const at = { projectId: DEMO.projectId, branchId: DEMO.branchId };

  before(async () => {
    emu = await startEmulator({ clock: "manual", limits: false });
    neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
  });
  after(() => emu.stop());

  it("deploys, lists, reads, renames and deletes a function", async () => {
    const zip = new Blob([
      new Uint8Array(zipOf({ "index.mjs": "export default () => new Response('api');\n" })),
    ]);
    const deployment = await neon.functions.deploy({ ...at, slug: "api", zip, runtime: "nodejs24" });
    assert.deepEqual([deployment.id, deployment.status], [1, "pending"]);
    emu.control.advance(3000);
    const fn = await neon.functions.get({ ...at, slug: "api" });
    assert.equal(fn.active_deployment?.status, "completed");
    assert.deepEqual(
      (await neon.functions.list(at).all()).map((f) => f.slug),
      ["api"],
    );
    assert.equal((await neon.functions.update({ ...at, slug: "api", name: "API" })).name, "API");
    await neon.triggers.create({
      ...at,
      type: "schedule",
      function_slug: "api",
      name: "hourly",
      schedule: { cron: "0 * * * *" },
    });
    const [trigger] = await neon.triggers.list(at);
    assert.ok(trigger);
    const changed = await neon.triggers.update({
      ...at,
      triggerId: trigger.trigger_id,
      type: "schedule",
      function_path: "/tick",
    });
    assert.deepEqual([changed.function_path, changed.version], ["/tick", 2]);
    assert.equal((await neon.triggers.get({ ...at, triggerId: trigger.trigger_id })).name, "hourly");
    await neon.triggers.delete({ ...at, triggerId: trigger.trigger_id });
    await neon.functions.delete({ ...at, slug: "api" });
    assert.deepEqual(await neon.triggers.list(at), []);
    assert.deepEqual(await neon.functions.list(at).all(), []);
  });
});
