// The real Pulumi engine driving Project, Endpoint and getConnectionUriOutput from the package
// installed from `npm pack`, against the emulator: up, a no-change preview, refresh after an
// out-of-band delete, an in-place update, a replace, destroy; no connection string in plain text in
// the state file at any step.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { UpResult } from "@pulumi/pulumi/automation";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { installPackedProject } from "./support/package";
import { collect, createStack, type E2eStack } from "./support/stack";

const MUTATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

interface Objects {
  projectName: string;
  regionId: string;
  historyRetentionSeconds: number;
  replicaMaxCu: number;
}

describe("e2e: Project and Endpoint under the real Pulumi engine", function () {
  this.timeout(15 * 60 * 1000);
  let workDir: string;
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const spec: Objects = {
    projectName: "e2e-objects",
    regionId: "aws-us-east-2",
    historyRetentionSeconds: 86400,
    replicaMaxCu: 1,
  };
  const ids = { project: "", endpoint: "" };

  const setSpec = () => e2e.stack.setConfig("objects", { value: JSON.stringify(spec) });
  const mutations = () =>
    emulator.control
      .requests()
      .filter((r) => MUTATING.has(r.method))
      .map((r) => r.route);
  const changes = (r: UpResult) => r.summary.resourceChanges ?? {};
  const outputs = async () => {
    const out = await e2e.stack.outputs();
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.value as string]));
  };
  /** The raw state file holds no connection string in plain text, and the stack outputs holding one are secrets. */
  const assertNoPlainUri = async () => {
    const text = e2e.rawState();
    assert.ok(!text.includes("postgresql://"), "a connection string is in the state in plain text");
    const out = await e2e.stack.outputs();
    assert.equal(out.connectionUri?.secret, true);
    assert.equal(out.pooledUri?.secret, true);
  };
  const project = (id: string) => emulator.control.snapshot().projects.find((p) => p.id === id);

  before(async () => {
    workDir = installPackedProject(path.join(__dirname, "fixtures/objects"));
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await createStack({
      workDir,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      stackName: "objects",
    });
    await setSpec();
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it("creates the project and its read replica, with connection strings as secrets", async () => {
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).create, 3, e2e.output.join("\n"));
    const out = await outputs();
    ids.project = out.projectId!;
    ids.endpoint = out.endpointId!;
    assert.equal(project(ids.project)?.name, "e2e-objects");
    assert.match(out.connectionUri!, /^postgresql:\/\//);
    assert.match(out.pooledUri!, /^postgresql:\/\/[^@]+@[^.]+-pooler\./);
    assert.equal(out.pooledHost, `${ids.endpoint}-pooler.${out.pooledHost!.split(".").slice(1).join(".")}`);
    await assertNoPlainUri();
  });

  it("previews no change and sends no mutating request when nothing changed", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 3 }, e2e.output.join("\n"));
    assert.deepEqual(mutations(), []);
  });

  it("drops a compute deleted out of band on refresh, and creates it again on up", async () => {
    const gone = await fetch(`${emulator.url}/projects/${ids.project}/endpoints/${ids.endpoint}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${DEMO.personalKey}` },
    });
    assert.equal(gone.status, 200);
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.equal(refresh.summary.resourceChanges?.delete, 1, e2e.output.join("\n"));
    await assertNoPlainUri();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).create, 1, e2e.output.join("\n"));
    const again = (await outputs()).endpointId!;
    assert.notEqual(again, ids.endpoint);
    ids.endpoint = again;
  });

  it("renames the project and resizes the replica in place: same ids, one PATCH each", async () => {
    spec.projectName = "e2e-objects-renamed";
    spec.historyRetentionSeconds = 3600;
    spec.replicaMaxCu = 2;
    await setSpec();
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).update, 2, e2e.output.join("\n"));
    const out = await outputs();
    assert.deepEqual([out.projectId, out.endpointId], [ids.project, ids.endpoint]);
    assert.deepEqual(mutations().sort(), [
      "PATCH /projects/{project_id}",
      "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
    ]);
    assert.deepEqual(
      [project(ids.project)?.name, project(ids.project)?.history_retention_seconds],
      ["e2e-objects-renamed", 3600],
    );
    await assertNoPlainUri();
  });

  it("replaces the project, and with it the replica, when the region changes; the old project is deleted", async () => {
    spec.regionId = "aws-eu-central-1";
    await setSpec();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).replace, 2, e2e.output.join("\n"));
    const out = await outputs();
    assert.notEqual(out.projectId, ids.project);
    assert.equal(project(out.projectId!)?.region_id, "aws-eu-central-1");
    assert.notEqual(project(ids.project)?.deleted_at_ms, undefined, "the old project is deleted");
    ids.project = out.projectId!;
    ids.endpoint = out.endpointId!;
    await assertNoPlainUri();
  });

  it("deletes the compute and the project on destroy", async () => {
    await e2e.stack.destroy(collect(e2e.output));
    assert.notEqual(project(ids.project)?.deleted_at_ms, undefined);
    assert.equal(
      emulator.control.snapshot().endpoints.some((e) => e.id === ids.endpoint),
      false,
    );
  });
});
