// Snapshot and BackupSchedule under the real Pulumi engine, on a branch with a compute, a role and
// a database: a preview of the creates; an `up` killed during the snapshot's create and again during the schedule's, then
// the unattended next run takes each once; a no-change preview and refresh; an in-place update; a
// restore from the snapshot through the provider (every id kept) and one done with the official
// CLI (`snapshots restore --finalize`), each followed by a refresh and a preview with no change;
// destroy (docs/api-rules.md §9).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { runNeonctl } from "../emulator/neonctl-harness";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { type CliRun, runCli } from "./support/kill";
import { collect, type E2eStack, mutatingRequests } from "./support/stack";

const P = DEMO.projectId;
const BRANCH_NAME = "e2e-restorable";

describe("e2e: Snapshot, BackupSchedule and restores under the real Pulumi engine", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  let cliConfig: string;
  const branchArgs: Record<string, unknown> = {
    projectId: P,
    name: BRANCH_NAME,
    endpoints: [{ type: "read_write" }],
  };
  const snapshotArgs: Record<string, unknown> = {
    projectId: P,
    branchId: "@appdb.branchId",
    name: "known-good",
  };
  const scheduleArgs: Record<string, unknown> = {
    projectId: P,
    branchId: "@snap.branchId",
    schedule: [{ frequency: "daily", hour: 3, retentionSeconds: 604_800 }],
  };
  const resources = (): Declared[] => [
    { kind: "Branch", res: "branch", args: branchArgs },
    { kind: "Role", res: "app", args: { projectId: P, branchId: "@branch.id", name: "app" } },
    {
      kind: "Database",
      res: "appdb",
      args: { projectId: P, branchId: "@app.branchId", name: "appdb", ownerName: "@app.name" },
    },
    { kind: "Snapshot", res: "snap", args: snapshotArgs },
    { kind: "BackupSchedule", res: "schedule", args: scheduleArgs },
  ];
  const declare = () => declareResources(e2e, resources());

  const state = () => emulator.control.dumpState();
  const liveBranches = () =>
    state().branches.filter((b) => b.project_id === P && b.deleted_at_ms === undefined);
  const ourBranch = () => liveBranches().find((b) => b.name === BRANCH_NAME);
  const snapshotsOf = (name: string) => state().snapshots.filter((s) => s.name.startsWith(name));
  const stateIds = () => {
    const doc = JSON.parse(e2e.rawState()) as {
      checkpoint: { latest?: { resources?: { type: string; id?: string }[] } };
    };
    const ids: Record<string, string[]> = {};
    for (const r of doc.checkpoint.latest?.resources ?? []) {
      const kind = r.type.split(":").at(-1) ?? "";
      if (r.id !== undefined) ids[kind] = [...(ids[kind] ?? []), r.id];
    }
    return ids;
  };
  const output = () => e2e.output.join("\n");

  /** Pulumi's lock removed by its own command, then the plain command (the next pipeline run). */
  async function nextRun(kill?: Parameters<typeof runCli>[2]): Promise<CliRun> {
    await runCli(e2e, ["cancel", "--yes"]);
    return runCli(e2e, ["up", "--yes", "--skip-preview"], kill);
  }

  async function noChange(): Promise<void> {
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    const changed = Object.entries(refresh.summary.resourceChanges ?? {}).filter(([k]) => k !== "same");
    assert.deepEqual(changed, [], `refresh changed something:\n${output()}`);
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 6 }, output());
    assert.deepEqual(mutatingRequests(emulator), [], "a preview changes nothing");
  }

  before(async () => {
    // Operations take 1.5 s, so a kill lands while the provider waits on the snapshot's.
    emulator = await startEmulator({ seed: "demo", opDurationMs: 1500 });
    cliConfig = mkdtempSync(path.join(tmpdir(), "e2e-neonctl-"));
    e2e = await crashFixtureStack(emulator, "snapshots", { env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" } });
    await declare();
  });
  after(async () => {
    await runCli(e2e, ["cancel", "--yes"]).catch(() => undefined);
    await e2e?.dispose({ destroy: true });
    fs.rmSync(cliConfig, { recursive: true, force: true });
    await emulator?.stop();
  });

  it("previews the five creates and sends nothing that changes anything", async () => {
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { create: 6 }, output());
    assert.deepEqual(mutatingRequests(emulator), [], "a preview changes nothing");
  });

  it("converges after up is killed during the snapshot's create and again during the schedule's: one of each", async () => {
    const snapshotTaken = () => snapshotsOf("known-good").length > 0;
    const killed = await nextRun({ killWhen: snapshotTaken, killAfterMs: 300 });
    assert.equal(killed.code, "killed", `up was not killed during the snapshot's create:\n${killed.output}`);
    assert.deepEqual(killed.leftover, []);
    // The schedule's answer is held after it is set: the kill lands before the state records it.
    emulator.control.failNext("PUT /projects/{project_id}/branches/{branch_id}/backup_schedule", {
      holdMs: 60_000,
    });
    const scheduled = () => ourBranch()?.backup_schedule !== undefined;
    const killedAgain = await nextRun({ killWhen: scheduled, killAfterMs: 300 });
    assert.equal(
      killedAgain.code,
      "killed",
      `up was not killed during the schedule's create:\n${killedAgain.output}`,
    );
    const converged = await nextRun();
    assert.equal(converged.code, 0, converged.output);
    const snapshots = snapshotsOf("known-good");
    assert.equal(snapshots.length, 1, `one snapshot, made once: ${JSON.stringify(snapshots)}`);
    const ids = stateIds();
    assert.deepEqual(ids.Snapshot, [snapshots[0]?.id]);
    assert.deepEqual(ids.BackupSchedule, [ourBranch()?.id]);
    assert.deepEqual(ourBranch()?.backup_schedule, [
      { frequency: "daily", hour: 3, retention_seconds: 604_800 },
    ]);
    await noChange();
  });

  it("renames the snapshot and moves the schedule's hour in place: same ids, a PATCH and a PUT", async () => {
    const before = stateIds();
    snapshotArgs.name = "known-good-v2";
    scheduleArgs.schedule = [{ frequency: "daily", hour: 4 }];
    await declare();
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.resourceChanges?.update, 2, output());
    assert.deepEqual(stateIds(), before);
    assert.deepEqual(
      mutatingRequests(emulator)
        .map((r) => r.route)
        .sort(),
      [
        "PATCH /projects/{project_id}/snapshots/{snapshot_id}",
        "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule",
      ],
    );
    assert.deepEqual(ourBranch()?.backup_schedule, [{ frequency: "daily", hour: 4 }]);
    await noChange();
  });

  it("restores the branch from the snapshot through the provider: an in-place update, every id kept, then no change", async () => {
    const before = stateIds();
    const snapshotId = before.Snapshot?.[0];
    const computes = state()
      .endpoints.filter((e) => e.branch_id === ourBranch()?.id)
      .map((e) => e.id);
    branchArgs.restore = { snapshotId };
    await declare();
    const up = await e2e.stack.up(collect(e2e.output));
    // The branch, and the role and database on it, read again after the restore.
    assert.deepEqual(up.summary.resourceChanges, { same: 3, update: 3 }, output());
    assert.deepEqual(stateIds(), before, "no object was replaced");
    const branch = ourBranch();
    assert.ok(branch?.last_reset_at_ms, "the branch was restored");
    assert.deepEqual(
      state()
        .endpoints.filter((e) => e.branch_id === branch?.id)
        .map((e) => e.id),
      computes,
    );
    await noChange();
  });

  it("follows a restore done with the official CLI on refresh: the stack points at the branch that carries the name and compute, then no change", async () => {
    const before = stateIds();
    const old = ourBranch();
    assert.ok(old);
    const restored = await runNeonctl(
      { url: emulator.url, configDir: cliConfig },
      "snapshots",
      "restore",
      before.Snapshot?.[0] ?? "",
      "--target-branch",
      old.id,
      "--finalize",
      "--project-id",
      P,
    );
    assert.equal(restored.code, 0, restored.stderr);
    const carrier = ourBranch();
    assert.ok(carrier && carrier.id !== old.id, "the CLI's finalize swapped the branch");
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.ok((refresh.summary.resourceChanges?.update ?? 0) >= 1, output());
    const after = stateIds();
    assert.deepEqual(after.Branch, [carrier.id], "the Branch follows the swap");
    assert.deepEqual(after.BackupSchedule, [carrier.id], "the schedule moved with the name");
    assert.deepEqual(after.Role, [`${carrier.id}/app`]);
    assert.deepEqual(after.Snapshot, before.Snapshot);
    await noChange();
    assert.equal(
      liveBranches().some((b) => b.id === old.id),
      true,
      "the replaced branch stays, renamed, outside the stack",
    );
  });

  it("destroys everything it made: the snapshot, the schedule, the role, the database and the branch", async () => {
    const carrier = ourBranch();
    const destroy = await e2e.stack.destroy(collect(e2e.output));
    // Five objects and the stack itself.
    assert.equal(destroy.summary.resourceChanges?.delete, 6, output());
    assert.deepEqual(snapshotsOf("known-good"), []);
    assert.equal(
      liveBranches().some((b) => b.id === carrier?.id),
      false,
    );
  });
});
