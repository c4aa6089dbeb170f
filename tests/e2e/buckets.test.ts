// Buckets through the real engine (docs/api-rules.md §26). In TypeScript: `up` killed (SIGKILL of the
// CLI and the provider) after the service made the bucket and before its answer reached the
// provider; the next unattended `up` takes that bucket (its generated name carries the create key's
// mark) and records it once; then a preview and a refresh with no change, `forceDestroy` changed in
// place with no request, and a destroy that empties the bucket an app uploaded to (through a
// presigned URL) before deleting it. In YAML through the provider plugin: a bucket imported, another
// adopted, the same cycle. No presigned URL's signature reaches a state file or the engine's output.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { call } from "../emulator/helpers";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests } from "./support/stack";

const PROJECT = DEMO.projectId;
const BRANCH = DEMO.branchId;
const BUCKETS = `/projects/${PROJECT}/branches/${BRANCH}/buckets`;

/** The branch's buckets as the emulator holds them. */
const bucketsOf = (emulator: RunningEmulator) =>
  emulator.control.dumpState().branches.find((b) => b.id === BRANCH)?.buckets ?? [];

/** Uploads `text` as `bucket/key` through a presigned URL, as an app would; the URL's signature. */
async function upload(emulator: RunningEmulator, bucket: string, key: string, text: string): Promise<string> {
  const signed = await call(
    emulator.url,
    "POST",
    `${BUCKETS}/${bucket}/objects/${encodeURIComponent(key)}/presign`,
    {
      key: DEMO.personalKey,
      body: { operation: "upload" },
    },
  );
  assert.equal(signed.status, 200, signed.text);
  assert.equal((await fetch(signed.body.url, { method: "PUT", body: text })).status, 200);
  return new URL(signed.body.url).searchParams.get("X-Signature") ?? "";
}

describe("e2e: a bucket converges after a killed create, changes in place, and destroy empties it", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const declared = (forceDestroy: boolean): Declared[] => [
    { kind: "Bucket", res: "files", args: { projectId: PROJECT, branchId: BRANCH, forceDestroy } },
  ];
  const recorded = () => {
    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
    };
    return (state.checkpoint.latest?.resources ?? []).filter(
      (r) => r.type === "pulumi-nodejs:dynamic/clouddb:Bucket",
    );
  };

  /** The next pipeline run: Pulumi's lock removed by its own command, then the plain command. */
  async function nextRun(command: "up" | "destroy", kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, [command, "--yes", "--skip-preview"], kill);
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await crashFixtureStack(emulator, "crash-bucket", { env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" } });
  });
  after(async () => {
    await nextRun("destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("kills up once the bucket is made and its answer held; the next up takes it and records it once", async () => {
    await declareResources(e2e, declared(false));
    emulator.control.failNext("POST /projects/{project_id}/branches/{branch_id}/buckets", { holdMs: 60_000 });
    const killed = await nextRun("up", {
      killWhen: () => bucketsOf(emulator).length === 1,
      killAfterMs: 300,
    });
    assert.equal(killed.code, "killed", `up was not killed after the bucket was made:\n${killed.output}`);
    assert.deepEqual(killed.leftover, [], "processes of the killed run still running 15 s after it");
    emulator.control.clearFaults();
    const run = await nextRun("up");
    assert.equal(run.code, 0, run.output);
    assert.equal(bucketsOf(emulator).length, 1, "one bucket, not two");
    assert.equal(recorded().length, 1, "recorded once");
  });

  it("previews and refreshes with no change and no request that changes anything; forceDestroy changes in place with none", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 2 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 2 }, e2e.output.join("\n"));
    const id = recorded()[0]?.id;
    await declareResources(e2e, declared(true));
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 1, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
    assert.equal(recorded()[0]?.id, id, "the same bucket");
  });

  it("destroy deletes the objects an app uploaded, then the bucket; no signature in the state or the output", async () => {
    const name = bucketsOf(emulator)[0]?.name ?? "";
    const signature = await upload(emulator, name, "avatars/1.png", "png");
    await upload(emulator, name, "readme.txt", "hello");
    const run = await nextRun("destroy");
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(bucketsOf(emulator), []);
    assert.ok(!e2e.rawState().includes(signature) && !run.output.includes(signature));
  });
});

describe("e2e: buckets imported and adopted into a YAML program through the plugin", function () {
  this.timeout(8 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({
      copyOf: fixture("bucket-yaml"),
      emulator,
      language: "yaml",
      config: { projectId: PROJECT, branchId: BRANCH },
    });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports one, adopts the other; previews and refreshes with no change; forceDestroy in place; destroy empties both", async () => {
    for (const [name, access_level] of [
      ["by-hand", "public_read"],
      ["kept-by-hand", "private"],
    ]) {
      const made = await call(emulator.url, "POST", BUCKETS, {
        key: DEMO.personalKey,
        body: { name, access_level },
      });
      assert.equal(made.status, 201, made.text);
    }
    const signature = await upload(emulator, "by-hand", "docs/a.txt", "a");
    await upload(emulator, "kept-by-hand", "b.txt", "b");
    const imported = await e2e.stack.import({
      resources: [{ type: "clouddb:index:Bucket", name: "files", id: `${PROJECT}/${BRANCH}/by-hand` }],
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    emulator.control.clearRequests();
    const adopted = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(adopted).create, 1, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), [], "adopting sends nothing");

    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 3 }, e2e.output.join("\n"));
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(refresh.summary.resourceChanges, { same: 3 }, e2e.output.join("\n"));

    await e2e.stack.setConfig("forceDestroy", { value: "true" });
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changesOf(up).update, 2, e2e.output.join("\n"));
    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(bucketsOf(emulator), []);
    assert.ok(!e2e.rawState().includes(signature) && !e2e.output.join("\n").includes(signature));
  });
});
