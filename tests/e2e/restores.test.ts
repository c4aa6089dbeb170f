// Restores under the real Pulumi engine, with the emulator's real Postgres (docs/api-rules.md §9):
// a restore leaves the roles' state true (a password in the state logs in, a role the restore
// removed is made again), and a branch an outside restore replaced never comes back.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Client } from "pg";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { dataPlaneRun, runSql, verifyFull } from "../emulator/helpers";
import { runNeonctl } from "../emulator/neonctl-harness";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { runCli } from "./support/kill";
import { collect, type E2eStack } from "./support/stack";

const P = DEMO.projectId;
const BRANCH_NAME = "e2e-restore-roles";

/** A value of an exported state: a secret shown is `{ plaintext: "<its JSON>" }`. */
function plain(value: unknown): string {
  const shown = value as { plaintext?: string } | undefined;
  return typeof shown?.plaintext === "string" ? String(JSON.parse(shown.plaintext)) : String(value);
}

describe(`e2e: a restore leaves the roles' state true${dataPlaneRun()}`, function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;

  /** Runs `sql` on a fresh connection to `uri`, verified against the emulator's CA, and returns the rows. */
  const query = <T>(uri: string, sql: string) => runSql<T>(uri, emulator.caPath, sql);

  /** Whether `uri` logs in (verifying the endpoint) and answers a query. */
  async function logsIn(uri: string): Promise<boolean> {
    const db = new Client({ connectionString: verifyFull(uri, emulator.caPath) });
    try {
      await db.connect();
      await db.query("SELECT 1");
      return true;
    } catch {
      return false;
    } finally {
      await db.end().catch(() => undefined);
    }
  }
  let e2e: E2eStack;
  let cliConfig: string;
  const branchArgs: Record<string, unknown> = {
    projectId: P,
    name: BRANCH_NAME,
    endpoints: [{ type: "read_write" }],
  };
  const appArgs: Record<string, unknown> = { projectId: P, branchId: "@branch.id", name: "app" };
  let later = false;
  const resources = (): Declared[] => [
    { kind: "Branch", res: "branch", args: branchArgs },
    { kind: "Role", res: "app", args: appArgs },
    {
      kind: "Database",
      res: "appdb",
      args: { projectId: P, branchId: "@app.branchId", name: "appdb", ownerName: "@app.name" },
    },
    { kind: "Snapshot", res: "snap", args: { projectId: P, branchId: "@appdb.branchId", name: "before" } },
    ...(later
      ? [
          { kind: "Role", res: "later", args: { projectId: P, branchId: "@snap.branchId", name: "later" } },
          {
            kind: "Database",
            res: "laterdb",
            args: { projectId: P, branchId: "@later.branchId", name: "laterdb", ownerName: "@later.name" },
          },
        ]
      : []),
  ];
  const declare = () => declareResources(e2e, resources());
  const output = () => e2e.output.join("\n");
  const liveBranches = () =>
    emulator.control.dumpState().branches.filter((b) => b.project_id === P && b.deleted_at_ms === undefined);
  const ourBranch = () => liveBranches().find((b) => b.name === BRANCH_NAME);

  /** The state's resources of `kind`, secrets shown. */
  async function inState(kind: string): Promise<{ id: string; outputs: Record<string, unknown> }[]> {
    const exported = await e2e.stack.exportStack();
    const resources =
      (
        exported.deployment as {
          resources?: { type: string; id: string; outputs: Record<string, unknown> }[];
        }
      ).resources ?? [];
    return resources.filter((r) => r.type.endsWith(`:${kind}`));
  }

  /** Whether the password the state holds for role `name` logs in to database `db` of the branch. */
  async function statePasswordLogsIn(name: string, db: string): Promise<boolean> {
    const role = (await inState("Role")).find((r) => r.outputs.name === name);
    const branchId = String(role?.outputs.branchId);
    const live = await createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(P, {
      branchId,
      roleName: name,
      databaseName: db,
    });
    const uri = new URL(live);
    uri.password = encodeURIComponent(plain(role?.outputs.password));
    return logsIn(uri.toString());
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60, postgres: true });
    cliConfig = mkdtempSync(path.join(tmpdir(), "e2e-neonctl-"));
    e2e = await crashFixtureStack(emulator, "restores", { env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" } });
    await declare();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.result, "succeeded", output());
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    fs.rmSync(cliConfig, { recursive: true, force: true });
    await emulator?.stop();
  });

  /** `pulumi up --refresh`, as the workflow runs it. */
  async function upRefresh(): Promise<void> {
    const up = await e2e.stack.up({ ...collect(e2e.output), refresh: true });
    assert.equal(up.summary.result, "succeeded", output());
  }

  it("restores through the provider after a password rotation and a role made since: the restore's up records the live password and makes the removed role and database again", async () => {
    appArgs.passwordResetTrigger = "rotated";
    later = true;
    await declare();
    const rotated = await e2e.stack.up(collect(e2e.output));
    assert.equal(rotated.summary.result, "succeeded", output());
    assert.equal(await statePasswordLogsIn("app", "appdb"), true, "the rotated password logs in");
    branchArgs.restore = { snapshotId: (await inState("Snapshot"))[0]?.id };
    await declare();
    const restored = await e2e.stack.up(collect(e2e.output));
    assert.equal(restored.summary.result, "succeeded", output());
    assert.equal(await statePasswordLogsIn("app", "appdb"), true, "the state's password is the live one");
    assert.equal(await statePasswordLogsIn("later", "laterdb"), true, "the role the restore removed is back");
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 7 }, output());
    const plain = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(plain.summary.resourceChanges, { same: 7 }, output());
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(
      refresh.summary.resourceChanges,
      { same: 7 },
      `nothing left for a refresh:\n${output()}`,
    );
  });

  it("never brings back the branch an outside restore replaced: destroy and up make a fresh branch without its data", async () => {
    const old = ourBranch();
    assert.ok(old);
    // Data written after the snapshot: only the branch the restore replaces has it.
    const uri = await createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(P, {
      branchId: old.id,
      roleName: "app",
      databaseName: "appdb",
    });
    await query(uri, "CREATE TABLE replaced_only (id int)");
    const restored = await runNeonctl(
      { url: emulator.url, configDir: cliConfig },
      "snapshots",
      "restore",
      (await inState("Snapshot"))[0]?.id ?? "",
      "--target-branch",
      old.id,
      "--finalize",
      "--project-id",
      P,
    );
    assert.equal(restored.code, 0, restored.stderr);
    await upRefresh();
    const destroyed = await e2e.stack.destroy(collect(e2e.output));
    assert.equal(destroyed.summary.result, "succeeded", output());
    // The destroy deleted the snapshot the program restored from: a restore from it would fail at
    // preview (no such snapshot), so the program no longer names one.
    delete branchArgs.restore;
    await declare();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.equal(up.summary.result, "succeeded", output());
    const fresh = ourBranch();
    assert.ok(fresh && fresh.id !== old.id, "a fresh branch carries the name");
    assert.match(
      liveBranches().find((b) => b.id === old.id)?.name ?? "",
      /_old_/,
      "the replaced branch keeps its name",
    );
    const freshUri = await createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(
      P,
      {
        branchId: fresh.id,
        roleName: "app",
        databaseName: "appdb",
      },
    );
    const [row] = await query<{ t: string | null }>(
      freshUri,
      "SELECT to_regclass('replaced_only')::text AS t",
    );
    assert.equal(row?.t, null, "the replaced branch's data is not served");
    assert.equal(await statePasswordLogsIn("app", "appdb"), true);
  });

  it("converges after up is killed during a restore from a snapshot: up --refresh restores once, same id, the snapshot's data, and no scratch branch is left", async () => {
    const branch = ourBranch();
    assert.ok(branch);
    const owner = await createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url }).getConnectionUri(P, {
      branchId: branch.id,
      roleName: "app",
      databaseName: "appdb",
    });
    await query(owner, "CREATE TABLE after_snapshot (id int)");
    branchArgs.restore = { snapshotId: (await inState("Snapshot"))[0]?.id };
    await declare();
    // Each restore of the branch runs a create_branch operation on it (the branch's own create one more).
    const restores = () =>
      emulator.control
        .dumpState()
        .operations.filter((op) => op.action === "create_branch" && op.branch_id === branch.id).length;
    const before = restores();
    // The branch restore is made and its answer held: the kill lands after the branch was restored.
    emulator.control.failNext("POST /projects/{project_id}/branches/{branch_id}/restore", { holdMs: 60_000 });
    const scratches = () => liveBranches().filter((b) => b.name.startsWith(`${BRANCH_NAME}_restoring_`));
    const killed = await runCli(e2e, ["up", "--yes", "--skip-preview"], {
      killWhen: () => restores() > before,
      killAfterMs: 300,
    });
    assert.equal(killed.code, "killed", `up was not killed during the restore:\n${killed.output}`);
    assert.equal(scratches().length, 1, "the killed run left its scratch branch");
    assert.ok(scratches()[0]?.expires_at_ms, "which expires by itself");
    await runCli(e2e, ["cancel", "--yes"]);
    const converged = await runCli(e2e, ["up", "--yes", "--skip-preview", "--refresh"]);
    assert.equal(converged.code, 0, converged.output);
    assert.equal(restores() - before, 1, "the branch was restored once");
    assert.equal(ourBranch()?.id, branch.id, "same id");
    assert.deepEqual(scratches(), [], "no scratch branch is left");
    const [row] = await query<{ t: string | null }>(owner, "SELECT to_regclass('after_snapshot')::text AS t");
    assert.equal(row?.t, null, "the branch has the snapshot's data");
    assert.equal(await statePasswordLogsIn("app", "appdb"), true);
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 7 }, output());
  });
});
