// Benchmark 9: a `pulumi refresh` (the real engine) of API keys of two owners (the user's personal
// keys; the organization's keys, project-scoped ones included) and branches spread over projects.
// Reads during one run share listings, so the floor is one key listing per owner plus one branch
// listing and one endpoint listing per project.
import { DEMO, demoSeed, type SeedFile } from "../emulator";
import { collect } from "../tests/e2e/support/stack";
import { type BranchSpec, engineRun, type KeySpec, timed, timedUp } from "./support/engine";
import { countBy, fmt, median, secs, type Table, verdict } from "./support/stats";

/** Projects of the demo user added to the demo seed, so the branches spread over five projects. */
const EXTRA_PROJECTS = 3;
const PROJECTS = [
  DEMO.projectId,
  DEMO.orgProjectId,
  ...Array.from({ length: EXTRA_PROJECTS }, (_, i) => `bench-refresh-${i}`),
];
/** Key owners: the user (personal keys) and the organization (organization and project-scoped keys). */
const OWNERS = 2;
/** The listings a refresh needs at least, by route. */
const FLOOR: ReadonlyMap<string, number> = new Map([
  ["GET /api_keys", 1],
  ["GET /organizations/{org_id}/api_keys", OWNERS - 1],
  ["GET /projects/{project_id}/branches", PROJECTS.length],
  ["GET /projects/{project_id}/endpoints", PROJECTS.length],
]);

interface RefreshRun {
  refreshMs: number;
  byRoute: Map<string, number>;
  requests: number;
  rateLimited: number;
  error?: string;
}

function seed(): SeedFile {
  const demo = demoSeed();
  return {
    ...demo,
    projects: [
      ...(demo.projects ?? []),
      ...PROJECTS.slice(2).map((id) => ({
        id,
        name: id,
        owner_user_id: DEMO.userId,
        default_branch: { id: `br-${id}`, name: "main" },
      })),
    ],
  };
}

/** Half personal keys, a quarter organization keys, a quarter project-scoped; branches round-robin over the projects. */
function scenario(keys: number, branches: number): { keys: KeySpec[]; branches: BranchSpec[] } {
  return {
    keys: Array.from({ length: keys }, (_, i) => {
      const key = { res: `k${i}`, name: `refresh-key-${i}` };
      if (i % 4 === 1) return { ...key, orgId: DEMO.orgId };
      if (i % 4 === 3) return { ...key, orgId: DEMO.orgId, projectId: DEMO.orgProjectId };
      return key;
    }),
    branches: Array.from({ length: branches }, (_, i) => ({
      res: `b${i}`,
      projectId: PROJECTS[i % PROJECTS.length]!,
      name: `refresh-${i}`,
    })),
  };
}

async function runOnce(keys: number, branches: number): Promise<RefreshRun> {
  const run = await engineRun({
    scenario: scenario(keys, branches),
    emulator: { seed: seed(), opDurationMs: 20 },
  });
  try {
    const created = await timedUp(run);
    if (created.error !== undefined) throw new Error(`the refresh benchmark's up failed: ${created.error}`);
    run.emulator.control.clearRequests();
    let error: string | undefined;
    const { ms } = await timed(() =>
      run.e2e.stack.refresh(collect(run.output)).catch((err: Error) => {
        error = err.message.split("\n").slice(-8).join("\n");
      }),
    );
    const log = run.emulator.control.requests();
    return {
      refreshMs: ms,
      byRoute: countBy(log),
      requests: log.length,
      rateLimited: log.filter((r) => r.status === 429).length,
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    await run.dispose();
  }
}

/** Benchmark 9 as a table. */
export async function benchRefresh(opts: {
  keys: number;
  branches: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const { keys, branches, runs } = opts;
  const done: RefreshRun[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runOnce(keys, branches);
    opts.log(
      `  run ${i + 1}/${runs}: refresh ${secs(r.refreshMs)}, requests ${r.requests}, 429s ${r.rateLimited}, ` +
        `${[...r.byRoute].map(([route, count]) => `${route} ×${count}`).join(", ")}${r.error ? `\n    error: ${r.error}` : ""}`,
    );
    done.push(r);
  }
  const floor = [...FLOOR.values()].reduce((a, b) => a + b, 0);
  const total = median(done.map((r) => r.requests));
  const routes = [...new Set([...FLOOR.keys(), ...done.flatMap((r) => [...r.byRoute.keys()])])].sort();
  const failed = done.filter((r) => r.error !== undefined).length;
  return {
    title: `9. \`pulumi refresh\` of ${keys} keys (${OWNERS} owners) and ${branches} branches in ${PROJECTS.length} projects — median of ${runs}`,
    header: ["requests", "count", "per resource", "floor", "ratio", "verdict"],
    rows: [
      ...routes.map((route) => {
        const count = median(done.map((r) => r.byRoute.get(route) ?? 0));
        const least = FLOOR.get(route) ?? 0;
        return [
          route,
          fmt(count, 0),
          fmt(count / (keys + branches), 2),
          String(least),
          least > 0 ? fmt(count / least) : "",
          "",
        ];
      }),
      [
        "all requests",
        fmt(total, 0),
        fmt(total / (keys + branches), 2),
        String(floor),
        fmt(total / floor),
        verdict(failed === 0 && total <= floor),
      ],
      ["429 responses (worst run)", String(Math.max(...done.map((r) => r.rateLimited))), "", "0", "", ""],
      ["refresh wall time", secs(median(done.map((r) => r.refreshMs))), "", "", "", ""],
    ],
    notes: [
      `Keys: half personal, a quarter organization keys, a quarter project-scoped (listed with the organization's keys), so ${OWNERS} owners. Branches without endpoints, round-robin over ${PROJECTS.length} projects (the demo seed's two and ${EXTRA_PROJECTS} more of the demo user).`,
      `Floor: one key listing per owner plus one branch listing and one endpoint listing per project: ${OWNERS} + 2 × ${PROJECTS.length} = ${floor}. Requests are counted by route in the emulator's request log during the refresh only (the \`up\` that created the stack is not counted).`,
      ...(failed > 0 ? [`${failed} of ${runs} refreshes failed (see the log).`] : []),
    ],
  };
}
