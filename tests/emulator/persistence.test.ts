import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { api, type Json, start } from "./helpers";

// --state-file: state survives a restart; writes are atomic.

describe("state file", () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-emulator-"));
    file = join(dir, "nested", "state.json");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps branches, keys, revocations, operations and the clock across a restart", async () => {
    let emu = await start({ stateFile: file, opDurationMs: 1000 });
    assert.ok(existsSync(file), "the file exists from the start");
    let demo = api(emu, DEMO.personalKey);
    const branch = await demo.post(`/projects/${DEMO.projectId}/branches`, { branch: { name: "kept" } });
    const key = await demo.post("/api_keys", { key_name: "kept-key" });
    const doomed = await demo.post("/api_keys", { key_name: "doomed" });
    await demo.delete(`/api_keys/${doomed.body.id}`);
    emu.control.advance(400);
    const clock = emu.control.now();
    await emu.stop();

    emu = await start({ stateFile: file, seed: "empty", opDurationMs: 1000 });
    demo = api(emu, DEMO.personalKey);
    assert.equal(emu.control.now(), clock, "a manual clock resumes where it stopped");
    const again = await demo.get(`/projects/${DEMO.projectId}/branches/${branch.body.branch.id}`);
    assert.equal(again.status, 200, "the state file wins over the seed");
    assert.equal(again.body.branch.name, "kept");
    assert.equal((await api(emu, key.body.key).get("/projects")).status, 200);
    assert.equal((await api(emu, doomed.body.key).get("/projects")).status, 401);
    const op = await demo.get(`/projects/${DEMO.projectId}/operations/${branch.body.operations[0].id}`);
    assert.equal(op.body.operation.status, "running", "the operation continues from where it was");
    emu.control.advance(600);
    const done = await demo.get(`/projects/${DEMO.projectId}/operations/${branch.body.operations[0].id}`);
    assert.equal(done.body.operation.status, "finished");
    await emu.stop();
    assert.deepEqual(readdirSync(join(dir, "nested")), ["state.json"], "no temporary files are left");
  });

  it("never stores a key secret in the file", async () => {
    const emu = await start({ stateFile: file });
    const made = await api(emu, DEMO.personalKey).post("/api_keys", { key_name: "secret" });
    await emu.stop();
    const text = readFileSync(file, "utf8");
    assert.ok(!text.includes(made.body.key));
    assert.ok(!text.includes(DEMO.personalKey));
    const data = JSON.parse(text) as Json;
    assert.ok(data.api_keys.some((k: Json) => k.name === "secret"));
  });

  it("writes changes soon after they happen, before stop", async () => {
    const emu = await start({ stateFile: file });
    await api(emu, DEMO.personalKey).post("/api_keys", { key_name: "early" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(readFileSync(file, "utf8").includes('"early"'));
    await emu.stop();
  });

  it("refuses to start from a corrupt state file", async () => {
    const emu = await start({ stateFile: file });
    await emu.stop();
    require("node:fs").writeFileSync(file, "{ not json");
    await assert.rejects(start({ stateFile: file }), /cannot load emulator state file/);
  });
});
