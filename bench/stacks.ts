// Benchmark 6: several stacks at once on one account (the real engine, one `pulumi up` per stack, all
// started together), none knowing of the others. Each stack creates project-scoped keys on the 10/s
// key-creation route of one account, alone or with branches in one project that all stacks share
// (then 423s and 429s come together); without shared infrastructure, where a 429 is a wait, and
// with the shared limiter on a real Valkey server, where there should be no 429 at all.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RequestLogEntry, type RunningEmulator, startEmulator } from "../emulator";
import { installPackedProject } from "../tests/e2e/support/package";
import { collect, createStack, ROOT } from "../tests/e2e/support/stack";
import { startValkey } from "../tests/support/valkey";
import type { BranchSpec, KeySpec, Scenario } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";
import { routeWindow } from "./support/window";

const KEY_ROUTE = "POST /organizations/{org_id}/api_keys";
const KEYS_PER_SECOND = 10;
const BRANCH_ROUTE = "POST /projects/{project_id}/branches";
/** Operation duration when branches run, and operations per branch (create_branch, start_compute). */
const BRANCH_OP_MS = 500;
const BRANCH_OPS = 2;
/** The one project every stack's keys are scoped to and its branches are made in. */
const PROJECT = DEMO.orgProjectId;
/** Targets: throughput / limit without and with the shared limiter, and the longest gap with no request. */
const TARGET_ALONE = 0.8;
const TARGET_SHARED = 0.9;
const GAP_TARGET_MS = 5_000;

/** One row: how many stacks, what each creates, and whether they share the limiter. */
interface Case {
  stacks: number;
  keys: number;
  branches: number;
  shared: boolean;
}

interface StacksRun {
  upMs: number;
  windowMs: number;
  keysMade: number;
  branchesMade: number;
  rateLimited: number;
  locked: number;
  longestGapMs: number;
  failedStacks: number;
}

let project: string | undefined;

/** The scenario project with the packed package and the shared limiter's optional `redis`. */
function limiterProject(): string {
  if (project === undefined) {
    const dev = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
    project = installPackedProject(path.join(ROOT, "tests/e2e/fixtures/scenario"), {
      redis: dev.redis,
    });
  }
  return project;
}

function scenario(stack: number, c: Case): Scenario {
  const keys: KeySpec[] = Array.from({ length: c.keys }, (_, i) => ({
    res: `k${i}`,
    name: `stack${stack}-key-${i}`,
    orgId: DEMO.orgId,
    projectId: PROJECT,
  }));
  const branches: BranchSpec[] = Array.from({ length: c.branches }, (_, i) => ({
    res: `b${i}`,
    projectId: PROJECT,
    name: `stack${stack}-branch-${i}`,
    endpoints: [{ type: "read_write" }],
  }));
  return c.branches === 0 ? { keys } : { keys, branches };
}

/**
 * The physical floor of a case: the 10-token key bucket starts full, so `n` keys need (n − 10) / 10 s;
 * the project runs one operation at a time, so `m` branches need m × 2 × 500 ms. Both run at once.
 */
function floorMs(c: Case): number {
  const keys = ((c.stacks * c.keys - KEYS_PER_SECOND) / KEYS_PER_SECOND) * 1000;
  return Math.max(keys, c.stacks * c.branches * BRANCH_OPS * BRANCH_OP_MS);
}

function label(c: Case): string {
  const branches = c.branches === 0 ? "" : ` + ${c.branches} branches`;
  return `${c.stacks} stacks × ${c.keys} keys${branches}${c.shared ? ", shared limiter" : ""}`;
}

/** The longest time between `from` and `to` in which `log` shows no request arriving. */
function longestGap(log: readonly RequestLogEntry[], from: number, to: number): number {
  const times = log
    .map((r) => r.at)
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  return gap;
}

async function runOnce(c: Case, limiterUrl: string | undefined): Promise<StacksRun> {
  const emulator: RunningEmulator = await startEmulator({
    seed: "demo",
    ...(c.branches === 0 ? {} : { opDurationMs: BRANCH_OP_MS }),
  });
  const runs = await Promise.all(
    Array.from({ length: c.stacks }, (_, s) =>
      createStack({
        workDir: limiterProject(),
        apiUrl: emulator.url,
        apiKey: DEMO.personalKey,
        stackName: `bench-stacks-${process.pid}-${Date.now()}-${s}`,
        config: { scenario: JSON.stringify(scenario(s, c)) },
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
    const keys = routeWindow(log, KEY_ROUTE);
    const branches = routeWindow(log, BRANCH_ROUTE);
    // Keys are done when their POST is answered; a branch when its operations ended and it was read.
    const first = c.branches === 0 ? keys.first : Math.min(keys.first, branches.first);
    const last = c.branches === 0 ? keys.last : Math.max(...log.map((r) => r.at + r.durationMs));
    return {
      upMs,
      windowMs: last - first,
      keysMade: keys.ok,
      branchesMade: c.branches === 0 ? 0 : branches.ok,
      rateLimited: log.filter((r) => r.status === 429).length,
      locked: log.filter((r) => r.status === 423).length,
      longestGapMs: longestGap(log, first, last),
      failedStacks: results.filter((r) => r.status === "rejected").length,
    };
  } finally {
    await Promise.all(runs.map((r) => r.dispose()));
    await emulator.stop();
  }
}

/** Benchmark 6 as a table: for each stack count, keys alone and keys with branches, each without and with the shared limiter. */
export async function benchStacks(opts: {
  keysPerStack: number;
  branchesPerStack: number;
  stackCounts: readonly number[];
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const valkey = await startValkey();
  const rows: string[][] = [];
  const cases: Case[] = opts.stackCounts.flatMap((stacks) =>
    [0, opts.branchesPerStack].flatMap((branches) =>
      [false, true].map((shared) => ({ stacks, keys: opts.keysPerStack, branches, shared })),
    ),
  );
  try {
    for (const c of cases) {
      const done: StacksRun[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const r = await runOnce(c, c.shared ? valkey.url : undefined);
        opts.log(
          `  ${label(c)}, run ${i + 1}/${opts.runs}: up ${secs(r.upMs)}, window ${secs(r.windowMs)}, ` +
            `keys ${r.keysMade}, branches ${r.branchesMade}, 429s ${r.rateLimited}, 423s ${r.locked}, ` +
            `longest gap ${secs(r.longestGapMs)}, failed stacks ${r.failedStacks}`,
        );
        done.push(r);
      }
      const expected = c.stacks * (c.keys + c.branches);
      const made = Math.min(...done.map((r) => r.keysMade + r.branchesMade));
      const failedStacks = Math.max(...done.map((r) => r.failedStacks));
      const floor = floorMs(c);
      const window = median(done.map((r) => r.windowMs));
      const share = floor / window;
      const limited = Math.max(...done.map((r) => r.rateLimited));
      const locked = Math.max(...done.map((r) => r.locked));
      const gap = Math.max(...done.map((r) => r.longestGapMs));
      const target = c.shared ? TARGET_SHARED : TARGET_ALONE;
      const met =
        failedStacks === 0 &&
        made === expected &&
        share >= target &&
        gap < GAP_TARGET_MS &&
        (!c.shared || limited === 0);
      rows.push([
        label(c),
        `${c.stacks - failedStacks}/${c.stacks}`,
        String(expected - made),
        secs(window),
        secs(floor),
        fmt(share),
        `≥ ${target}`,
        `${limited}${c.shared ? " (target 0)" : ""}, ${locked}`,
        secs(gap),
        verdict(met),
      ]);
    }
  } finally {
    await valkey.stop();
    if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
    project = undefined;
  }
  return {
    title: `6. Stacks at once on one account: project-scoped keys (10/s route), with and without branches in one project — median of ${opts.runs}`,
    header: [
      "case",
      "ups exit 0",
      "failed resources",
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
      "Every stack is its own `pulumi up` (its own CLI, program and provider process), all started together against one emulator account with the real limits; no stack knows of the others.",
      `Keys are project-scoped to one project; branches (one \`read_write\` endpoint each, operations of ${BRANCH_OP_MS} ms) are made in that same project by every stack, so the project refuses work while busy (423) while the key route refuses with 429.`,
      `Throughput / limit = floor / window. Floor: (keys − 10) / 10 s (the bucket of 10 starts full), or branches × ${BRANCH_OPS} × ${BRANCH_OP_MS} ms when that is longer. Window: from the first key or branch POST to the last successful key POST, or with branches to the last response of the run (the last branch's reads).`,
      "Failed resources: keys and branches the stacks declared that the API did not create (worst run); a 429 is a wait, so none may fail however long the queue for the limit.",
      `Longest gap: the longest time in the window in which no process sent any request. Targets: every up exits 0, no failed resource, ≥ ${TARGET_ALONE} and < ${GAP_TARGET_MS / 1000} s alone; with the shared limiter also 0 × 429 and ≥ ${TARGET_SHARED}.`,
      "The shared limiter runs on a real valkey-server (tools/valkey/install.sh).",
    ],
  };
}
