// Benchmarks 1 and 2: N `Branch` resources with one endpoint each in one project, created by one
// `pulumi up` (the real engine, default parallelism) against the emulator with operation duration D.
// The emulator runs a project's operations one at a time and refuses new work with 423 meanwhile, so
// the physical floor is N x 2 x D (create_branch, then start_compute, per branch).

import { DEMO } from "../emulator";
import { type BranchSpec, emptyUpMs, engineRun, noopUp, timedUp } from "./support/engine";
import { countBy, fmt, median, secs, type Table, verdict } from "./support/stats";

/** One way of running the provider. */
export interface BranchMode {
  label: string;
  /** `CLOUDDB_PROJECT_QUEUE=off` when false. */
  queue: boolean;
  /** `CLOUDDB_POLL_INTERVAL_MS`, or the client's default (250 ms doubling to 5 s). */
  poll?: string;
  /** One `read_write` endpoint per branch (the default), or none: then one operation per branch. */
  endpoints?: boolean;
}

/** Operations per branch create: create_branch, then start_compute when it has an endpoint. */
function operationsOf(mode: BranchMode): number {
  return mode.endpoints === false ? 1 : 2;
}

/** Wall time / floor targets: with endpoints the operations dominate; without, the start-up weighs most. */
function targetOf(mode: BranchMode): number {
  return mode.endpoints === false ? 1.35 : 1.15;
}

/** What one `up` measured. */
interface BranchRun {
  upMs: number;
  apiSpanMs: number;
  locked: number;
  rateLimited: number;
  failures: number;
  requests: number;
  byRoute: Map<string, number>;
  error?: string;
}

const DEFAULT_POLL_FIRST_MS = 250;

function branchScenario(n: number, endpoints: boolean): BranchSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    res: `b${i}`,
    projectId: DEMO.projectId,
    name: `bench-${i}`,
    ...(endpoints ? { endpoints: [{ type: "read_write" }] } : {}),
  }));
}

async function runOnce(n: number, d: number, mode: BranchMode): Promise<BranchRun> {
  const env: Record<string, string> = {};
  if (!mode.queue) env.CLOUDDB_PROJECT_QUEUE = "off";
  if (mode.poll !== undefined) env.CLOUDDB_POLL_INTERVAL_MS = mode.poll;
  const run = await engineRun({
    scenario: { branches: branchScenario(n, mode.endpoints !== false) },
    emulator: { opDurationMs: d },
    env,
  });
  try {
    const { ms, error } = await timedUp(run);
    const log = run.emulator.control.requests();
    const snap = run.emulator.control.dumpState();
    const made = snap.branches.filter((b) => b.name.startsWith("bench-") && b.deleted_at_ms === undefined);
    const madeIds = new Set(made.map((b) => b.id));
    const unfinished = snap.operations.filter(
      (op) => op.branch_id !== undefined && madeIds.has(op.branch_id) && op.status !== "finished",
    );
    const first = Math.min(...log.map((r) => r.at));
    const last = Math.max(...log.map((r) => r.at + r.durationMs));
    return {
      upMs: ms,
      apiSpanMs: last - first,
      locked: log.filter((r) => r.status === 423).length,
      rateLimited: log.filter((r) => r.status === 429).length,
      failures: n - made.length + unfinished.length + (error === undefined ? 0 : 1),
      requests: log.length,
      byRoute: countBy(log),
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    await run.dispose();
  }
}

/** Benchmarks 1 and 2 as tables. */
export async function benchBranches(opts: {
  n: number;
  d: number;
  runs: number;
  modes: BranchMode[];
  log: (line: string) => void;
}): Promise<Table[]> {
  const { n, d, runs } = opts;
  const floorOf = (mode: BranchMode) => n * operationsOf(mode) * d;
  const engineMs = await emptyUpMs(runs);
  opts.log(`  empty-stack up (engine start-up): ${secs(engineMs)}`);
  const starts: number[] = [];
  for (let i = 0; i < runs; i++) starts.push(await noopUp(1));
  const startMs = median(starts);
  opts.log(`  one no-op dynamic resource's up (Pulumi's start-up with a provider): ${secs(startMs)}`);
  const results: Array<{ mode: BranchMode; runs: BranchRun[] }> = [];
  for (const mode of opts.modes) {
    const done: BranchRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runOnce(n, d, mode);
      opts.log(
        `  ${mode.label} run ${i + 1}/${runs}: up ${secs(r.upMs)}, API span ${secs(r.apiSpanMs)}, ` +
          `423s ${r.locked}, 429s ${r.rateLimited}, failures ${r.failures}, requests ${r.requests}` +
          (r.error ? `\n    error: ${r.error}` : ""),
      );
      done.push(r);
    }
    results.push({ mode, runs: done });
  }

  const wall: Table = {
    title: `1. ${n} branches (1 endpoint each unless the mode says none) in one project, D = ${d} ms per operation — median of ${runs}`,
    header: [
      "mode",
      "up wall time",
      "floor N×ops×D",
      "ratio (target ≤ 1.15; no endpoints ≤ 1.35)",
      "API span / floor",
      "bound: (floor + one no-op resource's up) / floor",
      "423s (target 0)",
      "429s",
      "failures (target 0)",
      "wait past the floor / branch",
      "requests / branch",
    ],
    rows: results.map(({ mode, runs: rs }) => {
      const floorMs = floorOf(mode);
      const up = median(rs.map((r) => r.upMs));
      const span = median(rs.map((r) => r.apiSpanMs));
      const locked = median(rs.map((r) => r.locked));
      const failures = Math.max(...rs.map((r) => r.failures));
      return [
        mode.label,
        secs(up),
        secs(floorMs),
        `${fmt(up / floorMs)} ${mode.queue ? verdict(up / floorMs <= targetOf(mode)) : ""}`.trim(),
        fmt(span / floorMs),
        fmt((floorMs + startMs) / floorMs),
        `${fmt(locked, 0)} ${mode.queue ? verdict(rs.every((r) => r.locked === 0)) : ""}`.trim(),
        fmt(median(rs.map((r) => r.rateLimited)), 0),
        `${failures} ${verdict(failures === 0)}`,
        `${fmt((span - floorMs) / n, 0)} ms`,
        fmt(median(rs.map((r) => r.requests)) / n, 1),
      ];
    }),
    notes: [
      `Floor: the emulator runs a project's operations one at a time, so ${n} branches × (create_branch + start_compute) × ${d} ms = ${secs(n * 2 * d)}; without endpoints only create_branch runs: ${secs(n * d)}.`,
      `"up wall time" is the whole \`pulumi up --yes --skip-preview\` run as a pipeline runs it (CLI start, program, plugin, engine, CLI exit); an empty stack's up takes ${secs(engineMs)} on this machine.`,
      `"API span" is the first API request to the last response, from the emulator's request log.`,
      "423s are counted in the emulator's request log; no platform operations run, so every 423 is caused by the provider.",
      "Poll interval: the client's default is 250 ms doubling to 5 s; other rows set CLOUDDB_POLL_INTERVAL_MS=FIRST,MAX.",
      `"wait past the floor / branch" = (API span − floor) / N: how long each branch holds the project beyond its 2 × D of operations (the lag before a wait sees its operations end, plus request latency). With the queue every branch pays it in turn. Operation waits learn running times per action in the process, so after the first branch they poll when an operation is due, then in steps of a fiftieth of it (at least 10 ms).`,
      `The target compares the whole \`up\` with the floor; Pulumi's start-up is inside that figure and no provider can remove it. The bound adds to the floor the \`up\` of the same program with one resource of a no-op dynamic provider (its create returns at once, no API; ${secs(startMs)} here): the CLI, the program, the dynamic-provider plugin's start and one engine step, which come before any provider's first request. A provider whose API calls took exactly the floor would reach it.`,
      "Without the queue, parallel creates collide on 423s, retry them, then fall back to waiting for the project's operations and race again when it frees up: more time, about three times the requests.",
    ],
  };

  const routes = [
    "POST /projects/{project_id}/branches",
    "GET /projects/{project_id}/operations/{operation_id}",
    "GET /projects/{project_id}/branches/{branch_id}",
    "GET /projects/{project_id}/branches/{branch_id}/endpoints",
    "GET /projects/{project_id}/operations",
  ];
  const others = new Set<string>();
  for (const { runs: rs } of results) {
    for (const r of rs) for (const route of r.byRoute.keys()) if (!routes.includes(route)) others.add(route);
  }
  const requests: Table = {
    title: `2. Requests per branch create (from the runs above, D = ${d} ms) — median of ${runs}`,
    header: [
      "mode",
      "requests / branch",
      "minimum",
      "ratio",
      "design bound",
      "within bound",
      "POST",
      "GET operation",
      "GET branch",
      "GET endpoints",
      "GET operations (list)",
      "other",
    ],
    rows: results.map(({ mode, runs: rs }) => {
      const perBranch = median(rs.map((r) => r.requests)) / n;
      const first = mode.poll === undefined ? DEFAULT_POLL_FIRST_MS : Number(mode.poll.split(",")[0]);
      // docs/api-rules.md §5: 1 POST + at most ceil(D / poll) + 2 GETs per operation.
      const ops = operationsOf(mode);
      const bound = 1 + ops * (Math.ceil(d / first) + 2);
      const per = (route: string) => median(rs.map((r) => r.byRoute.get(route) ?? 0)) / n;
      const other = median(
        rs.map((r) => [...r.byRoute].filter(([k]) => !routes.includes(k)).reduce((s, [, v]) => s + v, 0)),
      );
      return [
        mode.label,
        fmt(perBranch, 1),
        String(1 + ops),
        fmt(perBranch / (1 + ops)),
        `${bound} (poll ${first} ms)`,
        verdict(perBranch <= bound),
        ...routes.map((route) => fmt(per(route), 1)),
        fmt(other / n, 1),
      ];
    }),
    notes: [
      "Minimum: 1 POST + one GET per operation after it ends (create_branch, start_compute) = 3; without endpoints 2.",
      "Design bound (docs/api-rules.md §5): 1 POST + at most ceil(D / poll) + 2 GETs per operation, with poll = the configured first poll interval (250 ms by default).",
      '"GET branch" and "GET endpoints" are the reads after the operations finished (so the recorded states are current); "GET operations (list)" is the 423 fallback.',
      ...(others.size > 0 ? [`"other": ${[...others].join(", ")}.`] : []),
    ],
  };
  return [wall, requests];
}
