// Benchmark 16: one preview environment made by one `pulumi up`, as the `PreviewEnvironment`
// component against the same children declared by hand in the order that starts the fewest
// operations (bench 13's "roles before the compute"): a Branch without endpoints, the owner Role and
// a Database, an Endpoint depending on both, Migrations (two .sql files), then RoleGrants making the
// runtime role. The real engine, the emulator with operation duration D and a real Postgres behind
// its computes (the SQL kinds connect to it, verifying its certificate through PGSSLROOTCERT). The
// two ways run alternately, each on a fresh emulator and stack; the floor is bench 13's for one
// environment: its create_branch and start_compute, 2 x D.

import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, startEmulator } from "../emulator";
import { installPackedProject } from "../tests/e2e/support/package";
import { createStack, type E2eStack } from "../tests/e2e/support/stack";
import { runSql } from "../tests/emulator/helpers";
import { type EngineRun, timedUp } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";

const FIXTURE = path.join(__dirname, "fixtures", "preview-environment");

/** How the program declares the environment (its stack config `way`). */
export type PreviewWay = "component" | "by hand";

const WAYS: PreviewWay[] = ["component", "by hand"];

const LABELS: Record<PreviewWay, string> = {
  component: "`PreviewEnvironment` (the component)",
  "by hand": "by hand (Branch without endpoints, Role, Database, Endpoint, Migrations, RoleGrants)",
};

/** The branch the environment makes. */
const BRANCH_NAME = "preview/bench";

/** The component's `up` wall time may exceed the program by hand's by at most this ratio. */
const UP_TARGET = 1.1;

/** What one `up` measured. */
interface PreviewRun {
  upMs: number;
  apiSpanMs: number;
  /** The API span's part before the branch's `POST /branches` arrived, and the part from it on. */
  spanBeforeBranchMs: number;
  spanFromBranchMs: number;
  /** The `up`'s part before that request arrived, and after the last API response. */
  upBeforeBranchMs: number;
  upAfterApiMs: number;
  operations: number;
  byAction: Map<string, number>;
  requests: number;
  byRoute: Map<string, number>;
  failures: number;
  problems: string[];
  /** Whether the engine's output holds a Go panic (a plugin's or the language host's). */
  panicked: boolean;
}

/** The program's project: the packed package installed next to `program/`, with `migrations/` copied in. */
function previewProject(): string {
  const dir = installPackedProject(path.join(FIXTURE, "program"));
  fs.cpSync(path.join(FIXTURE, "migrations"), path.join(dir, "migrations"), { recursive: true });
  return dir;
}

async function runOnce(dir: string, way: PreviewWay, d: number): Promise<PreviewRun> {
  const emulator = await startEmulator({ seed: "demo", opDurationMs: d, postgres: true });
  let e2e: E2eStack | undefined;
  try {
    e2e = await createStack({
      workDir: dir,
      apiUrl: emulator.url,
      apiKey: DEMO.personalKey,
      stackName: `bench-${process.pid}-${Date.now()}`,
      config: { projectId: DEMO.projectId, parentId: DEMO.branchId, branchName: BRANCH_NAME, way },
      env: { PGSSLROOTCERT: emulator.caPath ?? "" },
    });
    const run: EngineRun = { emulator, e2e, output: [], dispose: async () => undefined };
    const { ms, startedAt, error } = await timedUp(run);
    const log = emulator.control.requests();
    const snap = emulator.control.dumpState();
    const made = snap.branches.filter((b) => b.name === BRANCH_NAME && b.deleted_at_ms === undefined);
    const madeIds = new Set(made.map((b) => b.id));
    // The operations the program's requests started; the platform's own (availability checks) are not the program's.
    const ops = snap.operations.filter(
      (op) => op.branch_id !== undefined && madeIds.has(op.branch_id) && op.initiator === "user",
    );
    const byAction = new Map<string, number>();
    for (const op of ops) byAction.set(op.action, (byAction.get(op.action) ?? 0) + 1);
    const byRoute = new Map<string, number>();
    for (const r of log) byRoute.set(r.route, (byRoute.get(r.route) ?? 0) + 1);
    const problems: string[] = [];
    if (error !== undefined) problems.push(`up failed: ${error}`);
    if (made.length !== 1) problems.push(`${made.length} branches named ${BRANCH_NAME}`);
    for (const op of ops.filter((o) => o.status !== "finished")) problems.push(`${op.action} ${op.status}`);
    if (error === undefined) problems.push(...(await checkEnvironment(e2e, emulator.caPath)));
    const first = Math.min(...log.map((r) => r.at));
    const last = Math.max(...log.map((r) => r.at + r.durationMs));
    const branchPost = log.find((r) => r.route === "POST /projects/{project_id}/branches");
    return {
      upMs: ms,
      apiSpanMs: last - first,
      spanBeforeBranchMs: (branchPost?.at ?? Number.NaN) - first,
      spanFromBranchMs: last - (branchPost?.at ?? Number.NaN),
      upBeforeBranchMs: (branchPost?.at ?? Number.NaN) - startedAt,
      upAfterApiMs: startedAt + ms - last,
      operations: ops.length,
      byAction,
      requests: log.length,
      byRoute,
      failures: problems.length,
      problems,
      panicked: run.output.some((line) => /\bpanic: /.test(line)),
    };
  } finally {
    await e2e?.dispose();
    await emulator.stop();
  }
}

/**
 * What the environment must hold after its `up`: both migrations applied, and the runtime role's
 * connection string reading the rows the second one wrote. Returns what is wrong.
 */
async function checkEnvironment(e2e: E2eStack, caPath: string | undefined): Promise<string[]> {
  const outputs = await e2e.stack.outputs();
  const applied = ((outputs.appliedMigrations?.value ?? []) as { name: string }[]).map((m) => m.name);
  const problems: string[] = [];
  if (applied.join(",") !== "0001_orders.sql,0002_seed.sql")
    problems.push(`applied migrations: ${applied.join(", ") || "none"}`);
  try {
    const rows = await runSql<{ n: number }>(
      String(outputs.runtimeUri?.value),
      caPath,
      "SELECT count(*)::int AS n FROM orders",
    );
    if (rows[0]?.n !== 2) problems.push(`the runtime role reads ${rows[0]?.n} orders, not 2`);
  } catch (err) {
    problems.push(`the runtime role cannot read the orders: ${(err as Error).message}`);
  }
  return problems;
}

/** Routes whose median request count differs between the two ways, as "route a vs b". */
function routeDifferences(results: Map<PreviewWay, PreviewRun[]>): string[] {
  const component = results.get("component") ?? [];
  const byHand = results.get("by hand") ?? [];
  const routes = [...new Set([...component, ...byHand].flatMap((r) => [...r.byRoute.keys()]))].sort();
  const count = (rs: PreviewRun[], route: string) => median(rs.map((r) => r.byRoute.get(route) ?? 0));
  return routes
    .filter((route) => count(component, route) !== count(byHand, route))
    .map((route) => `\`${route}\` ${fmt(count(component, route), 0)} vs ${fmt(count(byHand, route), 0)}`);
}

/** A note of the runs whose engine output held a Go panic, if any did. */
function panics(results: Map<PreviewWay, PreviewRun[]>): string[] {
  const panicked = [...results.values()].flat().filter((r) => r.panicked);
  if (panicked.length === 0) return [];
  const counts = [...results].map(
    ([way, rs]) => `${rs.filter((r) => r.panicked).length} of ${rs.length} ${way}`,
  );
  const failed = panicked.filter((r) => r.failures > 0).length;
  return [
    `Runs whose engine output held a Go \`panic:\` line: ${counts.join(", ")}; ${failed} of them had a failure.`,
  ];
}

/** Benchmark 16 as a table: each way's figures, then the component's ratio to the program by hand. */
export async function benchPreviewEnvironment(opts: {
  d: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const { d, runs } = opts;
  const floorMs = 2 * d;
  const dir = previewProject();
  const results = new Map<PreviewWay, PreviewRun[]>(WAYS.map((way) => [way, []]));
  try {
    // Alternately, so that the machine's load in a stretch of time weighs on both ways alike.
    for (let i = 0; i < runs; i++) {
      for (const way of WAYS) {
        const r = await runOnce(dir, way, d);
        opts.log(
          `  ${way} run ${i + 1}/${runs}: up ${secs(r.upMs)}, API span ${secs(r.apiSpanMs)} ` +
            `(${secs(r.spanBeforeBranchMs)} before POST /branches, which came ${secs(r.upBeforeBranchMs)} into the up; ` +
            `${secs(r.upAfterApiMs)} from the last response to the exit), operations ${r.operations} ` +
            `(${[...r.byAction].map(([a, c]) => `${a} ${c}`).join(", ")}), requests ${r.requests}, ` +
            `failures ${r.failures}${r.panicked ? ", a panic in the engine's output" : ""}${r.problems.map((p) => `\n    ${p}`).join("")}`,
        );
        results.get(way)!.push(r);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const figures = (way: PreviewWay) => {
    const rs = results.get(way)!;
    const of = (pick: (r: PreviewRun) => number) => median(rs.map(pick));
    return {
      rs,
      ops: of((r) => r.operations),
      span: of((r) => r.apiSpanMs),
      spanBefore: of((r) => r.spanBeforeBranchMs),
      spanFrom: of((r) => r.spanFromBranchMs),
      up: of((r) => r.upMs),
      upBefore: of((r) => r.upBeforeBranchMs),
      upAfter: of((r) => r.upAfterApiMs),
      requests: of((r) => r.requests),
      failures: Math.max(...rs.map((r) => r.failures)),
    };
  };
  const component = figures("component");
  const byHand = figures("by hand");
  const actions = [...new Set([...results.values()].flat().flatMap((r) => [...r.byAction.keys()]))].sort();
  const row = (way: PreviewWay): string[] => {
    const f = figures(way);
    return [
      LABELS[way],
      fmt(f.ops, 0),
      actions.map((a) => `${a} ${fmt(median(f.rs.map((r) => r.byAction.get(a) ?? 0)), 0)}`).join(", "),
      secs(f.span),
      secs(f.spanBefore),
      secs(f.spanFrom),
      fmt(f.span / floorMs),
      secs(f.up),
      secs(f.upBefore),
      secs(f.upAfter),
      fmt(f.requests, 0),
      `${f.failures} ${verdict(f.failures === 0)}`,
    ];
  };
  const ratio = (key: "spanBefore" | "spanFrom" | "upBefore" | "upAfter" | "requests") =>
    fmt(component[key] / byHand[key]);
  const spanRatio = component.span / byHand.span;
  const upRatio = component.up / byHand.up;
  /** The median of each round's own ratio (component over the program by hand run right after it). */
  const roundRatio = (pick: (r: PreviewRun) => number) => {
    const byHandRuns = results.get("by hand")!;
    return median(component.rs.map((r, i) => pick(r) / pick(byHandRuns[i]!)));
  };
  const differences = routeDifferences(results);
  return {
    title: `16. One preview environment: the \`PreviewEnvironment\` component against its children by hand (emulator --postgres), D = ${d} ms per operation — median of ${runs} each, run alternately`,
    header: [
      "program",
      "operations",
      "by action",
      "API span",
      "span: first request → POST /branches",
      "span: POST /branches → last response",
      "API span / floor 2×D",
      "up wall time",
      "up: start → POST /branches",
      "up: last response → exit",
      "requests",
      "failures (target 0)",
    ],
    rows: [
      row("component"),
      row("by hand"),
      [
        "component / by hand",
        `${fmt(component.ops / byHand.ops)} ${verdict(component.ops <= byHand.ops)} (target ≤ 1)`,
        "",
        `${fmt(spanRatio)} ${verdict(component.span <= byHand.span)} (target ≤ 1)`,
        ratio("spanBefore"),
        ratio("spanFrom"),
        "",
        `${fmt(upRatio)} ${verdict(upRatio <= UP_TARGET)} (target ≤ ${fmt(UP_TARGET)})`,
        ratio("upBefore"),
        ratio("upAfter"),
        ratio("requests"),
        "",
      ],
    ],
    notes: [
      `Floor: the operations that must run are the branch's create_branch and its compute's start_compute; the emulator runs a project's operations one at a time, so 2 × ${d} ms = ${secs(floorMs)}. The SQL the Migrations and RoleGrants run goes to the compute's Postgres, not through the API.`,
      'The component is `new PreviewEnvironment("env", { projectId, name, migrations: "migrations" })`, its other inputs left to their defaults: database `app` (the parent has none of that name, so it makes the owner `Role` and the `Database`), runtime role `app` with read-write access to `public`, ttl 168h, schema-only copy of the default branch. The program by hand declares the same children with the inputs the component gives them, the parent named by its id.',
      `"operations" counts the operations the program's requests started on the environment's branch, from the emulator's operation log (the platform's own availability checks are left out). "API span" is the first API request to the last response, from the emulator's request log; "up wall time" the whole \`pulumi up --yes --skip-preview\` (Pulumi's start-up included). Both are split at the arrival of the branch's \`POST /branches\`, and the \`up\` also at the last API response: up = (start → POST /branches) + (POST /branches → last response) + (last response → exit).`,
      `The median of each round's own ratio (a component run over the run by hand right after it): API span ${fmt(roundRatio((r) => r.apiSpanMs))}, up wall time ${fmt(roundRatio((r) => r.upMs))}.`,
      differences.length === 0
        ? "Both ways sent the same requests, route by route (medians)."
        : `Requests that differ, component vs by hand (medians): ${differences.join(", ")}.`,
      ...panics(results),
      "A failure is a branch not made or made twice, an operation not finished, a migration not applied, a runtime role that cannot read the seeded rows, or an `up` that did not exit 0.",
    ],
  };
}
