// Benchmark 6: several stacks at once on one account (the real engine, one `pulumi up` per stack, all
// started together), each creating project-scoped keys on the 10/s key-creation route of one account.
// Without shared infrastructure, and with the shared limiter on a real Valkey server.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../emulator";
import { installPackedProject } from "../tests/e2e/support/package";
import { collect, createStack, ROOT } from "../tests/e2e/support/stack";
import { startValkey } from "../tests/support/valkey";
import type { KeySpec } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";
import { routeWindow } from "./support/window";

const ORG_KEY_ROUTE = "POST /organizations/{org_id}/api_keys";
const LIMIT_PER_SECOND = 10;

interface StacksRun {
  upMs: number;
  windowMs: number;
  created: number;
  rateLimited: number;
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

async function runOnce(stacks: number, perStack: number, limiterUrl: string | undefined): Promise<StacksRun> {
  const emulator: RunningEmulator = await startEmulator({ seed: "demo" });
  const runs = await Promise.all(
    Array.from({ length: stacks }, (_, s) =>
      createStack({
        workDir: limiterProject(),
        apiUrl: emulator.url,
        apiKey: DEMO.personalKey,
        stackName: `bench-stacks-${process.pid}-${Date.now()}-${s}`,
        config: { scenario: JSON.stringify({ keys: keys(s, perStack) }) },
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
    const { first, last, spanMs, ok } = routeWindow(log, ORG_KEY_ROUTE);
    const times = log
      .map((r) => r.at)
      .filter((t) => t >= first && t <= last)
      .sort((a, b) => a - b);
    let longestGapMs = 0;
    for (let i = 1; i < times.length; i++) longestGapMs = Math.max(longestGapMs, times[i]! - times[i - 1]!);
    return {
      upMs,
      windowMs: spanMs,
      created: ok,
      rateLimited: log.filter((r) => r.status === 429).length,
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
  stackCounts: readonly number[];
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const valkey = await startValkey();
  const rows: string[][] = [];
  try {
    for (const stacks of opts.stackCounts) {
      for (const shared of [false, true]) {
        const done: StacksRun[] = [];
        for (let i = 0; i < opts.runs; i++) {
          const r = await runOnce(stacks, opts.perStack, shared ? valkey.url : undefined);
          opts.log(
            `  ${stacks} stacks${shared ? ", shared limiter" : ""}, run ${i + 1}/${opts.runs}: up ${secs(r.upMs)}, ` +
              `window ${secs(r.windowMs)}, created ${r.created}, 429s ${r.rateLimited}, longest gap ${secs(r.longestGapMs)}, failed stacks ${r.failures}`,
          );
          done.push(r);
        }
        const total = stacks * opts.perStack;
        const window = median(done.map((r) => r.windowMs));
        // The bucket of 10 starts full: `total` keys need (total - 10) / 10 s after the first request.
        const floorMs = ((total - LIMIT_PER_SECOND) / LIMIT_PER_SECOND) * 1000;
        const share = floorMs / window;
        const limited = Math.max(...done.map((r) => r.rateLimited));
        const gap = Math.max(...done.map((r) => r.longestGapMs));
        const failures = Math.max(...done.map((r) => r.failures));
        const created = Math.min(...done.map((r) => r.created));
        const target = shared ? 0.9 : 0.8;
        rows.push([
          `${stacks} stacks × ${opts.perStack} keys${shared ? ", shared limiter" : ""}`,
          `${created}/${total}`,
          secs(window),
          secs(floorMs),
          fmt(share),
          `≥ ${target}`,
          String(limited),
          secs(gap),
          verdict(
            created === total &&
              failures === 0 &&
              share >= target &&
              gap < 5_000 &&
              (!shared || limited === 0),
          ),
        ]);
      }
    }
  } finally {
    await valkey.stop();
    if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
    project = undefined;
  }
  return {
    title: `6. Stacks at once on one account, project-scoped keys (10/s route) — median of ${opts.runs}`,
    header: [
      "case",
      "keys created",
      "key-creation window",
      "floor",
      "throughput / limit",
      "target",
      "429s (worst)",
      "longest gap",
      "verdict",
    ],
    rows,
    notes: [
      "Every stack is its own `pulumi up` (its own CLI, program and provider process), all started together against one emulator account with the real limits.",
      "Throughput / limit = floor / window, where the floor is (keys − 10) / 10 s (the bucket of 10 starts full). The window runs from the first key POST to the last successful one.",
      "Longest gap: the longest time in the window in which no process sent any request. Targets: ≥ 0.8 and < 5 s alone; 0 × 429 and ≥ 0.9 with the shared limiter.",
      "The shared limiter runs on a real valkey-server (tools/valkey/install.sh).",
    ],
  };
}
