// `npm run bench [-- --quick] [-- --only 1,3] [-- --runs N] [-- --write]`: the benchmarks of
// the project, each printing its measured figure, the physical floor and the ratio (median of several runs).
// `--write` also puts the figures of the benchmarks run into bench/RESULTS.md (the others' stay) and
// appends the run to bench/HISTORY.md. Not part of `npm test`.

import { execFileSync } from "node:child_process";
import * as os from "node:os";
import { parseArgs as parseCliArgs } from "node:util";
import { type BranchMode, benchBranches } from "./branches";
import { benchDataPlane } from "./data-plane";
import { benchEnvironments } from "./environments";
import { benchKeys } from "./keys";
import { benchListing } from "./listing";
import { benchPersonalKeys } from "./personal-keys";
import { benchPlugin } from "./plugin";
import { benchPluginStart } from "./pluginStart";
import { benchPointInTime } from "./point-in-time";
import { benchPreview } from "./preview";
import { benchPreviewEnvironment } from "./preview-environment";
import { benchRefresh } from "./refresh";
import { benchServerless } from "./serverless";
import { benchSmallStacks } from "./small-stacks";
import { benchStacks } from "./stacks";
import { benchStartup } from "./startup";
import { disposeProject, scenarioProject } from "./support/engine";
import { writeRun } from "./support/results";
import { renderTable, type Table } from "./support/stats";
import { benchSweep } from "./sweep";

/** Every benchmark, by the number `--only` takes. */
const EVERY_BENCH = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];

const OPTIONS = {
  quick: { type: "boolean" },
  write: { type: "boolean" },
  only: { type: "string" },
  runs: { type: "string" },
} as const;

interface Args {
  quick: boolean;
  only: Set<number>;
  runs: number | undefined;
  write: boolean;
}

function parseArgs(argv: string[]): Args {
  const usage = "use --quick, --only 1,3, --runs N, --write";
  const parsed = (() => {
    try {
      return parseCliArgs({ args: argv, options: OPTIONS, strict: true });
    } catch (err) {
      throw new Error(`${(err as Error).message}: ${usage}`);
    }
  })();
  const { quick, write, only, runs } = parsed.values;
  return {
    quick: quick ?? false,
    write: write ?? false,
    only: new Set((only ?? EVERY_BENCH.join(",")).split(",").map(Number)),
    runs: runs === undefined ? undefined : Number(runs),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runs = args.runs ?? (args.quick ? 1 : 3);
  /** The rendered tables of each benchmark run, by its number. */
  const tables = new Map<number, string[]>();
  const print = (bench: number, t: Table) => {
    tables.set(bench, [...(tables.get(bench) ?? []), renderTable(t)]);
    process.stdout.write(`\n${renderTable(t)}\n`);
  };
  const started = new Date();
  const loadAtStart = os.loadavg();
  try {
    if (args.only.has(1) || args.only.has(2)) {
      log(`bench 1+2: branches in one project`);
      scenarioProject();
      const modes: BranchMode[] = [
        { label: "queue, default poll", queue: true },
        { label: "queue, poll 50,100 ms", queue: true, poll: "50,100" },
        { label: "no queue, default poll", queue: false },
        { label: "no queue, poll 50,100 ms", queue: false, poll: "50,100" },
        { label: "queue, default poll, no endpoints", queue: true, endpoints: false },
      ];
      const [wall, requests] = await benchBranches({
        n: args.quick ? 5 : 20,
        d: 500,
        runs,
        modes,
        log,
      });
      if (args.only.has(1)) print(1, wall!);
      if (args.only.has(2)) print(2, requests!);
    }
    if (args.only.has(3)) {
      log("bench 3: project-scoped keys in one up");
      print(3, await benchKeys({ n: args.quick ? 40 : 200, runs, log }));
    }
    if (args.only.has(4)) {
      log("bench 4: listing operations");
      print(
        4,
        await benchListing({
          small: args.quick ? 2_000 : 10_000,
          large: args.quick ? 20_000 : 100_000,
          runs,
          log,
        }),
      );
    }
    if (args.only.has(5)) {
      log("bench 5: no-change preview");
      print(5, await benchPreview({ n: args.quick ? 10 : 50, runs, log }));
    }
    if (args.only.has(6)) {
      log("bench 6: stacks at once on one account");
      print(
        6,
        await benchStacks({
          keysPerStack: 100,
          branchesPerStack: 5,
          stackCounts: args.quick ? [2] : [2, 4, 8],
          runs,
          log,
        }),
      );
    }
    if (args.only.has(7)) {
      log("bench 7: start-up of a small TypeScript program");
      for (const t of await benchStartup({ runs, log })) print(7, t);
    }
    if (args.only.has(8)) {
      log("bench 8: personal keys in one up");
      print(8, await benchPersonalKeys({ n: args.quick ? 20 : 50, runs, log }));
    }
    if (args.only.has(9)) {
      log("bench 9: refresh of keys and branches");
      print(
        9,
        await benchRefresh({
          keys: args.quick ? 20 : 100,
          branches: args.quick ? 10 : 50,
          runs,
          log,
        }),
      );
    }
    if (args.only.has(10)) {
      log("bench 10: branch creation with data (data plane)");
      print(10, await benchDataPlane({ mb: 100, branches: args.quick ? 3 : 10, log }));
    }
    if (args.only.has(11)) {
      log("bench 11: the provider plugin against the dynamic provider");
      print(
        11,
        await benchPlugin({
          keys: args.quick ? 10 : 50,
          branches: args.quick ? 4 : 20,
          d: 200,
          runs,
          log,
        }),
      );
    }
    if (args.only.has(12)) {
      log("bench 12: provider start, spawn to port: dynamic host, npm plugin, plugin binary");
      print(12, await benchPluginStart({ runs: args.quick ? 3 : 10, log }));
    }
    if (args.only.has(13)) {
      log("bench 13: preview environments in one project, roles and databases before or after the compute");
      print(
        13,
        await benchEnvironments({
          n: 5,
          d: 500,
          runs,
          modes: [
            {
              label: "roles before the compute (Branch without endpoints, Role, Database, Endpoint)",
              rolesFirst: true,
            },
            { label: "roles after the compute (Branch with endpoints, Role, Database)", rolesFirst: false },
          ],
          log,
        }),
      );
    }
    if (args.only.has(14)) {
      log("bench 14: the serverless driver (SQL over HTTP, WebSocket) against TCP on one endpoint");
      print(14, await benchServerless({ n: args.quick ? 200 : 1_000, runs, log }));
    }
    if (args.only.has(15)) {
      log("bench 15: a branch from a point of history (data plane)");
      print(15, await benchPointInTime({ mb: args.quick ? 10 : 50, branches: args.quick ? 1 : 3, log }));
    }
    if (args.only.has(16)) {
      log("bench 16: one preview environment, the PreviewEnvironment component against its children by hand");
      print(16, await benchPreviewEnvironment({ d: 500, runs: args.runs ?? (args.quick ? 1 : 7), log }));
    }
    if (args.only.has(17)) {
      log("bench 17: clouddb sweep --delete on a project of marked branches, a quarter orphaned");
      print(
        17,
        await benchSweep({
          branches: args.quick ? 40 : 200,
          orphans: args.quick ? 10 : 50,
          d: 200,
          runs,
          log,
        }),
      );
    }
    if (args.only.has(18)) {
      log("bench 18: small stacks from YAML, Python and TypeScript beside the engine's floor");
      const small = await benchSmallStacks({
        sizes: args.quick ? [10] : [50, 200],
        perResourceSizes: args.quick ? [10, 50] : [50, 1000],
        runs: args.runs ?? 5,
        log,
      });
      for (const table of small) print(18, table);
    }
  } finally {
    disposeProject();
  }
  if (args.write) writeResults(tables, started, process.argv.slice(2), loadAtStart);
}

function writeResults(
  tables: Map<number, string[]>,
  started: Date,
  argv: string[],
  loadAtStart: number[],
): void {
  const pulumi = (() => {
    try {
      return execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
    } catch {
      return "unknown";
    }
  })();
  const written = writeRun(__dirname, {
    started,
    command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(" ")}` : ""}`,
    about: [
      `- Date: ${started.toISOString()}`,
      `- Machine: ${os.cpus().length} CPU (${os.cpus()[0]?.model ?? "unknown"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, ${os.platform()} ${os.release()}`,
      `- Node ${process.version}, Pulumi CLI ${pulumi}, @pulumi/pulumi ${require("@pulumi/pulumi/package.json").version}`,
      `- Load average (1 min) at start ${loadAtStart[0]?.toFixed(2)}, at end ${os.loadavg()[0]?.toFixed(2)}; took ${Math.round((Date.now() - started.getTime()) / 60_000)} min`,
    ],
    benches: new Map([...tables].map(([bench, rendered]) => [bench, rendered.join("\n")])),
  });
  log(`wrote ${written.results} and ${written.history}`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
