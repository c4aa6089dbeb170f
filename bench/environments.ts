// Benchmark 13: N preview environments (a branch, a compute, a role, a database owned by the role,
// the database's connection string) in one project, created by one `pulumi up` against the emulator
// with operation duration D. The project runs its operations one at a time, and the operations that
// must run are each branch's create_branch and its compute's start_compute, so the floor is
// N x 2 x D. A role or database made on a branch that already has its compute starts operations of
// its own on it (docs/api-rules.md, Operations); made before the compute, none.

import { DEMO } from "../emulator";
import { engineRun, timedUp } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";

/** One way of writing the program. */
export interface EnvironmentMode {
  label: string;
  /** A branch without endpoints, then the role and the database, then an Endpoint depending on them. */
  rolesFirst: boolean;
}

/** What one `up` measured. */
interface EnvironmentRun {
  upMs: number;
  apiSpanMs: number;
  operations: number;
  byAction: Map<string, number>;
  locked: number;
  requests: number;
  failures: number;
  error?: string;
}

const TARGET = 1.5;

async function runOnce(n: number, d: number, mode: EnvironmentMode): Promise<EnvironmentRun> {
  const environments = Array.from({ length: n }, (_, i) => ({
    res: `env${i}`,
    projectId: DEMO.projectId,
    name: `preview-${i}`,
    rolesFirst: mode.rolesFirst,
  }));
  const run = await engineRun({ scenario: { environments }, emulator: { opDurationMs: d } });
  try {
    const { ms, error } = await timedUp(run);
    const log = run.emulator.control.requests();
    const snap = run.emulator.control.dumpState();
    const made = snap.branches.filter((b) => b.name.startsWith("preview-") && b.deleted_at_ms === undefined);
    const madeIds = new Set(made.map((b) => b.id));
    // The operations the program's requests started; the platform's own (availability checks) are not the program's.
    const ops = snap.operations.filter(
      (op) => op.branch_id !== undefined && madeIds.has(op.branch_id) && op.initiator === "user",
    );
    const byAction = new Map<string, number>();
    for (const op of ops) byAction.set(op.action, (byAction.get(op.action) ?? 0) + 1);
    const outputs = error === undefined ? await run.e2e.stack.outputs() : {};
    const connections = (outputs.connections?.value ?? {}) as Record<string, unknown>;
    const urls = environments.filter((e) => String(connections[e.res] ?? "").startsWith("postgresql://"));
    const first = Math.min(...log.map((r) => r.at));
    const last = Math.max(...log.map((r) => r.at + r.durationMs));
    return {
      upMs: ms,
      apiSpanMs: last - first,
      operations: ops.length,
      byAction,
      locked: log.filter((r) => r.status === 423).length,
      requests: log.length,
      failures:
        n -
        made.length +
        ops.filter((op) => op.status !== "finished").length +
        (n - urls.length) +
        (error === undefined ? 0 : 1),
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    await run.dispose();
  }
}

/** Benchmark 13 as a table: each mode's up against the floor of the branch and compute operations. */
export async function benchEnvironments(opts: {
  n: number;
  d: number;
  runs: number;
  modes: EnvironmentMode[];
  log: (line: string) => void;
}): Promise<Table> {
  const { n, d, runs } = opts;
  const required = n * 2;
  const floorMs = required * d;
  const results: Array<{ mode: EnvironmentMode; runs: EnvironmentRun[] }> = [];
  for (const mode of opts.modes) {
    const done: EnvironmentRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runOnce(n, d, mode);
      opts.log(
        `  ${mode.label} run ${i + 1}/${runs}: up ${secs(r.upMs)}, API span ${secs(r.apiSpanMs)}, ` +
          `operations ${r.operations} (${[...r.byAction].map(([a, c]) => `${a} ${c}`).join(", ")}), ` +
          `423s ${r.locked}, failures ${r.failures}, requests ${r.requests}` +
          (r.error ? `\n    error: ${r.error}` : ""),
      );
      done.push(r);
    }
    results.push({ mode, runs: done });
  }
  const actions = [
    ...new Set(results.flatMap(({ runs: rs }) => rs.flatMap((r) => [...r.byAction.keys()]))),
  ].sort();
  return {
    title: `13. ${n} preview environments (branch, compute, role, database, connection string) in one project, D = ${d} ms per operation — median of ${runs}`,
    header: [
      "program",
      "operations (target ≤ N×2)",
      "by action",
      "API span",
      "floor N×2×D",
      `API span / floor (target ≤ ${TARGET})`,
      "up wall time",
      "up / floor",
      "423s",
      "failures (target 0)",
      "requests / environment",
    ],
    rows: results.map(({ mode, runs: rs }) => {
      const ops = median(rs.map((r) => r.operations));
      const span = median(rs.map((r) => r.apiSpanMs));
      const up = median(rs.map((r) => r.upMs));
      const failures = Math.max(...rs.map((r) => r.failures));
      return [
        mode.label,
        `${fmt(ops, 0)} ${verdict(ops <= required)}`,
        actions.map((a) => `${a} ${fmt(median(rs.map((r) => r.byAction.get(a) ?? 0)), 0)}`).join(", "),
        secs(span),
        secs(floorMs),
        `${fmt(span / floorMs)} ${verdict(span / floorMs <= TARGET)}`,
        secs(up),
        fmt(up / floorMs),
        fmt(median(rs.map((r) => r.locked)), 0),
        `${failures} ${verdict(failures === 0)}`,
        fmt(median(rs.map((r) => r.requests)) / n, 1),
      ];
    }),
    notes: [
      `Floor: the operations that must run are each branch's create_branch and its compute's start_compute, ${required} in all; the emulator runs a project's operations one at a time, so ${required} × ${d} ms = ${secs(floorMs)}.`,
      "Roles before the compute: each `Branch` has no `endpoints`; its `Role` and `Database` (owned by the role) are made next, on a branch with no compute, so they start no operation; then an `Endpoint` that depends on both starts the compute. The connection string is `getConnectionUriOutput` through that endpoint.",
      "Roles after the compute: each `Branch` has `endpoints: [{ type: \"read_write\" }]`, and its `Role` and `Database` are made on the running compute: the role's create starts `apply_config`, the database's `apply_config` then `suspend_compute`, each waited for in turn on the project's one queue.",
      `"operations" counts the operations the program's requests started on the environments' branches, from the emulator's operation log (the platform's own availability checks are left out). "API span" is the first API request to the last response, from the emulator's request log; "up wall time" the whole \`pulumi up --yes --skip-preview\` (Pulumi's start-up included).`,
      "A failure is a branch not made, an operation not finished, an environment without a connection string, or an `up` that did not exit 0.",
    ],
  };
}
