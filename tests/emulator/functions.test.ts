import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, deployTo, type Json, start, zipOf } from "./helpers";

// A branch's functions and triggers (docs/api-rules.md §27): a function made by its first
// deployment of a ZIP archive sent as multipart/form-data, its deployment's status moving on the
// emulator's clock, a rename, a config-only deployment, the builds that fail and why, the
// variables' values kept in the state file alone, deletion, and triggers that name a function,
// changed in place. Running functions: functions-run.test.ts.

const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`;
const ZIP = zipOf({ "index.mjs": "export default () => new Response('hello');\n" });

describe("emulator: functions and triggers", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("makes a function by its first deployment, whose status moves from pending through building to completed", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    const first = await deployTo(emu, "hello", {
      zip: ZIP,
      runtime: "nodejs24",
      environment: '{"B":"2","A":"1"}',
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.deepEqual([first.body.deployment.id, first.body.deployment.status], [1, "pending"]);
    assert.deepEqual(first.body.deployment.environment, ["A", "B"], "names only, sorted");
    assert.ok(!JSON.stringify(first.body).includes('"1"'), "no variable's value is returned");
    // Pending as long as opDurationMs (100 here), then building twice as long.
    emu.control.advance(100);
    const building = await http.get(`${B}/functions/hello`);
    assert.equal(building.body.function.current_deployment.status, "building");
    assert.equal(
      building.body.function.active_deployment,
      undefined,
      "nothing serves before a build completes",
    );
    emu.control.advance(200);
    const done = (await http.get(`${B}/functions/hello`)).body.function;
    assert.deepEqual(
      [done.slug, done.name, done.current_deployment.status, done.active_deployment.id],
      ["hello", "hello", "completed", 1],
    );
    assert.equal(done.invocation_url, `${emu.origin}/__functions/${DEMO.branchId}-hello/`);
    const listed = await http.get(`${B}/functions`);
    assert.deepEqual(
      listed.body.functions.map((f: Json) => f.slug),
      ["hello"],
    );
  });

  it("refuses a first deployment without zip, a non-multipart body, and an unknown runtime", async () => {
    emu = await start();
    assert.equal((await deployTo(emu, "hello", { runtime: "nodejs24" })).status, 400);
    assert.equal((await deployTo(emu, "hello", { zip: ZIP, runtime: "python3" })).status, 400);
    const json = await api(emu, DEMO.personalKey).post(`${B}/functions/hello/deployments`, {
      runtime: "nodejs24",
    });
    assert.equal(json.status, 400, json.text);
    assert.equal((await api(emu, DEMO.personalKey).get(`${B}/functions/hello`)).status, 404);
  });

  it("keeps the archive across a config-only deployment, fails the build of a non-ZIP archive, renames and deletes", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await deployTo(emu, "hello", { zip: ZIP });
    const second = await deployTo(emu, "hello", { environment: '{"KEY":"v"}' });
    assert.deepEqual([second.status, second.body.deployment.id], [201, 2]);
    const bad = await deployTo(emu, "hello", { zip: Buffer.from("not a zip") });
    emu.control.advance(3000);
    const fn = (await http.get(`${B}/functions/hello`)).body.function;
    assert.deepEqual(
      [fn.current_deployment.id, fn.current_deployment.status],
      [bad.body.deployment.id, "failed"],
    );
    assert.match(fn.current_deployment.error, /not a ZIP file/);
    assert.equal(fn.active_deployment.id, 2, "the newest completed deployment keeps serving");
    const renamed = await http.patch(`${B}/functions/hello`, { name: "  Hello  " });
    assert.equal(renamed.body.function.name, "Hello");
    assert.equal((await http.patch(`${B}/functions/hello`, { name: null })).body.function.name, "hello");
    assert.equal((await http.patch(`${B}/functions/hello`, { name: "   " })).status, 400);
    assert.equal((await http.delete(`${B}/functions/hello`)).status, 204);
    assert.equal((await http.get(`${B}/functions/hello`)).status, 404);
  });

  it("fails the build of a ZIP archive that cannot run: unreadable, an entry outside its folder, or no entry module at its root", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    // An entry named `../evil.mjs`: the same bytes as `xx/evil.mjs` with the folder's name changed.
    const escaping = Buffer.from(
      zipOf({ "index.mjs": "", "xx/evil.mjs": "" })
        .toString("latin1")
        .replaceAll("xx/evil.mjs", "../evil.mjs"),
      "latin1",
    );
    const cases: [Buffer, RegExp][] = [
      [Buffer.from("PK\u0003\u0004 cut short"), /cannot be read as a ZIP file/],
      [escaping, /entry "\.\.\/evil\.mjs" points outside the archive/],
      [
        zipOf({ "src/index.mjs": "export default () => new Response('');\n" }),
        /no entry module \(expected one of: index\.mjs, index\.js\)/,
      ],
      [zipOf({ "main.mjs": "", "index.ts": "" }), /no entry module/],
    ];
    for (const [zip, reason] of cases) {
      const made = await deployTo(emu, "hello", { zip });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      emu.control.advance(3000);
      const fn = (await http.get(`${B}/functions/hello`)).body.function;
      assert.equal(fn.current_deployment.status, "failed", JSON.stringify(fn));
      assert.match(fn.current_deployment.error, reason);
    }
    const js = await deployTo(emu, "hello", {
      zip: zipOf({ "index.js": "export default () => new Response('');\n" }),
    });
    emu.control.advance(3000);
    const fn = (await http.get(`${B}/functions/hello`)).body.function;
    assert.deepEqual(
      [fn.active_deployment.id, fn.active_deployment.status],
      [js.body.deployment.id, "completed"],
      "index.js at the root is an entry module too",
    );
  });

  it("keeps a deployment's variables in the state file, never in an answer, and runs it with them after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fn-state-"));
    const stateFile = join(dir, "state.json");
    try {
      emu = await start({ stateFile });
      const code = "export default () => new Response(process.env.TOKEN ?? 'none');\n";
      const made = await deployTo(emu, "keeper", {
        zip: zipOf({ "index.mjs": code }),
        environment: '{"TOKEN":"kept-value"}',
      });
      assert.ok(!JSON.stringify(made.body).includes("kept-value"));
      emu.control.advance(3000);
      await emu.stop();
      emu = await start({ stateFile });
      const fn = (await api(emu, DEMO.personalKey).get(`${B}/functions/keeper`)).body.function;
      assert.ok(!JSON.stringify(fn).includes("kept-value"), "the API shows names only");
      assert.equal(await (await fetch(fn.invocation_url)).text(), "kept-value");
    } finally {
      await emu.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("creates triggers naming a function, changes them in place, and deletes them", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await deployTo(emu, "hello", { zip: ZIP });
    const schedule = await http.post(`${B}/triggers`, {
      type: "schedule",
      function_slug: "hello",
      name: "nightly",
      schedule: { cron: "30 2 * * *" },
    });
    assert.equal(schedule.status, 201, schedule.text);
    const t = schedule.body.trigger;
    assert.deepEqual(
      [t.function_path, t.enabled, t.version, t.inherited, t.next_run_at],
      ["/", true, 1, false, "2026-01-01T02:30:00.000Z"],
    );
    const upload = await http.post(`${B}/triggers`, {
      type: "storage_object_created",
      function_slug: "hello",
      name: "uploads",
      storage_object_created: { bucket_name: "media", prefix: "in/" },
    });
    assert.equal(upload.status, 201, upload.text);
    const clash = await http.post(`${B}/triggers`, {
      type: "schedule",
      function_slug: "hello",
      name: "nightly",
      schedule: { cron: "0 * * * *" },
    });
    assert.equal(clash.status, 409);
    const missing = await http.post(`${B}/triggers`, {
      type: "schedule",
      function_slug: "nothere",
      name: "x",
      schedule: { cron: "0 * * * *" },
    });
    assert.equal(missing.status, 404);
    const url = `${B}/triggers/${t.trigger_id}`;
    const disabled = await http.patch(url, { type: "schedule", enabled: false });
    assert.deepEqual(
      [disabled.body.trigger.enabled, disabled.body.trigger.version, disabled.body.trigger.next_run_at],
      [false, 2, null],
    );
    assert.equal((await http.patch(url, { type: "storage_object_created", name: "y" })).status, 400);
    assert.equal((await http.get(`${B}/triggers`)).body.triggers.length, 2);
    assert.equal((await http.delete(url)).status, 204);
    assert.equal((await http.get(url)).status, 404);
  });
});
