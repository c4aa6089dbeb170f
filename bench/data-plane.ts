// Benchmark 10: branch creation with data. A project's default branch holds `mb` MB of rows in the
// emulator's data plane (a real Postgres); each branch is one `POST /branches` with a read-write
// endpoint, timed to its 201 (the copy is made before the answer) and to the first query on the
// child through its connection URI. The physical floor is Postgres copying the same database
// (`CREATE DATABASE ... TEMPLATE`) on the same server, measured alone.

import { Client } from "pg";
import { DEMO, type RunningEmulator, startEmulator } from "../emulator";
import { verifyFull } from "../tests/emulator/helpers";
import { fmt, median, secs, type Table } from "./support/stats";

interface Measured {
  sizeBytes: number;
  postMs: number[];
  firstQueryMs: number[];
  floorMs: number[];
}

/** One API request with the demo key; throws unless it succeeded. */
export async function http(emu: RunningEmulator, method: string, path: string, body?: unknown) {
  const response = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few known fields.
  return text === "" ? undefined : (JSON.parse(text) as any);
}

/** Runs one statement on a fresh connection to `uri`. */
export async function sql(uri: string, statement: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: uri });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

/** Waits until the project has no unfinished operation. */
export async function idle(emu: RunningEmulator, project: string): Promise<void> {
  for (;;) {
    const { operations } = await http(emu, "GET", `/projects/${project}/operations`);
    if (operations.every((op: { status: string }) => op.status === "finished")) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function measure(mb: number, branches: number, log: (line: string) => void): Promise<Measured> {
  const emu = await startEmulator({ postgres: true, seed: "demo", opDurationMs: 5, limits: false });
  try {
    const created = await http(emu, "POST", "/projects", { project: { name: `bench-${mb}mb` } });
    const project = created.project.id as string;
    const main = created.branch.id as string;
    // Every connection verifies the endpoint's certificate, as an app's does (a TLS handshake each).
    const uri = verifyFull(created.connection_uris[0].connection_uri as string, emu.caPath);
    // About 300 bytes a row on disk (a 256-character text and the tuple overhead).
    const rows = Math.round((mb * 1024 * 1024) / 300);
    await sql(uri, "CREATE TABLE items (id bigserial PRIMARY KEY, payload text NOT NULL)");
    if (rows > 0) {
      await sql(
        uri,
        `INSERT INTO items (payload) SELECT repeat(md5(g::text), 8) FROM generate_series(1, ${rows}) g`,
      );
    }
    const [size] = await sql(uri, "SELECT pg_database_size(current_database())::bigint AS bytes");
    const sizeBytes = Number(size?.["bytes"]);
    log(`  parent: ${rows} rows, ${fmt(sizeBytes / 2 ** 20, 1)} MiB`);
    await idle(emu, project);
    await http(emu, "POST", `/projects/${project}/branches/${main}/databases`, {
      database: { name: "scratch", owner_name: "neondb_owner" },
    });
    const [physical] = await sql(uri, "SELECT current_database() AS name");
    const scratch = uri.replace("/neondb?", "/scratch?");
    const out: Measured = { sizeBytes, postMs: [], firstQueryMs: [], floorMs: [] };
    for (let i = 0; i < branches; i++) {
      await idle(emu, project);
      const t0 = performance.now();
      const child = await http(emu, "POST", `/projects/${project}/branches`, {
        branch: { parent_id: main },
        endpoints: [{ type: "read_write" }],
      });
      const t1 = performance.now();
      await sql(
        verifyFull(child.connection_uris[0].connection_uri, emu.caPath),
        "SELECT count(*) FROM items WHERE id = 1",
      );
      const t2 = performance.now();
      out.postMs.push(t1 - t0);
      out.firstQueryMs.push(t2 - t0);
      await idle(emu, project);
      await http(emu, "DELETE", `/projects/${project}/branches/${child.branch.id}`);
      // The floor: the same copy, alone (the role owns the parent's database, so it may copy it).
      const quoted = `"${String(physical?.["name"]).replaceAll('"', '""')}"`;
      const t3 = performance.now();
      await sql(scratch, `CREATE DATABASE bench_floor TEMPLATE ${quoted}`);
      out.floorMs.push(performance.now() - t3);
      await sql(scratch, "DROP DATABASE bench_floor");
      log(
        `  branch ${i + 1}: ${fmt(t1 - t0, 0)} ms to 201, ${fmt(t2 - t0, 0)} ms to first query, floor ${fmt(out.floorMs.at(-1) ?? 0, 0)} ms`,
      );
    }
    return out;
  } finally {
    await emu.stop();
  }
}

/** Branch creation time with a 0 MB and an `mb` MB parent, `branches` branches each. */
export async function benchDataPlane(options: {
  mb: number;
  branches: number;
  log: (line: string) => void;
}): Promise<Table> {
  const cases = [0, options.mb];
  const results: Array<{ mb: number; m: Measured }> = [];
  for (const mb of cases) {
    options.log(`bench 10: parent with ${mb} MB`);
    results.push({ mb, m: await measure(mb, options.branches, options.log) });
  }
  return {
    title: `10. Branch creation with data (emulator --postgres) — median of ${options.branches} branches`,
    header: [
      "parent data",
      "database size",
      "POST /branches → 201",
      "→ first query on the child",
      "floor: CREATE DATABASE … TEMPLATE alone",
      "ratio (201 / floor)",
    ],
    rows: results.map(({ mb, m }) => {
      const post = median(m.postMs);
      const floor = median(m.floorMs);
      return [
        `${mb} MB of rows`,
        `${fmt(m.sizeBytes / 2 ** 20, 1)} MiB`,
        secs(post),
        secs(median(m.firstQueryMs)),
        secs(floor),
        fmt(post / floor),
      ];
    }),
    notes: [
      "Each branch is created with one read-write endpoint, then deleted before the next (so every copy has the same source and the disk holds one copy at a time).",
      "The 201 comes after Postgres has copied every database of the parent (one `CREATE DATABASE … TEMPLATE` each, the parent's sessions ended first); the time to the first query adds a new connection through the endpoint's proxy.",
      "The floor is the same copy run alone by the parent database's owner on the same server: what any design built on one Postgres server pays. Operations take 5 ms; the project is idle before each request.",
      "Postgres runs with fsync off (a throwaway server), so the copy is bounded by reading and writing the files, not by flushing them.",
    ],
  };
}
