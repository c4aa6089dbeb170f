// `pulumi import` into a Python program through the provider plugin, under the real engine: a project, a branch, a compute
// endpoint, a role, a database, a snapshot and a backup schedule made outside Pulumi (as a script or the console would) are
// brought into a stack by the ids each kind takes; the program that declares them as they are then
// previews and refreshes with no change, the credentials stored encrypted, and destroys them.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { projectIdle } from "../provider/support";
import type { ProgramLanguage } from "./support/languages";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack, isEncryptedSecret, stateResources } from "./support/stack";

// In YAML: the Project, Branch, ... row of importedKinds.test.ts.
for (const language of ["python"] as const satisfies ProgramLanguage[]) {
  describe(`e2e: pulumi import into a ${language} program, through the provider plugin`, function () {
    this.timeout(10 * 60 * 1000);
    let emulator: RunningEmulator;
    let e2e: E2eStack;
    /** The objects made by hand, and the id `pulumi import` takes for each. */
    const made = { projectId: "", branchId: "", endpointId: "", password: "", snapshotId: "" };

    before(async () => {
      emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
      const client = createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
      const project = await client.createProject({ project: { name: "made-by-hand" } });
      made.projectId = project.project.id;
      await projectIdle(emulator, made.projectId);
      made.branchId = (await client.createBranch(made.projectId, { branch: { name: "feature" } })).branch.id;
      await projectIdle(emulator, made.projectId);
      made.endpointId = (
        await client.createEndpoint(made.projectId, {
          endpoint: { branch_id: made.branchId, type: "read_write" },
        })
      ).endpoint.id;
      await projectIdle(emulator, made.projectId);
      const role = await client.createRole(made.projectId, made.branchId, { role: { name: "app_by_hand" } });
      made.password = role.role.password ?? "";
      await projectIdle(emulator, made.projectId);
      await client.createDatabase(made.projectId, made.branchId, {
        database: { name: "app_db", owner_name: "app_by_hand" },
      });
      await projectIdle(emulator, made.projectId);
      made.snapshotId = (
        await client.createSnapshot(made.projectId, made.branchId, { name: "by-hand" })
      ).snapshot.id;
      await client.setBackupSchedule(made.projectId, made.branchId, [{ frequency: "daily", hour: 2 }]);
      await projectIdle(emulator, made.projectId);

      e2e = await programStack({
        copyOf: fixture(`import-${language}`),
        emulator,
        language,
        env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
      });
    });
    after(async () => {
      await e2e?.dispose();
      await emulator?.stop();
    });

    it("imports each kind by its id, then previews and refreshes with no change, secrets encrypted", async () => {
      const printed: string[] = [];
      const { projectId, branchId } = made;
      const resources = [
        { type: "clouddb:index:Project", name: "project", id: projectId },
        { type: "clouddb:index:Branch", name: "feature", id: `${projectId}/${branchId}` },
        { type: "clouddb:index:Endpoint", name: "compute", id: `${projectId}/${made.endpointId}` },
        { type: "clouddb:index:Role", name: "app", id: `${projectId}/${branchId}/app_by_hand` },
        { type: "clouddb:index:Database", name: "appdb", id: `${projectId}/${branchId}/app_db` },
        { type: "clouddb:index:Snapshot", name: "nightly", id: `${projectId}/${made.snapshotId}` },
        { type: "clouddb:index:BackupSchedule", name: "backups", id: `${projectId}/${branchId}` },
      ];
      const imported = await e2e.stack.import({ resources, generateCode: false, ...collect(e2e.output) });
      printed.push(...e2e.output);
      assert.equal(imported.summary.resourceChanges?.import, 7, e2e.output.join("\n"));

      const state = stateResources(e2e.rawState());
      const of = (type: string) => state.find((r) => r.type === `clouddb:index:${type}`);
      assert.equal(of("Branch")?.id, branchId, "the branch is recorded by its own id");
      assert.equal(of("Endpoint")?.id, made.endpointId);
      assert.equal(of("Snapshot")?.id, made.snapshotId);
      assert.equal(of("BackupSchedule")?.id, branchId);
      assert.ok(isEncryptedSecret(of("Role")?.outputs?.password), "the role's password is stored encrypted");
      assert.ok(isEncryptedSecret(of("Project")?.outputs?.connectionUri));
      assert.ok(isEncryptedSecret(of("Branch")?.outputs?.connectionUri));
      const raw = e2e.rawState();
      assert.ok(!raw.includes(made.password), "the role's password is in the state in plain text");
      assert.ok(
        !/postgresql:\/\/[^:@"]+:[^@"]+@/.test(raw),
        "a connection string with a password is in the state",
      );

      const preview = await e2e.stack.preview(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(
        Object.keys(preview.changeSummary).filter((kind) => kind !== "same"),
        [],
        `the program declaring what was imported previews with no change:\n${e2e.output.join("\n")}`,
      );
      const refresh = await e2e.stack.refresh(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(
        Object.keys(refresh.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
        [],
        e2e.output.join("\n"),
      );
      const up = await e2e.stack.up(collect(e2e.output));
      printed.push(...e2e.output);
      assert.deepEqual(
        Object.keys(up.summary.resourceChanges ?? {}).filter((kind) => kind !== "same"),
        [],
        e2e.output.join("\n"),
      );
      const outputs = await e2e.stack.outputs();
      assert.equal(outputs.password?.secret, true);
      assert.equal(outputs.password?.value, made.password, "the imported password is the role's");

      await e2e.stack.destroy(collect(e2e.output));
      printed.push(...e2e.output);
      const project = emulator.control.dumpState().projects.find((p) => p.id === projectId);
      assert.notEqual(project?.deleted_at_ms, undefined, "destroy deleted the imported project");
      assert.deepEqual(emulator.control.dumpState().snapshots, [], "and the imported snapshot");
      for (const secretText of [DEMO.personalKey, made.password]) {
        assert.ok(!printed.some((line) => line.includes(secretText)), "a secret is in the CLI's output");
      }
    });
  });
}
