// The preview tells the truth: for a parent's rename, an endpoint change and out-of-band drift, the
// steps `pulumi preview` plans are exactly the steps the `up` performs; a refresh of untouched
// resources changes nothing.
import * as assert from "node:assert/strict";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import type { E2eStack } from "./support/stack";

const PROJECT = DEMO.orgProjectId;

const program = (devName: string, devEndpoints: { type: string }[]): Declared[] => [
  { kind: "Branch", res: "dev", args: { projectId: PROJECT, name: devName, endpoints: devEndpoints } },
  { kind: "Branch", res: "feature", args: { projectId: PROJECT, parentId: "@dev.branchId" } },
  { kind: "Branch", res: "auto", args: { projectId: PROJECT } },
];

describe("e2e: preview plans exactly what up does", function () {
  this.timeout(5 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  /** `op name` for every step that is not `same`, sorted. */
  function steps(events: EngineEvent[]): string[] {
    return events
      .flatMap((e) => (e.resourcePreEvent === undefined ? [] : [e.resourcePreEvent.metadata]))
      .filter((m) => m.op !== "same" && m.type.startsWith("pulumi-nodejs:dynamic/"))
      .map((m) => `${m.op} ${m.urn.split("::").pop()}`)
      .sort();
  }

  async function previewThenUp(): Promise<{ planned: string[]; done: string[] }> {
    const previewed: EngineEvent[] = [];
    await e2e.stack.preview({ onEvent: (e) => previewed.push(e) });
    const applied: EngineEvent[] = [];
    await e2e.stack.up({ onEvent: (e) => applied.push(e) });
    return { planned: steps(previewed), done: steps(applied) };
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 50 });
    e2e = await crashFixtureStack(emulator, "preview", {
      resources: program("dev", []),
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
    });
    await e2e.stack.up();
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("a refresh of untouched branches (named, auto-named, default parent, no computes) changes nothing", async () => {
    const refreshed = await e2e.stack.refresh();
    const changes = refreshed.summary.resourceChanges ?? {};
    assert.deepEqual(Object.keys(changes), ["same"], JSON.stringify(changes));
  });

  it("renaming a parent previews as one update, and the up does that update and nothing else", async () => {
    await declareResources(e2e, program("dev-renamed", []));
    const { planned, done } = await previewThenUp();
    assert.deepEqual(planned, ["update dev"]);
    assert.deepEqual(done, planned);
  });

  it("an endpoint change previews the in-place update the up then performs, and the branch keeps its id", async () => {
    const idOfDev = () =>
      (
        JSON.parse(e2e.rawState()) as {
          checkpoint: { latest: { resources: { urn: string; id?: string }[] } };
        }
      ).checkpoint.latest.resources.find((r) => r.urn.endsWith("::dev"))?.id;
    const before = idOfDev();
    await declareResources(e2e, program("dev-renamed", [{ type: "read_write" }]));
    const { planned, done } = await previewThenUp();
    assert.deepEqual(planned, ["update dev"]);
    assert.deepEqual(done, planned);
    assert.equal(idOfDev(), before);
  });

  it("after a rename out of band, preview and up both plan the rename back, and refresh shows the drift", async () => {
    const state = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest: { resources: { urn: string; id?: string }[] } };
    };
    const dev = state.checkpoint.latest.resources.find((r) => r.urn.endsWith("::dev"))?.id as string;
    const renamed = await fetch(`${emulator.url}/projects/${PROJECT}/branches/${dev}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ branch: { name: "renamed-in-console" } }),
    });
    assert.equal(renamed.status, 200);
    const refreshed = await e2e.stack.refresh();
    assert.equal(refreshed.summary.resourceChanges?.update, 1, JSON.stringify(refreshed.summary));
    const { planned, done } = await previewThenUp();
    assert.deepEqual(planned, ["update dev"]);
    assert.deepEqual(done, planned);
  });
});
