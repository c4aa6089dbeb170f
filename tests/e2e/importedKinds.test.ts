// Every kind a team may already have made outside Pulumi, in one YAML program through the provider
// plugin (tests/e2e/fixtures/kinds-yaml; its rows: support/importedKindRows.ts): the objects made
// with the API, then brought in with one `pulumi import`, adopted (`adoptExisting`) or taken as they
// are by `up`, next to objects the program makes; a preview and a refresh with no change and no
// request that changes anything; each kind's config changed, in place or by replacement, with its
// own requests only; destroy. No secret of any row in the state file or the engine's output.
import * as assert from "node:assert/strict";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { type ImportContext, type Imported, IMPORTED_KIND_ROWS as ROWS } from "./support/importedKindRows";
import { assertNeverShown, eachRow, upByRow } from "./support/kindRows";
import { fixture, programStack } from "./support/programStack";
import { assertNothingToChange, collect, type E2eStack } from "./support/stack";

describe("e2e: every kind made outside Pulumi, imported, adopted or taken into a YAML program through the plugin", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const ctx = { outputs: {} } as ImportContext;
  const imports: Imported[] = [];
  const secrets = new Set<string>();
  /** Every line the engine printed, across the suite's commands. */
  const printed: string[] = [];
  const resources = ROWS.reduce((sum, row) => sum + row.resources, 0);

  /** No secret of any row, now or earlier, in the state file or the engine's output. */
  function assertNoSecret(): void {
    for (const row of ROWS) for (const secret of row.secrets?.(emulator) ?? []) secrets.add(secret);
    printed.push(...e2e.output);
    assertNeverShown(secrets, e2e.rawState(), printed.join("\n"));
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    const config: Record<string, string> = {
      projectId: DEMO.projectId,
      branchId: DEMO.branchId,
      orgId: DEMO.orgId,
      orgProjectId: DEMO.orgProjectId,
    };
    for (const row of ROWS) {
      const made = await row.setUp(emulator);
      imports.push(...made.imports);
      Object.assign(config, made.config);
    }
    e2e = await programStack({
      copyOf: fixture("kinds-yaml"),
      emulator,
      language: "yaml",
      config,
      secrets: Object.assign({}, ...ROWS.map((row) => row.secretConfig ?? {})),
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
    Object.assign(ctx, { emulator, e2e });
  });
  after(async () => {
    await e2e?.dispose();
    await emulator?.stop();
  });

  it("imports each row's objects with one pulumi import, and the next up adopts or makes the rest, each row sending only its own requests", async () => {
    const imported = await e2e.stack.import({
      resources: imports,
      generateCode: false,
      ...collect(e2e.output),
    });
    assert.equal(imported.summary.resourceChanges?.import, imports.length, e2e.output.join("\n"));
    printed.push(...e2e.output);
    await eachRow(ROWS, "after the import", (row) => row.imported?.(ctx));

    const { up, sent } = await upByRow(emulator, e2e, ROWS, (row) => row.firstUp);
    ctx.outputs = up.outputs;
    await eachRow(ROWS, "after the first up", (row) => row.afterFirstUp(ctx, sent.get(row) ?? []));
    assertNoSecret();
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    await assertNothingToChange(emulator, e2e, 1 + resources);
    assertNoSecret();
  });

  it("changes each row's config: each kind in place or replaced as it says, with its own requests only", async () => {
    for (const row of ROWS)
      for (const [key, value] of Object.entries(row.change)) await e2e.stack.setConfig(key, { value });
    const preview = await e2e.stack.preview({ diff: true });
    await eachRow(ROWS, "the preview of the change", (row) => row.changePreview?.(preview.stdout));
    printed.push(preview.stdout);

    const { sent } = await upByRow(emulator, e2e, ROWS, (row) => row.changes);
    await eachRow(ROWS, "after the change", (row) => row.changed(ctx, sent.get(row) ?? []));
    assertNoSecret();
  });

  it("destroy removes or gives back each row's objects; no secret in the state file or the output", async () => {
    await e2e.stack.destroy(collect(e2e.output));
    await eachRow(ROWS, "after destroy", (row) => row.destroyed(emulator));
    assertNoSecret();
  });
});
