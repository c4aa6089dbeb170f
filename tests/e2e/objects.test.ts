// The real Pulumi engine driving Project, Endpoint, Role, Database and getConnectionUriOutput from the package
// installed from `npm pack`, against the emulator: up, a no-change preview, refresh after an
// out-of-band delete, an in-place update, a replace, destroy; no connection string in plain text in
// the state file at any step.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { projectIdle } from "../provider/support";
import { fixture, programStack } from "./support/programStack";
import { changesOf, collect, type E2eStack, mutatingRequests } from "./support/stack";

interface Objects {
  projectName: string;
  regionId: string;
  historyRetentionSeconds: number;
  replicaMaxCu: number;
  replicaName?: string;
  replicaPgSettings?: Record<string, string>;
  roleName: string;
  databaseName: string;
}

describe("e2e: Project, Endpoint, Role and Database under the real Pulumi engine", function () {
  this.timeout(15 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const spec: Objects = {
    projectName: "e2e-objects",
    regionId: "aws-us-east-2",
    historyRetentionSeconds: 86400,
    replicaMaxCu: 1,
    roleName: "app",
    databaseName: "appdb",
  };
  const ids = { project: "", endpoint: "", database: "" };

  const setSpec = () => e2e.stack.setConfig("objects", { value: JSON.stringify(spec) });
  const mutations = () => mutatingRequests(emulator).map((r) => r.route);
  const changes = changesOf;
  const outputs = async () => {
    const out = await e2e.stack.outputs();
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.value as string]));
  };
  /** The raw state file holds no connection string and no role password in plain text; the outputs holding them are secrets. */
  const assertNoPlainUri = async () => {
    const text = e2e.rawState();
    assert.ok(!text.includes("postgresql://"), "a connection string is in the state in plain text");
    const out = await e2e.stack.outputs();
    assert.equal(out.connectionUri?.secret, true);
    assert.equal(out.pooledUri?.secret, true);
    assert.equal(out.rolePassword?.secret, true);
    const password = String(out.rolePassword?.value);
    assert.ok(
      password.length >= 8 && !text.includes(password),
      "the role's password is in the state in plain text",
    );
  };
  const databases = () =>
    emulator.control.dumpState().branches.find((b) => b.project_id === ids.project && b.default)?.databases ??
    [];
  const project = (id: string) => emulator.control.dumpState().projects.find((p) => p.id === id);

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await programStack({ packed: fixture("objects"), emulator, stackName: "objects" });
    await setSpec();
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("creates the project, its read replica, a role and a database, with connection strings and password as secrets", async () => {
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).create, 5, e2e.output.join("\n"));
    const out = await outputs();
    ids.project = out.projectId!;
    ids.endpoint = out.endpointId!;
    ids.database = out.databaseId!;
    assert.equal(project(ids.project)?.name, "e2e-objects");
    assert.equal(databases().find((d) => d.name === "appdb")?.owner_name, "app");
    assert.match(out.connectionUri!, /^postgresql:\/\//);
    assert.match(out.pooledUri!, /^postgresql:\/\/[^@]+@[^.]+-pooler\./);
    assert.equal(out.pooledHost, `${ids.endpoint}-pooler.${out.pooledHost!.split(".").slice(1).join(".")}`);
    await assertNoPlainUri();
  });

  it("previews no change and sends no mutating request when nothing changed", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 5 }, e2e.output.join("\n"));
    assert.deepEqual(mutations(), []);
  });

  it("leaves every resource's state as it was on an up that changes nothing, so the engine writes none of them step by step", async () => {
    // Each write of the state encrypts every secret afresh, and the program registers resources and
    // a resource's dependencies in no fixed order (the engine lists the resources in the order of the
    // run that wrote them): none of that says anything here, so resources are compared by URN.
    const sorted = (urns: unknown) => (Array.isArray(urns) ? [...urns].sort() : urns);
    const resources = () =>
      (
        JSON.parse(e2e.rawState(), (key, value) =>
          key === "ciphertext"
            ? "(secret)"
            : key === "dependencies"
              ? sorted(value)
              : key === "propertyDependencies"
                ? Object.fromEntries(
                    Object.entries(value as object).map(([name, urns]) => [name, sorted(urns)]),
                  )
                : value,
        ) as { checkpoint: { latest: { resources: { urn: string }[] } } }
      ).checkpoint.latest.resources.reduce<Record<string, unknown>>(
        (byUrn, resource) => Object.assign(byUrn, { [resource.urn]: resource }),
        {},
      );
    const before = resources();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(changesOf(up), { same: 5 }, e2e.output.join("\n"));
    // Inputs, outputs and the time each was last modified: the engine writes a resource whose checked
    // inputs differ from its stored ones again (with the whole state, on a file backend) at its step.
    assert.deepEqual(resources(), before);
    assert.deepEqual(mutations(), []);
  });

  it("drops a compute and a database deleted out of band on refresh, and creates them again on up", async () => {
    const branch = (await outputs()).defaultBranchId;
    for (const path of [
      `/projects/${ids.project}/endpoints/${ids.endpoint}`,
      `/projects/${ids.project}/branches/${branch}/databases/appdb`,
    ]) {
      const gone = await fetch(`${emulator.url}${path}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${DEMO.personalKey}` },
      });
      assert.equal(gone.status, 200, path);
      // The project takes new work once this change's operations end.
      await projectIdle(emulator, ids.project);
    }
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.equal(refresh.summary.resourceChanges?.delete, 2, e2e.output.join("\n"));
    await assertNoPlainUri();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).create, 2, e2e.output.join("\n"));
    const again = (await outputs()).endpointId!;
    assert.notEqual(again, ids.endpoint);
    ids.endpoint = again;
  });

  it("renames the project and the database and resizes, names and tunes the replica in place: same ids, one PATCH each", async () => {
    spec.projectName = "e2e-objects-renamed";
    spec.historyRetentionSeconds = 3600;
    spec.replicaMaxCu = 2;
    spec.replicaName = "reporting";
    spec.replicaPgSettings = { work_mem: "64MB" };
    spec.databaseName = "appdb_v2";
    await setSpec();
    const database = (await outputs()).databaseId;
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).update, 3, e2e.output.join("\n"));
    const out = await outputs();
    assert.deepEqual([out.projectId, out.endpointId, out.databaseId], [ids.project, ids.endpoint, database]);
    assert.deepEqual(mutations().sort(), [
      "PATCH /projects/{project_id}",
      "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
    ]);
    assert.ok(databases().some((d) => d.name === "appdb_v2"));
    const replica = emulator.control.dumpState().endpoints.find((e) => e.id === ids.endpoint);
    assert.deepEqual(
      [replica?.name, replica?.settings],
      ["reporting", { pg_settings: { work_mem: "64MB" } }],
    );
    assert.deepEqual(
      [project(ids.project)?.name, project(ids.project)?.history_retention_seconds],
      ["e2e-objects-renamed", 3600],
    );
    await assertNoPlainUri();
  });

  it("replaces the project, and with it the replica, the role and the database, when the region changes; the old project is deleted", async () => {
    spec.regionId = "aws-eu-central-1";
    await setSpec();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(changes(up).replace, 4, e2e.output.join("\n"));
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
      emulator.control.dumpState().endpoints.some((e) => e.id === ids.endpoint),
      false,
    );
  });
});
