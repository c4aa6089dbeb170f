// Benchmark 15: a branch from a point of history. A project's default branch holds `mb` MB of
// rows in the emulator's data plane; a point is noted, a row written after it; then one branch
// is made at the parent's head and one at the point (`parent_timestamp`), each timed from the POST
// to its 201 (the data is in place before the answer). The floor is the branch at head (one
// `CREATE DATABASE ... TEMPLATE`): the point-in-time branch adds a recovery of the point into a
// scratch cluster (a copy of a base backup, the WAL replayed to the point) and the move of the
// database from it (a freeze, a copy of its files, a copy through the WAL).

import { type RunningEmulator, startEmulator } from "../emulator";
import { verifyFull } from "../tests/emulator/helpers";
import { http, idle, sql } from "./data-plane";
import { fmt, median, secs, type Table } from "./support/stats";

interface Measured {
  sizeBytes: number;
  headMs: number[];
  pointMs: number[];
}

/** The emulator's clock read over HTTP, as a client notes a point. */
async function clock(emu: RunningEmulator): Promise<string> {
  const response = await fetch(`${emu.origin}/__emulator/clock`);
  return ((await response.json()) as { iso: string }).iso;
}

/** POSTs a branch of `parent` (at `point` when given) and returns its id and the milliseconds to 201. */
async function timedBranch(emu: RunningEmulator, project: string, parent: string, point?: string) {
  await idle(emu, project);
  const t0 = performance.now();
  const created = await http(emu, "POST", `/projects/${project}/branches`, {
    branch: { parent_id: parent, ...(point === undefined ? {} : { parent_timestamp: point }) },
  });
  return { id: created.branch.id as string, ms: performance.now() - t0 };
}

async function measure(mb: number, branches: number, log: (line: string) => void): Promise<Measured> {
  const emu = await startEmulator({ postgres: true, seed: "demo", opDurationMs: 5, limits: false });
  try {
    const created = await http(emu, "POST", "/projects", { project: { name: `bench-pitr-${mb}mb` } });
    const project = created.project.id as string;
    const main = created.branch.id as string;
    // The endpoint's certificate verified, as an app's connection does.
    const uri = verifyFull(created.connection_uris[0].connection_uri as string, emu.caPath);
    const rows = Math.round((mb * 1024 * 1024) / 300);
    await sql(uri, "CREATE TABLE items (id bigserial PRIMARY KEY, payload text NOT NULL)");
    await sql(uri, "CREATE TABLE later (at timestamptz)");
    if (rows > 0) {
      await sql(
        uri,
        `INSERT INTO items (payload) SELECT repeat(md5(g::text), 8) FROM generate_series(1, ${rows}) g`,
      );
    }
    const [size] = await sql(uri, "SELECT pg_database_size(current_database())::bigint AS bytes");
    const out: Measured = { sizeBytes: Number(size?.["bytes"]), headMs: [], pointMs: [] };
    log(`  parent: ${rows} rows, ${fmt(out.sizeBytes / 2 ** 20, 1)} MiB`);
    for (let i = 0; i < branches; i++) {
      const point = await clock(emu);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sql(uri, "INSERT INTO later VALUES (now())");
      const head = await timedBranch(emu, project, main);
      const past = await timedBranch(emu, project, main, point);
      out.headMs.push(head.ms);
      out.pointMs.push(past.ms);
      for (const id of [head.id, past.id]) {
        await idle(emu, project);
        await http(emu, "DELETE", `/projects/${project}/branches/${id}`);
      }
      log(`  branch ${i + 1}: head ${fmt(head.ms, 0)} ms, point in time ${fmt(past.ms, 0)} ms`);
    }
    return out;
  } finally {
    await emu.stop();
  }
}

/** The time of a branch at a past point against one at head, with a 0 MB and an `mb` MB parent. */
export async function benchPointInTime(options: {
  mb: number;
  branches: number;
  log: (line: string) => void;
}): Promise<Table> {
  const results: Array<{ mb: number; m: Measured }> = [];
  for (const mb of [0, options.mb]) {
    options.log(`bench 15: parent with ${mb} MB`);
    results.push({ mb, m: await measure(mb, options.branches, options.log) });
  }
  return {
    title: `15. A branch from a point of history (emulator --postgres) — median of ${options.branches}`,
    header: [
      "parent data",
      "database size",
      "POST /branches at a past timestamp → 201",
      "floor: POST /branches at head → 201",
      "ratio (point / head)",
    ],
    rows: results.map(({ mb, m }) => {
      const point = median(m.pointMs);
      const head = median(m.headMs);
      return [
        `${mb} MB of rows`,
        `${fmt(m.sizeBytes / 2 ** 20, 1)} MiB`,
        secs(point),
        secs(head),
        fmt(point / head),
      ];
    }),
    notes: [
      "Each round notes the emulator's time over the control API, writes a row after it, then makes a branch at head and one at the noted time (no compute), and deletes both.",
      "The branch at head is one `CREATE DATABASE … TEMPLATE` per database. The branch at the point recovers the point into a scratch cluster (a copy of the newest base backup before it, then the archived WAL replayed up to it), freezes the database there, copies its files into the main cluster and copies that database once more through the WAL (`STRATEGY WAL_LOG`), so a later point still holds it.",
      "A base backup is taken each 16 MiB of WAL: the rows' own WAL brings one, so the replay stays short; its copy is the whole cluster (every database of every project), which is what grows with the data.",
    ],
  };
}
