import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, type RunningEmulator } from "../../emulator";
import { blobsInUse } from "../../emulator/families/branch-data";
import type { BranchRecord } from "../../emulator/records";
import { api, deployTo, start, zipOf } from "./helpers";

// Function archives live in the emulator's object store by their SHA-256 (emulator/families/
// functions.ts): a deployment names its archive, deployments of the same archive share one blob,
// the sweep keeps what any family names, and a state an older emulator saved with the archives
// inline (base64) is moved to the store when it loads.

const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`;
const ZIP = zipOf({ "index.mjs": "export default () => new Response('hello');\n" });
const ZIP_SHA = createHash("sha256").update(ZIP).digest("hex");

describe("emulator: function archives in the object store", () => {
  let dir: string;
  let file: string;
  let emu: RunningEmulator | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-archives-"));
    file = join(dir, "state.json");
  });
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const blobs = () => (existsSync(`${file}.objects`) ? readdirSync(`${file}.objects`).sort() : []);
  const deploymentsOf = (running: RunningEmulator, slug: string) =>
    running.control
      .dumpState()
      .branches.find((b) => b.id === DEMO.branchId)
      ?.functions?.find((f) => f.slug === slug)?.deployments ?? [];

  it("keeps an archive once by its SHA-256: two functions and a config-only deployment share one blob, and the state holds none of its bytes", async () => {
    emu = await start({ stateFile: file });
    assert.equal((await deployTo(emu, "one", { zip: ZIP })).status, 201);
    assert.equal((await deployTo(emu, "two", { zip: ZIP })).status, 201);
    assert.equal((await deployTo(emu, "two", { environment: '{"A":"1"}' })).status, 201);
    assert.deepEqual(
      [...deploymentsOf(emu, "one"), ...deploymentsOf(emu, "two")].map((d) => d.archive),
      [ZIP_SHA, ZIP_SHA, ZIP_SHA],
    );
    assert.deepEqual(blobs(), [ZIP_SHA], "one blob for the three deployments");
    emu.control.flush();
    const saved = readFileSync(file, "utf8");
    assert.ok(!saved.includes(ZIP.toString("base64").slice(0, 40)), "the state file holds no archive bytes");
  });

  it("forgets an archive once no function of any branch names it", async () => {
    emu = await start({ stateFile: file });
    const http = api(emu, DEMO.personalKey);
    await deployTo(emu, "one", { zip: ZIP });
    await deployTo(emu, "two", { zip: ZIP });
    assert.equal((await http.delete(`${B}/functions/one`)).status, 204);
    assert.deepEqual(blobs(), [ZIP_SHA], "function two still names it");
    assert.equal((await http.delete(`${B}/functions/two`)).status, 204);
    assert.deepEqual(blobs(), []);
  });

  it("counts every family's blobs in the sweep: a bucket's objects and a function's archives", () => {
    const branch = {
      buckets: [{ name: "b", access_level: "private", created_at_ms: 0, objects: { k: { blob: "obj" } } }],
      functions: [{ id: "f", slug: "f", created_at_ms: 0, deployments: [{ archive: "zip" }] }],
    } as unknown as BranchRecord;
    assert.deepEqual([...blobsInUse([branch])].sort(), ["obj", "zip"]);
  });

  it("loads a state an older emulator saved with archives inline: moves them to the object store and runs the function", async () => {
    emu = await start({ stateFile: file });
    await deployTo(emu, "hello", { zip: ZIP });
    emu.control.advance(1_000);
    await emu.stop();
    // The shape an older emulator wrote: the archive base64 in the deployment, no object store.
    const state = JSON.parse(readFileSync(file, "utf8")) as { branches: Record<string, unknown>[] };
    const main = state.branches.find((b) => b["id"] === DEMO.branchId) as {
      functions: { deployments: Record<string, unknown>[] }[];
    };
    for (const d of main.functions[0]?.deployments ?? []) {
      delete d["archive"];
      d["zip_base64"] = ZIP.toString("base64");
    }
    writeFileSync(file, JSON.stringify(state));
    rmSync(`${file}.objects`, { recursive: true, force: true });

    emu = await start({ stateFile: file });
    const [deployment] = deploymentsOf(emu, "hello");
    assert.equal(deployment?.archive, ZIP_SHA);
    assert.ok(!("zip_base64" in (deployment ?? {})), "the inline copy is gone");
    assert.deepEqual(blobs(), [ZIP_SHA]);
    emu.control.flush();
    assert.ok(!readFileSync(file, "utf8").includes("zip_base64"), "the state is saved in today's shape");
    const fn = (await api(emu, DEMO.personalKey).get(`${B}/functions/hello`)).body.function;
    const answer = await fetch(fn.invocation_url);
    assert.equal(await answer.text(), "hello");
  });
});
