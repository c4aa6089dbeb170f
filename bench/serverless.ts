// Benchmark 14: the serverless driver against the emulator's data plane. The same `n` queries (a
// lookup by primary key with one parameter, one after another) run on one endpoint three ways: SQL
// over HTTP (the driver's `neon()`, one request each), the Postgres protocol over WebSocket (the
// driver's `Client`, one session), and TCP (`pg`, one session through the endpoint's proxy). The
// floor is TCP: the same statement on the same Postgres with nothing but the proxy's TLS and byte copy
// between; SQL over HTTP pays per query what the service's HTTP path pays too (a request, the login
// check, a pooled connection, the JSON answer).

import { Client as NeonClient, neon, neonConfig } from "@neondatabase/serverless";
import { Client } from "pg";
import { DEMO, startEmulator } from "../emulator";
import { verifyFull } from "../tests/emulator/helpers";
import { fmt, median, secs, type Table } from "./support/stats";

/** The statement every way runs, and the rows it looks up. */
const LOOKUP = "SELECT body FROM items WHERE id = $1";
const ROWS = 100;

interface Way {
  label: string;
  /** Runs the lookup `n` times one after another; resolves when all answered. */
  run(n: number): Promise<void>;
  close(): Promise<void>;
}

async function ways(uri: string, caPath: string | undefined): Promise<Way[]> {
  const sql = neon(uri);
  const overWs = new NeonClient(uri);
  await overWs.connect();
  const uncoalesced = new NeonClient(uri);
  uncoalesced.neonConfig.coalesceWrites = false;
  await uncoalesced.connect();
  // Over TCP the session is inside TLS, verified against the emulator's CA, as the URI asks.
  const tcp = new Client({ connectionString: verifyFull(uri, caPath) });
  await tcp.connect();
  /** The lookup `n` times through `query`, one after another. */
  const series = (query: (text: string, values: number[]) => Promise<unknown>) => async (n: number) => {
    for (let i = 0; i < n; i++) await query(LOOKUP, [(i % ROWS) + 1]);
  };
  return [
    {
      label: "SQL over HTTP (`neon()`, a request per query)",
      run: series((text, values) => sql.query(text, values)),
      close: async () => undefined,
    },
    {
      label: "Postgres over WebSocket (driver `Client`, one session)",
      run: series((text, values) => overWs.query(text, values)),
      close: () => overWs.end(),
    },
    {
      label: "Postgres over WebSocket, `coalesceWrites = false`",
      run: series((text, values) => uncoalesced.query(text, values)),
      close: () => uncoalesced.end(),
    },
    {
      label: "TCP (`pg`, one session through the endpoint's proxy): the floor",
      run: series((text, values) => tcp.query(text, values)),
      close: () => tcp.end(),
    },
  ];
}

/** `n` queries each way, `runs` times, on one emulator with `--postgres`. */
export async function benchServerless(options: {
  n: number;
  runs: number;
  log: (line: string) => void;
}): Promise<Table> {
  const emu = await startEmulator({ postgres: true, seed: "demo", opDurationMs: 5, limits: false });
  const saved = {
    fetchEndpoint: neonConfig.fetchEndpoint,
    wsProxy: neonConfig.wsProxy,
    useSecureWebSocket: neonConfig.useSecureWebSocket,
  };
  Object.assign(neonConfig, emu.serverless);
  try {
    const response = await fetch(`${emu.url}/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ project: { name: "bench-serverless" } }),
    });
    if (response.status !== 201)
      throw new Error(`POST /projects: ${response.status} ${await response.text()}`);
    const created = (await response.json()) as { connection_uris: { connection_uri: string }[] };
    const uri = created.connection_uris[0]?.connection_uri as string;
    const setup = neon(uri);
    await setup`CREATE TABLE items (id int PRIMARY KEY, body text NOT NULL)`;
    await setup`INSERT INTO items SELECT g, md5(g::text) FROM generate_series(1, ${ROWS}) g`;
    const all = await ways(uri, emu.caPath);
    const times = new Map<string, number[]>(all.map((w) => [w.label, []]));
    try {
      for (const way of all) await way.run(50); // warm: the pool, the proxy, the plans
      for (let run = 1; run <= options.runs; run++) {
        for (const way of all) {
          const t0 = performance.now();
          await way.run(options.n);
          const ms = performance.now() - t0;
          times.get(way.label)?.push(ms);
          options.log(`  run ${run}: ${way.label}: ${fmt(ms, 0)} ms`);
        }
      }
    } finally {
      await Promise.all(all.map((w) => w.close()));
    }
    const floor = median(times.get(all[all.length - 1]?.label ?? "") ?? []);
    return {
      title: `14. ${options.n} queries on one endpoint: the serverless driver against TCP (emulator --postgres) — median of ${options.runs}`,
      header: ["way", `${options.n} queries`, "per query", "ratio (to TCP)"],
      rows: all.map((way) => {
        const total = median(times.get(way.label) ?? []);
        return [way.label, secs(total), `${fmt(total / options.n, 2)} ms`, fmt(total / floor)];
      }),
      notes: [
        `Each query is \`${LOOKUP}\` with the next of ${ROWS} ids, sent after the previous one answered; the driver and \`pg\` are those of the repository's lock file, with \`neonConfig\` set from \`emu.serverless\` and nothing else.`,
        "Over HTTP every query is one `POST /sql` (a new request on a kept-alive connection): the connection string is parsed, the data plane catches up with the state, the login is checked against the role's password and the project's network rules, a pooled Postgres connection runs the statement with the extended protocol, and the rows come back as JSON. The service's HTTP path has the same steps (with TLS and a network between).",
        "The WebSocket and TCP sessions log in once, before the timing; each query then costs the Postgres protocol's round trip through the proxy. The TCP session runs inside TLS (the URI's `sslmode=require`, verified against the emulator's CA); the emulator's HTTP and WebSocket listener is plain, so those ways carry no encryption.",
        "The driver's default `coalesceWrites` holds a query's messages for a timer tick (`setTimeout(0)`, at least 1 ms in Node.js) to send them as one WebSocket message; the row without it shows the emulator's own cost of the WebSocket path.",
      ],
    };
  } finally {
    Object.assign(neonConfig, saved);
    await emu.stop();
  }
}
