// Benchmark 17: `clouddb sweep --delete` (the package's bin script, the pulumi CLI on PATH) on a
// project of N branches its stacks marked, M of them orphaned, against the emulator with the
// delete's operation (delete_timeline) taking D. The backend is a file backend holding the N - M
// live stacks, each made with the real `pulumi stack init` and `pulumi stack import` of a state
// holding its Branch; the M orphans' stacks never existed there. The branches are made through the
// API with the marks a Branch's create writes (`stackMarksOf`), with no compute (one operation per
// delete) and no operation time for their creates: the set-up takes seconds, where N `pulumi up`s
// take minutes. The emulator runs a project's operations one at a time, so the physical floor is the
// M deletes one after another: M x D. The requests a sweep needs are the listing, one DELETE per
// orphan and the polls of their operations; every run also checks that exactly the orphans went.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../emulator";
import { createClient } from "../provider/client";
import { CREATED_BY, CREATED_NAME, markOf, stackMarksOf } from "../provider/resources/lifecycle/owner";
import { ensurePulumiCli } from "../scripts/pulumi-cli";
import { fileBackendUrl, ROOT } from "../tests/e2e/support/stack";
import { finished } from "../tests/support/child-output";
import { countBy, fmt, median, secs, type Table, verdict } from "./support/stats";

/** The program the stacks are of, as the marks name it. */
const PROJECT = "bench-sweep";
const P = DEMO.projectId;
const PASSPHRASE = "bench-sweep";

/** The sweep's wall time may exceed the floor by at most this ratio. */
const TARGET = 1.2;

/** `pulumi stack init` and `import` at once while the backend is set up. */
const SETUP_CONCURRENCY = 4;

const ROUTES = {
  listing: "GET /projects/{project_id}/branches",
  delete: "DELETE /projects/{project_id}/branches/{branch_id}",
  poll: "GET /projects/{project_id}/operations/{operation_id}",
} as const;

/** What one sweep measured. */
interface SweepRun {
  wallMs: number;
  apiSpanMs: number;
  /** From the start of the command to its first DELETE. */
  firstDeleteMs: number;
  operations: number;
  listings: number;
  deletes: number;
  polls: number;
  other: number;
  problems: string[];
}

/** The stack of branch `i`, as a URN of its Branch names it. */
const stackOf = (i: number) => `pr-${i}`;

/** The state `pulumi stack import` takes for a stack holding one Branch, `branchId`. */
function stateOf(stack: string, branchId: string): unknown {
  const urn = (type: string, name: string) => `urn:pulumi:${stack}::${PROJECT}::${type}::${name}`;
  const provider = urn("pulumi:providers:clouddb", "default_0_1_0");
  return {
    version: 3,
    deployment: {
      manifest: { time: new Date().toISOString(), magic: "", version: "" },
      resources: [
        {
          urn: urn("pulumi:pulumi:Stack", `${PROJECT}-${stack}`),
          custom: false,
          type: "pulumi:pulumi:Stack",
        },
        {
          urn: provider,
          custom: true,
          id: "provider",
          type: "pulumi:providers:clouddb",
          inputs: {},
          outputs: {},
        },
        {
          urn: urn("clouddb:index:Branch", "preview"),
          custom: true,
          id: branchId,
          type: "clouddb:index:Branch",
          parent: urn("pulumi:pulumi:Stack", `${PROJECT}-${stack}`),
          provider: `${provider}::provider`,
          inputs: { projectId: P, name: `preview/${stack}` },
          outputs: { projectId: P, branchId, name: `preview/${stack}` },
        },
      ],
    },
  };
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachAtMost<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The bench's emulator, backend and environment, made once for every run. */
interface Setup {
  emulator: RunningEmulator;
  dir: string;
  backend: string;
  env: NodeJS.ProcessEnv;
  live: Set<string>;
}

/** Makes branches `from` to `to - 1` with a stack's marks, as the branch's create writes them; answers their ids. */
async function markedBranches(emulator: RunningEmulator, from: number, to: number): Promise<string[]> {
  const client = createClient({
    apiKey: DEMO.personalKey,
    apiUrl: emulator.url,
    pollIntervalMs: { first: 5, max: 50 },
  });
  const ids: string[] = [];
  for (let i = from; i < to; i++) {
    const name = `preview/${stackOf(i)}`;
    const owner = `urn:pulumi:${stackOf(i)}::${PROJECT}::clouddb:index:Branch::preview`;
    const made = await client.createBranch(P, {
      branch: { name },
      annotation_value: {
        [CREATED_BY]: markOf(owner, 32),
        [CREATED_NAME]: name,
        ...stackMarksOf(owner, Date.now(), stackOf(i)),
      },
    });
    ids.push(made.branch.id);
  }
  return ids;
}

async function setUp(n: number, m: number, d: number, log: (line: string) => void): Promise<Setup> {
  const started = Date.now();
  const emulator = await startEmulator({ seed: "demo", opDurationMs: { delete_timeline: d, default: 0 } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bench-sweep-"));
  fs.mkdirSync(path.join(dir, "state"));
  fs.mkdirSync(path.join(dir, "program"));
  fs.writeFileSync(path.join(dir, "program", "Pulumi.yaml"), `name: ${PROJECT}\nruntime: yaml\n`);
  const backend = fileBackendUrl(path.join(dir, "state"));
  const env: NodeJS.ProcessEnv = {
    PATH: ensurePulumiCli().path,
    HOME: dir,
    PULUMI_HOME: path.join(dir, "pulumi-home"),
    PULUMI_BACKEND_URL: backend,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    CLOUDDB_API_KEY: DEMO.personalKey,
    CLOUDDB_API_URL: emulator.url,
  };
  const ids = await markedBranches(emulator, 0, n);
  const made = Date.now();
  const pulumi = async (args: string[]) => {
    const { code, output } = await finished("pulumi", args, { cwd: path.join(dir, "program"), env });
    if (code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${output}`);
  };
  await eachAtMost(
    ids.slice(0, n - m).map((id, i) => [stackOf(i), id] as const),
    SETUP_CONCURRENCY,
    async ([stack, id]) => {
      const name = `organization/${PROJECT}/${stack}`;
      const file = path.join(dir, `${stack}.json`);
      fs.writeFileSync(file, JSON.stringify(stateOf(stack, id)));
      await pulumi(["stack", "init", name, "--non-interactive"]);
      await pulumi(["stack", "import", "--stack", name, "--file", file]);
    },
  );
  log(
    `  set-up: ${n} marked branches in ${secs(made - started)}, ${n - m} stacks (init, import) in ${secs(Date.now() - made)}`,
  );
  return { emulator, dir, backend, env, live: new Set(ids.slice(0, n - m)) };
}

async function runOnce(setup: Setup, n: number, m: number, fresh: boolean): Promise<SweepRun> {
  const { emulator } = setup;
  // The orphans of the previous run are gone: made again, with the same marks.
  if (!fresh) await markedBranches(emulator, n - m, n);
  const listed = () =>
    emulator.control
      .dumpState()
      .branches.filter((b) => b.deleted_at_ms === undefined && b.name.startsWith("preview/"));
  const before = listed();
  const orphans = new Set(before.filter((b) => !setup.live.has(b.id)).map((b) => b.id));
  const opsBefore = new Set(emulator.control.dumpState().operations.map((op) => op.id));
  emulator.control.clearRequests();
  const startedAt = Date.now();
  const { code, output } = await finished(
    path.join(ROOT, "bin", "clouddb"),
    ["sweep", "--project", P, "--backend", setup.backend, "--delete"],
    { cwd: setup.dir, env: setup.env },
  );
  const wallMs = Date.now() - startedAt;
  const requests = emulator.control.requests();
  const byRoute = countBy(requests);
  const ops = emulator.control.dumpState().operations.filter((op) => !opsBefore.has(op.id));
  const problems: string[] = [];
  if (code !== 0) problems.push(`exit ${code}: ${output.trim().split("\n").slice(0, 8).join(" ")}`);
  const after = new Set(listed().map((b) => b.id));
  const wrong = before.filter((b) => after.has(b.id) === orphans.has(b.id));
  if (wrong.length > 0) problems.push(`${wrong.length} branches kept or deleted against the rules`);
  if (orphans.size !== m) problems.push(`${orphans.size} orphans, not ${m}`);
  for (const op of ops.filter((o) => o.status !== "finished")) problems.push(`${op.action} ${op.status}`);
  const first = Math.min(...requests.map((r) => r.at));
  const last = Math.max(...requests.map((r) => r.at + r.durationMs));
  const firstDelete = requests.find((r) => r.route === ROUTES.delete);
  const known = [ROUTES.listing, ROUTES.delete, ROUTES.poll].reduce(
    (sum, r) => sum + (byRoute.get(r) ?? 0),
    0,
  );
  return {
    wallMs,
    apiSpanMs: last - first,
    firstDeleteMs: (firstDelete?.at ?? Number.NaN) - startedAt,
    operations: ops.length,
    listings: byRoute.get(ROUTES.listing) ?? 0,
    deletes: byRoute.get(ROUTES.delete) ?? 0,
    polls: byRoute.get(ROUTES.poll) ?? 0,
    other: requests.length - known,
    problems,
  };
}

/** Benchmark 17 as a table: the sweep's wall time against the floor, and its requests by route. */
export async function benchSweep(opts: {
  branches: number;
  orphans: number;
  d: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const { branches: n, orphans: m, d, runs } = opts;
  const floorMs = m * d;
  const setup = await setUp(n, m, d, opts.log);
  const results: SweepRun[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = await runOnce(setup, n, m, i === 0);
      opts.log(
        `  run ${i + 1}/${runs}: ${secs(r.wallMs)} (${fmt(r.wallMs / floorMs)} x floor), first DELETE at ${secs(r.firstDeleteMs)}, ` +
          `API span ${secs(r.apiSpanMs)}, operations ${r.operations}, requests: listing ${r.listings}, DELETE ${r.deletes}, ` +
          `operation polls ${r.polls}, other ${r.other}${r.problems.map((p) => `\n    ${p}`).join("")}`,
      );
      results.push(r);
    }
  } finally {
    await setup.emulator.stop();
    fs.rmSync(setup.dir, { recursive: true, force: true });
  }
  const of = (pick: (r: SweepRun) => number) => median(results.map(pick));
  const wall = of((r) => r.wallMs);
  const failures = results.reduce((sum, r) => sum + r.problems.length, 0);
  const requestsMet = results.every((r) => r.deletes === m && r.other === 0 && r.polls <= r.operations * 2);
  return {
    title: `17. \`clouddb sweep --delete\`: ${n} marked branches in one project, ${m} orphaned, ${n - m} held by live stacks of a file backend, D = ${d} ms per delete — median of ${runs}`,
    header: [
      "wall time",
      `floor ${m}×D`,
      `wall / floor (target ≤ ${TARGET})`,
      "first DELETE after",
      "API span",
      "operations",
      "listing requests",
      "DELETE requests",
      "operation polls",
      "other requests",
      "failures (target 0)",
    ],
    rows: [
      [
        secs(wall),
        secs(floorMs),
        `${fmt(wall / floorMs)} ${verdict(wall / floorMs <= TARGET)}`,
        secs(of((r) => r.firstDeleteMs)),
        secs(of((r) => r.apiSpanMs)),
        fmt(
          of((r) => r.operations),
          0,
        ),
        fmt(
          of((r) => r.listings),
          0,
        ),
        `${fmt(
          of((r) => r.deletes),
          0,
        )} ${verdict(requestsMet)}`,
        fmt(
          of((r) => r.polls),
          0,
        ),
        fmt(
          of((r) => r.other),
          0,
        ),
        `${failures} ${verdict(failures === 0)}`,
      ],
    ],
    notes: [
      `Floor: the emulator runs a project's operations one at a time, so the ${m} deletes take ${m} × D at least; the wall time is the command's, from its start to its exit (Node.js start, the listing, \`pulumi stack ls\`, ${n - m} \`pulumi stack export\`s, the deletes).`,
      "Set-up, not measured: the branches made through the API with the marks a Branch's create writes (no compute, so one operation per delete); the live stacks made with `pulumi stack init` and `pulumi stack import` of a state holding their Branch; the orphans' stacks never existed on the backend. The orphans are made again before each run after the first.",
      `The requests a sweep needs: ${fmt(
        of((r) => r.listings),
        0,
      )} listing, one DELETE per orphan, and the polls of their operations (at most two per operation); "other requests" counts anything else.`,
    ],
  };
}
