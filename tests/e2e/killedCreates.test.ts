// Every kind whose create a run can be killed in, one stack of the crash fixture under the real
// Pulumi engine (its rows: support/killedCreateRows.ts). For each kind in turn, an `up` killed
// (SIGKILL of the CLI and the provider) once its create's object is made and its answer held (and
// again for the creates that wait for its output); after each, the next unattended `up` takes what
// the killed one made and makes nothing twice. Then a preview and a refresh with no change and no request that
// changes anything; each kind changed in place or replaced as it says, with its own requests only;
// destroy. No secret of any row in the state file or the engine's output, at any step. (Kinds of
// the core chain, a killed destroy too: crashKinds.test.ts; Branch: crash.test.ts.)
import * as assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { crashFixtureStack, type Declared, declareResources } from "./support/crashFixture";
import { nextRun } from "./support/kill";
import { KILLED_CREATE_ROWS as ROWS, type RowContext, recordedIn } from "./support/killedCreateRows";
import { assertNeverShown, eachRow, upByRow } from "./support/kindRows";
import { assertNothingToChange, collect, type E2eStack, mutatingRequests } from "./support/stack";

const declaredIn = (phase: 2 | "changed"): Declared[] => ROWS.flatMap((row) => row.declared(phase));

describe("e2e: every kind converges after an up killed during its create, then changes and is destroyed", function () {
  this.timeout(10 * 60 * 1000);
  let emulator: RunningEmulator;
  let e2e: E2eStack;
  const ctx = {
    recorded: (kind: string) => recordedIn(e2e, kind),
    sentByConvergingRuns: [] as string[],
  } as RowContext;
  /** Every secret any row had, at any step. */
  const secrets = new Set<string>();

  /** No secret of any row, now or earlier, in the state file or in `output`. */
  function assertNoSecret(output: string): void {
    for (const row of ROWS) for (const secret of row.secrets?.(ctx) ?? []) secrets.add(secret);
    assertNeverShown(secrets, e2e.rawState(), output);
  }

  before(async () => {
    emulator = await startEmulator({ seed: "demo", opDurationMs: 60 });
    e2e = await crashFixtureStack(emulator, "killed-creates", {
      env: { CLOUDDB_POLL_INTERVAL_MS: "50,200" },
    });
    Object.assign(ctx, { emulator, e2e });
    for (const row of ROWS) await row.setUp?.(ctx);
  });
  after(async () => {
    if (e2e !== undefined) await nextRun(e2e, "destroy").catch(() => undefined);
    await e2e?.dispose();
    await emulator?.stop();
    for (const row of ROWS) row.tearDown?.();
  });

  it("previews every kind's create and sends nothing that changes anything", async () => {
    await declareResources(e2e, declaredIn(2));
    emulator.control.clearRequests();
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { create: 1 + declaredIn(2).length }, e2e.output.join("\n"));
    assert.deepEqual(mutatingRequests(emulator), []);
  });

  it("kills up once each kind's create has made its object and its answer is held; the next up takes it, none made twice", async () => {
    // Row by row, as each kind joins the program: the provider's requests for one project wait on
    // each other, so one run holding every kind's answer would stall the rest rather than kill them
    // in their creates.
    for (const [index, row] of ROWS.entries()) {
      for (const stage of [1, 2] as const) {
        const held = row.held[stage];
        if (held === undefined) continue;
        const before = ROWS.slice(0, index).flatMap((earlier) => earlier.declared(2));
        await declareResources(e2e, [...before, ...row.declared(stage)]);
        for (const { route, passing } of held) {
          if (passing !== undefined) emulator.control.failNext(route, { passThrough: true }, passing);
          emulator.control.failNext(route, { holdMs: 60_000 });
        }
        const killed = await nextRun(e2e, "up", {
          killWhen: () => held.every((create) => create.made(ctx)),
          killAfterMs: 300,
        });
        const waiting = held.filter((create) => !create.made(ctx)).map((create) => create.route);
        const what = `${row.name}, stage ${stage}`;
        assert.equal(
          killed.code,
          "killed",
          `${what}: the up was not killed; not made: ${waiting}\n${killed.output}`,
        );
        assert.deepEqual(
          killed.leftover,
          [],
          `${what}: processes of the killed run still running 15 s after it`,
        );
        emulator.control.clearFaults();
        emulator.control.clearRequests();
        const run = await nextRun(e2e, "up");
        assert.equal(run.code, 0, `${what}: ${run.output}`);
        ctx.sentByConvergingRuns.push(...mutatingRequests(emulator).map((r) => r.route));
        assertNoSecret(run.output);
      }
    }
    await eachRow(ROWS, "after the runs that followed the killed ones", (row) => row.converged(ctx));
  });

  it("previews and refreshes with no change and no request that changes anything", async () => {
    await assertNothingToChange(emulator, e2e, 1 + declaredIn(2).length);
    await eachRow(ROWS, "after the refresh", (row) => row.unchanged?.(ctx));
  });

  it("changes each kind in place or replaces it as it says, each with its own requests only", async () => {
    for (const row of ROWS) row.beforeChange?.(ctx);
    await declareResources(e2e, declaredIn("changed"));
    const preview = await e2e.stack.preview({ diff: true });
    await eachRow(ROWS, "the preview of the change", (row) => row.changePreview?.(preview.stdout));

    const { sent } = await upByRow(emulator, e2e, ROWS, (row) => row.changes);
    await eachRow(ROWS, "after the change", (row) => row.changed(ctx, sent.get(row) ?? []));
    assertNoSecret(e2e.output.join("\n"));
  });

  it("destroy removes what each made and gives back what it took over; no secret in the state or the output", async () => {
    for (const row of ROWS) await row.beforeDestroy?.(ctx);
    const run = await nextRun(e2e, "destroy");
    assert.equal(run.code, 0, run.output);
    await eachRow(ROWS, "after destroy", (row) => row.destroyed(ctx));
    assertNoSecret(run.output);
  });
});
