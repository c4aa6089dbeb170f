// Benchmark 5: a no-change `pulumi preview` of 50 resources (the real engine). Diff must make no API
// call; the preview's wall time is compared with an empty stack's.
import { DEMO } from "../emulator";
import { collect } from "../tests/e2e/support/stack";
import { type BranchSpec, engineRun, type KeySpec, timed } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";

function scenario(n: number): { keys: KeySpec[]; branches: BranchSpec[] } {
  const branches = Math.floor(n * 0.4);
  return {
    branches: Array.from({ length: branches }, (_, i) => ({
      res: `b${i}`,
      projectId: DEMO.projectId,
      name: `preview-${i}`,
    })),
    keys: Array.from({ length: n - branches }, (_, i) =>
      i % 2 === 0
        ? { res: `k${i}`, name: `preview-key-${i}` }
        : { res: `k${i}`, name: `preview-key-${i}`, orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    ),
  };
}

/** Benchmark 5 as a table. */
export async function benchPreview(opts: {
  n: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const full = await engineRun({ scenario: scenario(opts.n), emulator: { opDurationMs: 20 } });
  const empty = await engineRun({ scenario: {}, emulator: {} });
  try {
    await full.e2e.stack.up(collect(full.output));
    await empty.e2e.stack.up(collect(empty.output));
    const fullMs: number[] = [];
    const emptyMs: number[] = [];
    const calls: number[] = [];
    let unchanged = true;
    for (let i = 0; i < opts.runs; i++) {
      full.emulator.control.clearRequests();
      const p = await timed(() => full.e2e.stack.preview(collect(full.output)));
      calls.push(full.emulator.control.requests().length);
      const summary = p.value.changeSummary;
      if (Object.keys(summary).some((k) => k !== "same") || summary.same !== opts.n + 1) unchanged = false;
      fullMs.push(p.ms);
      emptyMs.push((await timed(() => empty.e2e.stack.preview(collect(empty.output)))).ms);
      opts.log(
        `  run ${i + 1}/${opts.runs}: preview ${secs(p.ms)} (${JSON.stringify(summary)}), API calls ${calls.at(-1)}, empty preview ${secs(emptyMs.at(-1)!)}`,
      );
    }
    const worstCalls = Math.max(...calls);
    const f = median(fullMs);
    const e = median(emptyMs);
    return {
      title: `5. No-change \`pulumi preview\` of ${opts.n} resources — median of ${opts.runs}`,
      header: ["figure", "measured", "compared to", "ratio", "target", "verdict"],
      rows: [
        [
          "API calls during the preview (worst run)",
          String(worstCalls),
          "0",
          "",
          "0 from diff",
          verdict(worstCalls === 0),
        ],
        [
          "resources reported unchanged",
          unchanged ? `all ${opts.n}` : "NO",
          String(opts.n),
          "",
          "",
          verdict(unchanged),
        ],
        ["preview wall time", secs(f), `empty stack ${secs(e)}`, fmt(f / e), "", ""],
        ["time per resource above the empty stack", `${fmt((f - e) / opts.n, 0)} ms`, "", "", "", ""],
      ],
      notes: [
        `${Math.floor(opts.n * 0.4)} branches and ${opts.n - Math.floor(opts.n * 0.4)} API keys (personal and project-scoped); the preview runs check and diff for each.`,
        "API calls are every request in the emulator's log during the preview (any route), so calls attributable to diff are at most this number.",
      ],
    };
  } finally {
    await full.dispose();
    await empty.dispose();
  }
}
