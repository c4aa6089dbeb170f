// Benchmark 11: the provider plugin against the dynamic provider, on the same program shape (50
// personal API keys and 20 branches in one project), the same emulator settings, alternated in the
// same run. Each side goes through `up` (creates all 70), a no-change `up`, `refresh` and `destroy`,
// each the CLI's own command as a pipeline runs it. The floor of a phase is its operations run one
// after another (one project: the API runs one at a time), each taking the emulator's D; keys have
// no operations, and 50 keys take (50 − 40) / 40 s on their route's bucket.
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import { DEMO } from "../emulator";
import { type EngineRun, engineRun, type Scenario, scenarioProject, timedCommand } from "./support/engine";
import { fmt, median, secs, type Table } from "./support/stats";

type Side = "dynamic" | "plugin";
/** Starts of each side's provider process measured on their own, alternated. */
const START_RUNS = 5;
const PHASES = [
  ["up (creates all)", ["up", "--yes", "--skip-preview"]],
  ["no-change preview", ["preview"]],
  ["no-change up", ["up", "--yes", "--skip-preview"]],
  ["refresh", ["refresh", "--yes", "--skip-preview"]],
  ["destroy", ["destroy", "--yes", "--skip-preview"]],
] as const;
type Phase = (typeof PHASES)[number][0];

interface PhaseRun {
  ms: number;
  requests: number;
  rateLimited: number;
  locked: number;
  /** Operations the phase ran in the project. */
  operations: number;
  error?: string;
}

function scenario(keys: number, branches: number, plugin: boolean): Scenario {
  return {
    plugin,
    keys: Array.from({ length: keys }, (_, i) => ({ res: `k${i}`, name: `bench-plugin-key-${i}` })),
    branches: Array.from({ length: branches }, (_, i) => ({
      res: `b${i}`,
      projectId: DEMO.projectId,
      name: `bench-plugin-${i}`,
      endpoints: [{ type: "read_write" }],
    })),
  };
}

async function runSide(side: Side, keys: number, branches: number, d: number): Promise<Map<Phase, PhaseRun>> {
  const run: EngineRun = await engineRun({
    scenario: scenario(keys, branches, side === "plugin"),
    emulator: { opDurationMs: d },
  });
  const phases = new Map<Phase, PhaseRun>();
  try {
    for (const [phase, command] of PHASES) {
      const before = run.emulator.control.dumpState().operations.length;
      const { ms, error } = await timedCommand(run, [...command]);
      const log = run.emulator.control.requests();
      phases.set(phase, {
        ms,
        requests: log.length,
        rateLimited: log.filter((r) => r.status === 429).length,
        locked: log.filter((r) => r.status === 423).length,
        operations: run.emulator.control.dumpState().operations.length - before,
        ...(error === undefined ? {} : { error }),
      });
      if (error !== undefined) break;
      if (phase === "up (creates all)") assertServedBy(run, side);
    }
  } finally {
    await run.dispose();
  }
  return phases;
}

/** The provider process each side's engine starts: its command, as the engine finds it on PATH. */
const PROVIDER_BIN: Record<Side, string> = {
  dynamic: "pulumi-resource-pulumi-nodejs",
  plugin: "pulumi-resource-clouddb",
};

/**
 * How long `side`'s provider process takes from spawn to the port line the engine waits for, started
 * as the engine starts it (in the program's folder, the engine's address as its argument; nothing
 * listens there, so the process is ended once it has printed its port).
 */
function providerStartMs(side: Side): Promise<number> {
  const cwd = scenarioProject();
  const PATH = `${path.join(cwd, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  return spawnToPortMs(PROVIDER_BIN[side], cwd, { ...process.env, PATH });
}

/** Milliseconds from spawning `command` (in `cwd`, with `env`) to the port line it prints first. */
export function spawnToPortMs(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, ["127.0.0.1:1"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "ignore"],
      // Its own process group: the dynamic side's shell script runs `node` as a child, which ending
      // the script alone would leave running (holding the pipe, so this process never exits).
      detached: true,
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before printing its port`)));
    readline.createInterface({ input: child.stdout }).once("line", (line) => {
      const ms = performance.now() - started;
      child.removeAllListeners("exit");
      if (child.pid !== undefined) process.kill(-child.pid);
      if (/^\d+$/.test(line.trim())) resolve(ms);
      else reject(new Error(`${command} printed ${JSON.stringify(line)} where its port was due`));
    });
  });
}

/** Throws unless the stack's branches were made by `side`: the type tokens in the state say which. */
function assertServedBy(run: EngineRun, side: Side): void {
  const token = side === "plugin" ? "clouddb:index:Branch" : "pulumi-nodejs:dynamic/clouddb:Branch";
  const state = JSON.parse(run.e2e.rawState()) as {
    checkpoint: { latest?: { resources?: { type: string }[] } };
  };
  const types = new Set((state.checkpoint.latest?.resources ?? []).map((r) => r.type));
  if (!types.has(token)) {
    throw new Error(
      `the ${side} side's state holds no ${token} (${[...types].join(", ")}): not the ${side} provider`,
    );
  }
}

/** Benchmark 11 as a table. */
export async function benchPlugin(opts: {
  keys: number;
  branches: number;
  d: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const { keys, branches, d, runs } = opts;
  const results: Record<Side, Map<Phase, PhaseRun>[]> = { dynamic: [], plugin: [] };
  for (let i = 0; i < runs; i++) {
    // Alternated, so both sides see the same load on the machine.
    for (const side of ["dynamic", "plugin"] as const) {
      const phases = await runSide(side, keys, branches, d);
      results[side].push(phases);
      opts.log(
        `  run ${i + 1}/${runs} ${side}: ${[...phases]
          .map(([phase, r]) => `${phase} ${secs(r.ms)}${r.error ? ` FAILED: ${r.error}` : ""}`)
          .join(", ")}`,
      );
    }
  }
  const of = (side: Side, phase: Phase, figure: (r: PhaseRun) => number) =>
    median(
      results[side]
        .map((phases) => phases.get(phase))
        .filter((r) => r !== undefined)
        .map(figure),
    );
  const starts: Record<Side, number[]> = { dynamic: [], plugin: [] };
  for (let i = 0; i < START_RUNS; i++) {
    for (const side of ["dynamic", "plugin"] as const) starts[side].push(await providerStartMs(side));
  }
  const [dynStart, plugStart] = [median(starts.dynamic), median(starts.plugin)];
  opts.log(
    `  provider start (spawn → port), median of ${START_RUNS}: dynamic ${secs(dynStart)}, plugin ${secs(plugStart)}`,
  );
  const keyFloorMs = (Math.max(0, keys - 40) / 40) * 1000;
  const rows = PHASES.map(([phase]) => {
    const operations = of("dynamic", phase, (r) => r.operations);
    const floorMs = Math.max(operations * d, phase === "up (creates all)" ? keyFloorMs : 0);
    const [dyn, plug] = [of("dynamic", phase, (r) => r.ms), of("plugin", phase, (r) => r.ms)];
    const failed = (["dynamic", "plugin"] as const).some((side) =>
      results[side].some((phases) => phases.get(phase)?.error !== undefined || !phases.has(phase)),
    );
    return [
      phase,
      secs(dyn),
      secs(plug),
      fmt(plug / dyn),
      `${operations} × ${d} ms = ${secs(floorMs)}`,
      floorMs > 0 ? `${fmt(dyn / floorMs)} / ${fmt(plug / floorMs)}` : "",
      `${of("dynamic", phase, (r) => r.requests)} / ${of("plugin", phase, (r) => r.requests)}`,
      `${of("dynamic", phase, (r) => r.rateLimited)} / ${of("plugin", phase, (r) => r.rateLimited)}`,
      `${of("dynamic", phase, (r) => r.locked)} / ${of("plugin", phase, (r) => r.locked)}`,
      failed ? "a run failed" : "",
    ];
  });
  rows.push([
    `provider start (spawn → port), median of ${START_RUNS}`,
    secs(dynStart),
    secs(plugStart),
    fmt(plugStart / dynStart),
    "",
    "",
    "",
    "",
    "",
    "",
  ]);
  return {
    title: `11. The provider plugin against the dynamic provider: ${keys} personal keys and ${branches} branches — median of ${runs}`,
    header: [
      "phase",
      "dynamic",
      "plugin",
      "plugin / dynamic",
      "floor (operations × D)",
      "wall / floor (dynamic / plugin)",
      "requests (dynamic / plugin)",
      "429s",
      "423s",
      "",
    ],
    rows,
    notes: [
      `One Node.js program (tests/e2e/fixtures/scenario) declares the same ${keys} personal API keys and ${branches} branches (each with a read_write compute, in one project) through the package's classes (the dynamic provider) or by type token (the provider plugin \`pulumi-resource-clouddb\` from the installed package's bin); a fresh emulator (D = ${d} ms per operation, the real rate limits) and a fresh stack per side, sides alternated.`,
      `Each phase is the CLI's own command (\`pulumi preview\`, \`pulumi up|refresh|destroy --yes --skip-preview\`). The floor counts the operations the phase ran in the project (the API runs one at a time), each D long; ${keys} personal keys need (${keys} − 40) / 40 s on their route's bucket of 40 per second, inside the create's floor.`,
      `Provider start: the provider process alone, spawned as the engine spawns it (\`${PROVIDER_BIN.dynamic}\`, a shell script that runs \`node\` twice, once to find @pulumi/pulumi's dynamic-provider script; \`${PROVIDER_BIN.plugin}\`, one \`node\` loading the package's provider and gRPC server) until it prints the port the engine waits for; every command above pays it once per side. The dynamic provider then deserializes a resource's provider (its serialized closure, in the state) when a call for it arrives; the plugin has loaded the package's kinds before its port.`,
    ],
  };
}
