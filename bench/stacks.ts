// Benchmark 6: several stacks at once on one account (the real engine, one `pulumi up` per stack, all
// started together). Keys: each stack creates project-scoped keys on the 10/s key-creation route of
// one account, without shared infrastructure and with the shared limiter on a real Valkey server.
// Branches: each stack creates branches in one project, whose operations the API runs one at a time.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../emulator";
import { installPackedProject } from "../tests/e2e/support/package";
import { collect, createStack, ROOT } from "../tests/e2e/support/stack";
import { startValkey } from "../tests/support/valkey";
import type { BranchSpec, KeySpec, Scenario } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";
import { routeWindow } from "./support/window";

const ORG_KEY_ROUTE = "POST /organizations/{org_id}/api_keys";
const LIMIT_PER_SECOND = 10;
const BRANCH_ROUTE = "POST /projects/{project_id}/branches";
/** Operation duration for the branch rows, and operations per branch (create_branch, start_compute). */
const BRANCH_OP_MS = 500;
const BRANCH_OPS = 2;

/** What the stacks create: its scenario per stack, the create route, and the floor of `total` objects. */
interface Workload {
  noun: string;
  route: string;
  scenario(stack: number, n: number): Scenario;
  floorMs(total: number): number;
  emulatorOpMs?: number;
}

const KEYS: Workload = {
  noun: "keys",
  route: ORG_KEY_ROUTE,
  scenario: (stack, n) => ({ keys: keys(stack, n) }),
  // The bucket of 10 starts full: `total` keys need (total - 10) / 10 s after the first request.
  floorMs: (total) => ((total - LIMIT_PER_SECOND) / LIMIT_PER_SECOND) * 1000,
};

const BRANCHES: Workload = {
  noun: "branches",
  route: BRANCH_ROUTE,
  scenario: (stack, n) => ({ branches: branches(stack, n) }),
  // The project runs one operation at a time: every branch's create_branch and start_compute in turn.
  floorMs: (total) => total * BRANCH_OPS * BRANCH_OP_MS,
  emulatorOpMs: BRANCH_OP_MS,
};

interface StacksRun {
  upMs: number;
  windowMs: number;
  created: number;
  rateLimited: number;
  locked: number;
  longestGapMs: number;
  failures: number;
}

let project: string | undefined;

/** The scenario project with the packed package and the shared limiter's optional packages. */
function limiterProject(): string {
  if (project === undefined) {
    const dev = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
    project = installPackedProject(path.join(ROOT, "tests/e2e/fixtures/scenario"), {
      redis: dev.redis,
      "rate-limiter-flexible": dev["rate-limiter-flexible"],
    });
  }
  return project;
}

function keys(stack: number, n: number): KeySpec[] {
  return Array.from({ length: n }, (_, i) => ({
    res: `k${i}`,
    name: `stack${stack}-key-${i}`,
    orgId: DEMO.orgId,
    projectId: DEMO.orgProjectId,
  }));
}

function branches(stack: number, n: number): BranchSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    res: `b${i}`,
    projectId: DEMO.projectId,
    name: `stack${stack}-branch-${i}`,
    endpoints: [{ type: "read_write" }],
  }));
}

async function runOnce(
  work: Workload,
  stacks: number,
  perStack: number,
  limiterUrl: string | undefined,
): Promise<StacksRun> {
  const emulator: RunningEmulator = await startEmulator({
    seed: "demo",
    ...(work.emulatorOpMs === undefined ? {} : { opDurationMs: work.emulatorOpMs }),
  });
  const runs = await Promise.all(
    Array.from({ length: stacks }, (_, s) =>
      createStack({
        workDir: limiterProject(),
        apiUrl: emulator.url,
        apiKey: DEMO.personalKey,
        stackName: `bench-stacks-${process.pid}-${Date.now()}-${s}`,
        config: { scenario: JSON.stringify(work.scenario(s, perStack)) },
        env: { CLOUDDB_LIMITER_URL: limiterUrl ?? "" },
      }),
    ),
  );
  try {
    emulator.control.clearRequests();
    const started = performance.now();
    const results = await Promise.allSettled(runs.map((r) => r.stack.up(collect(r.output))));
    const upMs = performance.now() - started;
    const log = emulator.control.requests();
    const window = routeWindow(log, work.route);
    const { first, ok } = window;
    // Keys are done when their POST is answered; a branch when its operations ended and it was read.
    const last = work === KEYS ? window.last : Math.max(...log.map((r) => r.at + r.durationMs));
    const times = log
      .map((r) => r.at)
      .filter((t) => t >= first && t <= last)
      .sort((a, b) => a - b);
    let longestGapMs = 0;
    for (let i = 1; i < times.length; i++) longestGapMs = Math.max(longestGapMs, times[i]! - times[i - 1]!);
    return {
      upMs,
      windowMs: last - first,
      created: ok,
      rateLimited: log.filter((r) => r.status === 429).length,
      locked: log.filter((r) => r.status === 423).length,
      longestGapMs,
      failures: results.filter((r) => r.status === "rejected").length,
    };
  } finally {
    await Promise.all(runs.map((r) => r.dispose()));
    await emulator.stop();
  }
}

/** Benchmark 6 as a table. */
export async function benchStacks(opts: {
  perStack: number;
  branchesPerStack: number;
  stackCounts: readonly number[];
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const valkey = await startValkey();
  const rows: string[][] = [];
  const cases = [
    ...opts.stackCounts.flatMap((stacks) => [
      { work: KEYS, stacks, perStack: opts.perStack, shared: false },
      { work: KEYS, stacks, perStack: opts.perStack, shared: true },
    ]),
    ...opts.stackCounts.map((stacks) => ({
      work: BRANCHES,
      stacks,
      perStack: opts.branchesPerStack,
      shared: false,
    })),
  ];
  try {
    for (const { work, stacks, perStack, shared } of cases) {
      const label = `${stacks} stacks × ${perStack} ${work.noun}${shared ? ", shared limiter" : ""}`;
      const done: StacksRun[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const r = await runOnce(work, stacks, perStack, shared ? valkey.url : undefined);
        opts.log(
          `  ${label}, run ${i + 1}/${opts.runs}: up ${secs(r.upMs)}, window ${secs(r.windowMs)}, ` +
            `created ${r.created}, 429s ${r.rateLimited}, 423s ${r.locked}, longest gap ${secs(r.longestGapMs)}, failed stacks ${r.failures}`,
        );
        done.push(r);
      }
      const total = stacks * perStack;
      const window = median(done.map((r) => r.windowMs));
      const floorMs = work.floorMs(total);
      const share = floorMs / window;
      const limited = Math.max(...done.map((r) => r.rateLimited));
      const locked = Math.max(...done.map((r) => r.locked));
      const gap = Math.max(...done.map((r) => r.longestGapMs));
      const failures = Math.max(...done.map((r) => r.failures));
      const created = Math.min(...done.map((r) => r.created));
      const target = shared ? 0.9 : 0.8;
      rows.push([
        label,
        `${created}/${total}`,
        secs(window),
        secs(floorMs),
        fmt(share),
        `≥ ${target}`,
        `${limited}, ${locked}`,
        secs(gap),
        verdict(
          created === total && failures === 0 && share >= target && gap < 5_000 && (!shared || limited === 0),
        ),
      ]);
    }
  } finally {
    await valkey.stop();
    if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
    project = undefined;
  }
  return {
    title: `6. Stacks at once on one account: project-scoped keys (10/s route), branches in one project — median of ${opts.runs}`,
    header: [
      "case",
      "created",
      "window",
      "floor",
      "throughput / limit",
      "target",
      "429s, 423s (worst)",
      "longest gap",
      "verdict",
    ],
    rows,
    notes: [
      "Every stack is its own `pulumi up` (its own CLI, program and provider process), all started together against one emulator account with the real limits.",
      "Throughput / limit = floor / window. Keys: the floor is (keys − 10) / 10 s (the bucket of 10 starts full), and the window runs from the first key POST to the last successful one.",
      "Longest gap: the longest time in the window in which no process sent any request. Targets: ≥ 0.8 and < 5 s alone; 0 × 429 and ≥ 0.9 with the shared limiter.",
      "The shared limiter runs on a real valkey-server (tools/valkey/install.sh).",
      `Branches: one \`read_write\` endpoint each, all in one project, operations of ${BRANCH_OP_MS} ms. The project runs one operation at a time, so the floor is branches × ${BRANCH_OPS} × ${BRANCH_OP_MS} ms; the window runs from the first branch POST to the last response of the run (the last branch's reads). 423s are the project refusing work while busy: every stack's provider queues only its own creates.`,
    ],
  };
}
