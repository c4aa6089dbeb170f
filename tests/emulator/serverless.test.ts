import assert from "node:assert/strict";
import { Client as NeonClient, neon, neonConfig, Pool } from "@neondatabase/serverless";
import { Client } from "pg";
import WebSocket from "ws";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { paramText, parseArray, textToJson } from "../../emulator/data-plane/pg-text";
import { INSECURE_CONNECTION } from "../../emulator/data-plane/proxy";
import { errorMessageOf, SSL_REQUEST, startupMessage } from "../../emulator/data-plane/wire";
import { api, dataPlaneRun, type Json, newProject, untilIdle, verifyFull } from "./helpers";

// The serverless driver from the npm registry, unchanged, against the emulator's endpoints: SQL over
// HTTP (`neon()`, batched transactions) and the Postgres protocol over WebSocket (`Pool`, `Client`),
// with the real Postgres behind them. The only settings are the ones the driver documents for a
// local server (`fetchEndpoint`, `wsProxy`, `useSecureWebSocket`), taken from `emu.serverless`; the
// connection strings are the API's, `sslmode=require` included, as an app has them.
// Longer than 400 lines: the driver's cases share one emulator with real Postgres and one project
// with its table, made once, since each Postgres start costs seconds on a busy machine.

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & Json> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Json;
  }
  assert.fail("expected a rejection");
}

/** Runs one query on a driver `Client` over WebSocket, then closes it. */
async function overWebSocket(uri: string, sql: string): Promise<Json[]> {
  const client = new NeonClient(uri);
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A URI with another role and password. */
const as = (uri: string, role: string, password: string) =>
  uri.replace(/\/\/[^@]+@/, `//${role}:${encodeURIComponent(password)}@`);

/** A URI naming another database. */
function onDatabase(uri: string, database: string): string {
  const url = new URL(uri);
  url.pathname = `/${database}`;
  return url.href;
}

/** Sends each of `messages` on a WebSocket to `url`, one after the server's answer to the one before; the answers. */
function exchange(url: string, messages: Buffer[]): Promise<Buffer[]> {
  const socket = new WebSocket(url);
  const answers: Buffer[] = [];
  return new Promise<Buffer[]>((resolve, reject) => {
    socket.once("open", () => socket.send(messages[0] as Buffer));
    socket.on("message", (data) => {
      answers.push(Buffer.from(data as Buffer));
      const next = messages[answers.length];
      if (next === undefined) resolve(answers);
      else socket.send(next);
    });
    socket.once("error", reject);
    socket.once("close", () => reject(new Error(`closed after ${answers.length} answers`)));
  }).finally(() => socket.terminate());
}

describe(`the serverless driver against the emulator (real Postgres${dataPlaneRun()})`, function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  let project: string;
  let main: string;
  let uri: string;
  const saved = {
    fetchEndpoint: neonConfig.fetchEndpoint,
    wsProxy: neonConfig.wsProxy,
    useSecureWebSocket: neonConfig.useSecureWebSocket,
  };

  /** Waits until the project has no unfinished operation (they take 20 ms here). */
  const idle = () => untilIdle(http, project);

  /** Raw `POST /sql` with the driver's headers and `extra`, for what the driver does not show. */
  async function postSql(body: unknown, extra: Record<string, string> = {}, connection = uri) {
    const response = await fetch(emu.serverless?.fetchEndpoint as string, {
      method: "POST",
      headers: { "Neon-Connection-String": connection, ...extra },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  }

  before(async () => {
    emu = await startEmulator({ postgres: true, opDurationMs: 20, limits: false });
    assert.ok(emu.serverless, "a data plane exposes the driver's settings");
    Object.assign(neonConfig, emu.serverless);
    http = api(emu, DEMO.personalKey);
    ({ project, branch: main, uri } = await newProject(http, "edge-app"));
    await neon(uri)`CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)`;
  });

  after(async () => {
    Object.assign(neonConfig, saved);
    await emu?.stop();
  });

  it("runs a query over HTTP with its parameters, as a tagged template and through sql.query", async () => {
    const sql = neon(uri);
    assert.deepEqual(await sql`select ${1}::int as n, ${"tea"} as item, ${null}::text as nothing`, [
      { n: 1, item: "tea", nothing: null },
    ]);
    assert.deepEqual(await sql.query("select $1::int + $2::int as sum, current_user as who", [2, 3]), [
      { sum: 5, who: "neondb_owner" },
    ]);
    const when = new Date("2026-01-02T03:04:05.000Z");
    const [row] = await sql`select ${when}::timestamptz as at, ${[1, 2, 3]}::int[] as list`;
    assert.deepEqual(row, { at: when, list: [1, 2, 3] });
  });

  it("gives rows as lists in array mode and the whole result with fullResults", async () => {
    const sql = neon(uri);
    assert.deepEqual(await sql.query("select 1 as a, 'x' as b", [], { arrayMode: true }), [[1, "x"]]);
    const full = await neon(uri, { fullResults: true })`select id, body from notes where id < ${0}`;
    assert.equal(full.command, "SELECT");
    assert.equal(full.rowCount, 0);
    assert.equal(full.rowAsArray, false);
    assert.deepEqual(
      full.fields.map((f: Json) => [f.name, f.dataTypeID, f.format]),
      [
        ["id", 23, "text"],
        ["body", 25, "text"],
      ],
    );
    const inserted = await sql.query("insert into notes (body) values ($1), ($2)", ["a", "b"], {
      fullResults: true,
    });
    assert.equal(inserted.command, "INSERT");
    assert.equal(inserted.rowCount, 2);
    assert.deepEqual(inserted.fields, []);
    await sql`delete from notes`;
  });

  it("commits a batched transaction and answers each statement's rows", async () => {
    const sql = neon(uri);
    const [inserted, counted] = await sql.transaction([
      sql`insert into notes (body) values (${"first"}) returning body`,
      sql`select count(*)::int as n from notes`,
    ]);
    assert.deepEqual(inserted, [{ body: "first" }]);
    assert.deepEqual(counted, [{ n: 1 }]);
    assert.deepEqual(await sql`select body from notes`, [{ body: "first" }]);
    await sql`delete from notes`;
  });

  it("rolls a batch back when a statement fails: the first statement's rows are not there after", async () => {
    const sql = neon(uri);
    const error = await rejection(
      sql.transaction([sql`insert into notes (body) values ('lost')`, sql`select * from nope`]),
    );
    assert.equal(error.code, "42P01");
    assert.deepEqual(await sql`select count(*)::int as n from notes`, [{ n: 0 }]);
  });

  it("runs a batch at the isolation level asked for, read-only and deferrable when asked", async () => {
    const sql = neon(uri);
    const options = await sql.transaction(
      [sql`show transaction_isolation`, sql`show transaction_read_only`, sql`show transaction_deferrable`],
      { isolationLevel: "Serializable", readOnly: true, deferrable: true },
    );
    assert.deepEqual(options, [
      [{ transaction_isolation: "serializable" }],
      [{ transaction_read_only: "on" }],
      [{ transaction_deferrable: "on" }],
    ]);
    const repeatable = await sql.transaction([sql`show transaction_isolation`], {
      isolationLevel: "RepeatableRead",
    });
    assert.deepEqual(repeatable, [[{ transaction_isolation: "repeatable read" }]]);
    const refused = await rejection(
      sql.transaction([sql`insert into notes (body) values ('no')`], { readOnly: true }),
    );
    assert.equal(refused.code, "25006", refused.message);
  });

  it("reports Postgres's error with its SQLSTATE and position, as the driver reports the service's", async () => {
    const sql = neon(uri);
    const missing = await rejection(sql`select * from nope`);
    assert.equal(missing.constructor.name, "NeonDbError");
    assert.equal(missing.message, 'relation "nope" does not exist');
    assert.equal(missing.code, "42P01");
    assert.equal(missing.position, "15");
    assert.equal(missing.severity, "ERROR");
    const duplicate = await rejection(sql`insert into notes (id, body) values (1, 'a'), (1, 'b')`);
    assert.equal(duplicate.code, "23505");
    assert.equal(duplicate.constraint, "notes_pkey");
    assert.equal(duplicate.table, "notes");
    // One statement per query, as the service runs them (its protocol prepares each query).
    assert.equal((await rejection(sql.query("select 1; select 2"))).code, "42601");
  });

  it("does not carry a transaction a request left open into the next request on the same connection", async () => {
    const sql = neon(uri);
    for (let i = 0; i < 3; i++) {
      await sql`begin`;
      // A savepoint exists only inside a transaction block: here there is none.
      assert.equal((await rejection(sql`savepoint inside`)).code, "25P01");
    }
  });

  it("runs a Pool's transaction over WebSocket, seen by SQL over HTTP and by TCP", async () => {
    const pool = new Pool({ connectionString: uri });
    try {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("INSERT INTO notes (body) VALUES ($1)", ["over websocket"]);
        assert.deepEqual(
          await neon(uri)`select count(*)::int as n from notes`,
          [{ n: 0 }],
          "not committed yet",
        );
        await client.query("COMMIT");
      } finally {
        client.release();
      }
      assert.deepEqual((await pool.query("SELECT body FROM notes")).rows, [{ body: "over websocket" }]);
    } finally {
      await pool.end();
    }
    assert.deepEqual(await neon(uri)`select body from notes`, [{ body: "over websocket" }]);
    const tcp = new Client({ connectionString: verifyFull(uri, emu.caPath) });
    await tcp.connect();
    try {
      assert.deepEqual((await tcp.query("SELECT body FROM notes")).rows, [{ body: "over websocket" }]);
    } finally {
      await tcp.end();
    }
    await neon(uri)`delete from notes`;
  });

  it("takes the API's connection string (sslmode=require) over WebSocket without TLS inside it, while TCP refuses a login in clear", async () => {
    assert.equal(new URL(uri).searchParams.get("sslmode"), "require");
    const plain = new URL(uri);
    plain.searchParams.set("sslmode", "disable");
    const tcp = new Client({ connectionString: plain.href });
    tcp.on("error", () => undefined);
    assert.equal((await rejection(tcp.connect())).message, INSECURE_CONNECTION);
    // The driver sends no SSL request inside a WebSocket (forceDisablePgSSL), and the login goes through.
    assert.deepEqual(await overWebSocket(uri, "SELECT current_user AS who"), [{ who: "neondb_owner" }]);
    // A client that asks anyway is told "no", as the service tells it there, and goes on in clear:
    // the next answer is the password request, not the refusal a TCP login in clear gets.
    const { hostname, port, username } = new URL(uri);
    const request = Buffer.alloc(8);
    request.writeInt32BE(8, 0);
    request.writeInt32BE(SSL_REQUEST, 4);
    const startup = startupMessage(
      new Map([
        ["user", username],
        ["database", "neondb"],
      ]),
    );
    const [answer, next] = await exchange(`ws://${emu.serverless?.wsProxy}?address=${hostname}:${port}`, [
      request,
      startup,
    ]);
    assert.equal(answer?.toString("latin1"), "N");
    assert.equal(next?.subarray(0, 1).toString("latin1"), "R", "an authentication request");
    assert.equal(next?.readInt32BE(5), 3, "the password in clear");
    // TLS started at once inside a WebSocket (a ClientHello's first bytes) is refused.
    const [hello] = await exchange(`ws://${emu.serverless?.wsProxy}?address=${hostname}:${port}`, [
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0x00]),
    ]);
    assert.equal(hello?.subarray(0, 1).toString("latin1"), "E");
    assert.equal(errorMessageOf(hello?.subarray(5) as Buffer), "TLS is not offered inside a WebSocket");
  });

  it("runs a Client over WebSocket, pipelined or not, whose session a suspend ends", async () => {
    const waiting = new NeonClient(uri);
    waiting.neonConfig.pipelineConnect = false;
    await waiting.connect();
    assert.deepEqual((await waiting.query("SELECT current_user AS who")).rows, [{ who: "neondb_owner" }]);
    await waiting.end();

    const client = new NeonClient(uri);
    client.on("error", () => undefined);
    await client.connect();
    assert.deepEqual((await client.query("SELECT $1::int AS n", [7])).rows, [{ n: 7 }]);
    const endpoints = (await http.get(`/projects/${project}/branches/${main}/endpoints`)).body.endpoints;
    await idle();
    const suspended = await http.post(`/projects/${project}/endpoints/${endpoints[0].id}/suspend`);
    assert.equal(suspended.status, 200, suspended.text);
    await rejection(client.query("SELECT 1"));
    await idle();
    assert.deepEqual(await overWebSocket(uri, "SELECT 1 AS ok"), [{ ok: 1 }], "the endpoint wakes");
  });

  it("refuses the old password after a reset, over HTTP and over WebSocket, and lets the new one in", async () => {
    await idle();
    const created = await http.post(`/projects/${project}/branches/${main}/roles`, { role: { name: "app" } });
    assert.equal(created.status, 201, created.text);
    const first = created.body.role.password as string;
    assert.deepEqual(await neon(as(uri, "app", first))`select current_user as who`, [{ who: "app" }]);
    await idle();
    const reset = await http.post(`/projects/${project}/branches/${main}/roles/app/reset_password`);
    assert.equal(reset.status, 200, reset.text);
    const second = reset.body.role.password as string;

    const overHttp = await rejection(neon(as(uri, "app", first))`select 1`);
    assert.equal(overHttp.message, 'password authentication failed for user "app"');
    const overWs = await rejection(overWebSocket(as(uri, "app", first), "SELECT 1"));
    assert.equal(overWs.code, "28P01");
    assert.match(overWs.message, /password authentication failed for user "app"/);

    assert.deepEqual(await neon(as(uri, "app", second))`select 1 as ok`, [{ ok: 1 }]);
    assert.deepEqual(await overWebSocket(as(uri, "app", second), "SELECT 1 AS ok"), [{ ok: 1 }]);
  });

  it("refuses an address outside the project's allowed IPs, over HTTP and over WebSocket", async () => {
    const settings = async (value: Json) => {
      const patched = await http.patch(`/projects/${project}`, { project: { settings: value } });
      assert.equal(patched.status, 200, patched.text);
    };
    // Every client here connects from loopback.
    await settings({ allowed_ips: { ips: ["203.0.113.0/24"], protected_branches_only: false } });
    try {
      const overHttp = await rejection(neon(uri)`select 1`);
      assert.match(overHttp.message, /^IP address 127\.0\.0\.1 is not allowed to connect to project /);
      const overWs = await rejection(overWebSocket(uri, "SELECT 1"));
      assert.equal(overWs.code, "28000");
      assert.match(overWs.message, /IP address 127\.0\.0\.1 is not allowed/);
    } finally {
      await settings({ allowed_ips: { ips: [], protected_branches_only: false } });
    }
    assert.deepEqual(await neon(uri)`select 1 as ok`, [{ ok: 1 }]);
  });

  it("reaches an endpoint by its pooled port and by the host name the service's connection strings have", async () => {
    const pooled = await http.get(
      `/projects/${project}/connection_uri?database_name=neondb&role_name=neondb_owner&pooled=true`,
    );
    assert.equal(pooled.status, 200, pooled.text);
    assert.deepEqual(await neon(pooled.body.uri)`select 1 as ok`, [{ ok: 1 }]);
    const endpoint = (await http.get(`/projects/${project}/branches/${main}/endpoints`)).body.endpoints[0];
    const named = new URL(uri);
    named.host = endpoint.host as string;
    assert.match(named.hostname, /^ep-[^.]+\./);
    assert.deepEqual(await neon(named.href)`select current_user as who`, [{ who: "neondb_owner" }]);
    const nowhere = await rejection(neon(onDatabase(uri, "nowhere"))`select 1`);
    assert.deepEqual([nowhere.code, nowhere.message], ["3D000", 'database "nowhere" does not exist']);
    const elsewhere = new URL(uri);
    elsewhere.port = "1";
    const lost = await rejection(neon(elsewhere.href)`select 1`);
    assert.match(lost.message, /no endpoint of the emulator is at 127\.0\.0\.1:1/);
  });

  it("answers requests the driver does not send as the service does: errors, JSON values, echoed batch options", async () => {
    const missing = await fetch(emu.serverless?.fetchEndpoint as string, { method: "POST", body: "{}" });
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Json).message, "invalid header: neon-connection-string");
    const level = await postSql({ queries: [] }, { "Neon-Batch-Isolation-Level": "Chaotic" });
    assert.deepEqual([level.status, level.body.message], [400, "invalid isolation level"]);
    const garbled = await postSql({ nothing: true });
    assert.equal(garbled.status, 400);
    assert.match(garbled.body.message, /^could not parse the HTTP request body/);

    // Without Neon-Raw-Text-Output, values are JSON by type; params may be any JSON value.
    const typed = await postSql({
      query:
        "select 1::int2 as small, 2::int8 as big, true as yes, 1.5::float8 as half, 'NaN'::float8 as nan, " +
        `'{"a":[1]}'::jsonb as doc, array[1,null,3] as ints, array['a b','c"d',null] as texts, $1::text[] as echoed`,
      params: [["x", "y,z"]],
    });
    assert.equal(typed.status, 200, JSON.stringify(typed.body));
    assert.deepEqual(typed.body.rows, [
      {
        small: 1,
        big: "2",
        yes: true,
        half: 1.5,
        nan: "NaN",
        doc: { a: [1] },
        ints: [1, null, 3],
        texts: ["a b", 'c"d', null],
        echoed: ["x", "y,z"],
      },
    ]);
    assert.equal(typed.body.rowAsArray, false);

    const batch = await postSql(
      { queries: [{ query: "select 1 as n" }] },
      {
        "Neon-Raw-Text-Output": "true",
        "Neon-Array-Mode": "true",
        "Neon-Batch-Isolation-Level": "ReadCommitted",
        "Neon-Batch-Read-Only": "true",
      },
    );
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.body.results[0].rows, [["1"]]);
    assert.equal(batch.headers.get("neon-batch-isolation-level"), "ReadCommitted");
    assert.equal(batch.headers.get("neon-batch-read-only"), "true");
    assert.equal(batch.headers.get("access-control-allow-origin"), "*");

    const other = await fetch(emu.serverless?.fetchEndpoint.replace(/\/sql$/, "/other") as string);
    assert.deepEqual([other.status, await other.json()], [400, "query is not supported"]);
  });

  it("closes a WebSocket whose URL names no endpoint, saying what to add", async () => {
    const client = new NeonClient(uri);
    client.neonConfig.wsProxy = () => emu.serverless?.wsProxy as string;
    client.on("error", () => undefined);
    // A pipelined connect resolves before the server answers: the refusal comes with the first query.
    const error = await rejection(client.connect().then(() => client.query("SELECT 1")));
    assert.match(error.message, /the WebSocket URL names no endpoint: add \?address=HOST:PORT/);
  });
});

describe("SQL over HTTP's text conversions", () => {
  it("turns JSON parameters into Postgres text: arrays as array literals, objects as JSON", () => {
    assert.equal(paramText(null), null);
    assert.equal(paramText("plain"), "plain");
    assert.equal(paramText(12), "12");
    assert.equal(paramText(true), "true");
    assert.equal(paramText({ a: 1 }), '{"a":1}');
    assert.equal(paramText([1, null, "a,b", [true]]), '{1,NULL,"a,b",{true}}');
    assert.equal(paramText([{ k: "v" }]), '{"{\\"k\\":\\"v\\"}"}');
  });

  it("reads an array's text form: nested, quoted, escaped, NULL, with bounds, empty", () => {
    const asText = (item: string): Json => item;
    assert.deepEqual(parseArray("{}", asText), []);
    assert.deepEqual(parseArray('{a,"b c","d\\"e",NULL,"NULL"}', asText), ["a", "b c", 'd"e', null, "NULL"]);
    assert.deepEqual(parseArray("{{1,2},{3,4}}", asText), [
      ["1", "2"],
      ["3", "4"],
    ]);
    assert.deepEqual(parseArray("[0:1]={5,6}", asText), ["5", "6"]);
    assert.throws(() => parseArray("{1,2", asText), /malformed array text/);
  });

  it("converts a column's text by its type, arrays through their element type", () => {
    const arrays = new Map([[1007, 23]]);
    assert.deepEqual(textToJson("{1,NULL}", 1007, arrays), [1, null]);
    assert.equal(textToJson("t", 16, arrays), true);
    assert.equal(textToJson("Infinity", 701, arrays), "Infinity");
    assert.equal(textToJson("123456789012", 20, arrays), "123456789012");
  });
});
