// ProjectPermission under the real engine, through the provider plugin (a YAML program): preview,
// an `up` killed with SIGKILL while the grant's answer is on its way, the next `up` taking that very
// grant (no second one), refresh and preview with no change, the project's maintenance window
// changed in place, `pulumi import` of the grant by `<projectId>/<email>` after it left the state,
// and destroy revoking it.
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { runCli } from "./support/kill";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack } from "./support/stack";

const EMAIL = "casey@example.com";
const GRANT = "POST /projects/{project_id}/permissions";

describe("e2e: ProjectPermission through the provider plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;

  /** The shared project's grants as the emulator keeps them. */
  const grants = () =>
    emulator.control
      .dumpState()
      .projects.filter((p) => p.name === "shared-project" && p.deleted_at_ms === undefined)
      .flatMap((p) => (p.permissions ?? []).map((g) => ({ projectId: p.id, ...g })));
  const live = () => grants().filter((g) => g.revoked_at_ms === undefined);
  const recorded = () =>
    (
      JSON.parse(e2e.rawState()) as {
        checkpoint: { latest?: { resources?: { type: string; id?: string; urn: string }[] } };
      }
    ).checkpoint.latest?.resources?.filter((r) => r.type === "clouddb:index:ProjectPermission") ?? [];
  const noChange = (summary: Record<string, number | undefined>) =>
    Object.keys(summary).filter((kind) => kind !== "same");

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 20 });
    e2e = await programStack({
      copyOf: fixture("permission-yaml"),
      emulator,
      language: "yaml",
      config: { email: EMAIL, windowStart: "02:00" },
      env: { CLOUDDB_POLL_INTERVAL_MS: "20,100" },
    });
  });
  after(async () => {
    await e2e?.dispose({ destroy: true });
    await emulator?.stop();
  });

  it("previews the grant, converges after a kill during its create, refreshes with no change", async () => {
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.equal(preview.changeSummary.create, 3, e2e.output.join("\n"));
    assert.deepEqual(
      emulator.control.requests({ method: "POST" }).map((r) => r.route),
      [],
      `a preview makes nothing:\n${e2e.output.join("\n")}`,
    );

    // The grant is made, its answer held: the kill lands before the engine records it.
    emulator.control.failNext(GRANT, { holdMs: 60_000 });
    const killed = await runCli(e2e, ["up", "--yes", "--skip-preview"], {
      killWhen: () => live().length === 1,
      killAfterMs: 300,
    });
    assert.equal(killed.code, "killed", killed.output);
    assert.deepEqual(recorded(), [], "the killed run recorded no grant");

    await runCli(e2e, ["cancel", "--yes"]);
    const next = await runCli(e2e, ["up", "--yes", "--skip-preview"]);
    assert.equal(next.code, 0, next.output);
    const [grant] = live();
    assert.equal(live().length, 1, "one grant, made once");
    assert.deepEqual(
      recorded().map((r) => r.id),
      [grant?.id],
      "the state records the grant the killed run made",
    );
    assert.match(
      next.output,
      /was already shared with casey@example\.com .*: this resource takes that grant/,
    );
    // The killed run's request is logged once its held answer is sent, after this test.
    assert.deepEqual(
      emulator.control.requests({ route: GRANT }).map((r) => r.status),
      [409],
      "the second run asked once and was told the grant exists",
    );
    assert.equal((await e2e.stack.outputs()).permissionId?.value, grant?.id);

    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(noChange(refresh.summary.resourceChanges ?? {}), [], e2e.output.join("\n"));
    const again = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(noChange(again.changeSummary), [], e2e.output.join("\n"));
  });

  it("changes the project's maintenance window in place with one PATCH, the grant untouched", async () => {
    const [grant] = live();
    assert.ok(grant !== undefined);
    const windowOf = () =>
      emulator.control.dumpState().projects.find((p) => p.id === grant.projectId)?.settings
        ?.maintenance_window;
    assert.deepEqual(windowOf(), { weekdays: [6, 7], start_time: "02:00", end_time: "05:00" });
    await e2e.stack.setConfig("windowStart", { value: "03:15" });
    emulator.control.clearRequests();
    const up = await e2e.stack.up(collect(e2e.output));
    assert.deepEqual(up.summary.resourceChanges, { same: 2, update: 1 }, e2e.output.join("\n"));
    assert.deepEqual(
      emulator.control
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
      [`PATCH /projects/${grant.projectId}`],
    );
    assert.deepEqual(windowOf(), { weekdays: [6, 7], start_time: "03:15", end_time: "05:00" });
    const refresh = await e2e.stack.refresh(collect(e2e.output));
    assert.deepEqual(noChange(refresh.summary.resourceChanges ?? {}), [], e2e.output.join("\n"));
  });

  it("imports the grant by <projectId>/<email> after it left the state; destroy revokes it", async () => {
    const [grant] = live();
    const [entry] = recorded();
    assert.ok(grant !== undefined && entry !== undefined);
    const dropped = await runCli(e2e, ["state", "delete", entry.urn, "--yes"]);
    assert.equal(dropped.code, 0, dropped.output);
    const imported = await e2e.stack.import({
      resources: [
        { type: "clouddb:index:ProjectPermission", name: "share", id: `${grant.projectId}/${EMAIL}` },
      ],
      generateCode: false,
      protect: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, 1, e2e.output.join("\n"));
    assert.deepEqual(
      recorded().map((r) => r.id),
      [grant.id],
      "imported under the grant's own id",
    );
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(noChange(preview.changeSummary), [], e2e.output.join("\n"));

    await e2e.stack.destroy(collect(e2e.output));
    assert.deepEqual(recorded(), [], "destroy leaves no grant in the state");
    assert.equal(grants().length, 0, "the project is deleted with destroy (its grants with it)");
    // An import records no dependency on the project: the grant's revoke may come after the
    // project's delete, which takes its grants with it (404, counted as done).
    const revoked = emulator.control.requests({
      route: "DELETE /projects/{project_id}/permissions/{permission_id}",
    });
    assert.deepEqual(
      revoked.map((r) => r.path.endsWith(grant.id)),
      [true],
    );
    assert.ok([200, 404].includes(revoked[0]?.status ?? 0), `revoke answered ${revoked[0]?.status}`);
  });
});
