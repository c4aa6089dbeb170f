import assert from "node:assert/strict";
import { execFile, spawn, spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as connectTls } from "node:tls";
import { Client, type ClientConfig } from "pg";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { endpointCertificates } from "../../emulator/data-plane/certificates";
import { INSECURE_CONNECTION } from "../../emulator/data-plane/proxy";
import { errorMessageOf, MessageReader, startupMessage } from "../../emulator/data-plane/wire";
import { exited, output } from "../support/child-output";
import { call, dataPlaneRun, selectOne, tlsProject, verifyFull, withParams } from "./helpers";

// TLS on every endpoint, as the service does it (docs/api-rules.md §14): connection URIs say
// `sslmode=require`, the endpoints answer the SSL request and present a certificate that the
// emulator's own CA signs for every name a client reaches them by, `verify-full` works with that
// CA, and a login without TLS is refused with the service's message unless plain connections are
// allowed. Every client here is a real one: `pg`, and `psql` where the machine has it.

const ROOT = join(__dirname, "..", "..");

/** The error a connection with `config` fails with. */
async function connectError(config: ClientConfig): Promise<Error & { code?: string; severity?: string }> {
  const client = new Client(config);
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return error as Error & { code?: string; severity?: string };
  }
  await client.end();
  assert.fail("expected the connection to fail");
}

/** The parts of a connection URI, for a client configured field by field. */
function partsOf(uri: string): {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
} {
  const url = new URL(uri);
  return {
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
  };
}

/** Runs `psql` (asynchronously: the endpoints answer in this process); its exit code and output. */
function psql(args: string[], env: Record<string, string> = {}): Promise<{ code: number; text: string }> {
  return new Promise((resolve) => {
    // HOME without ~/.postgresql: libpq reads no root certificate but the one given.
    const childEnv = { ...process.env, HOME: tmpdir(), PGCONNECT_TIMEOUT: "10", ...env };
    execFile("psql", args, { env: childEnv, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, text: `${stdout}${stderr}`.trim() });
    });
  });
}

describe(`emulator endpoints' TLS (real Postgres behind the endpoints${dataPlaneRun()})`, function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let uri: string;
  let pooledUri: string;
  let host: string;

  before(async () => {
    emu = await startEmulator({ postgres: true, opDurationMs: 20, limits: false });
    ({ uri, pooledUri, host } = await tlsProject(emu));
  });
  after(async () => {
    await emu?.stop();
  });

  it("returns connection URIs with sslmode=require, and a client using one negotiates TLS", async () => {
    assert.match(uri, /^postgresql:\/\/neondb_owner:[^@]+@127\.0\.0\.1:\d+\/neondb\?sslmode=require$/);
    assert.match(pooledUri, /\?sslmode=require$/);
    // libpq's meaning of `require` (encrypted, the certificate not checked), which `pg` takes with
    // uselibpqcompat=true.
    for (const given of [uri, pooledUri]) {
      assert.deepEqual(await selectOne({ connectionString: withParams(given, { uselibpqcompat: "true" }) }), {
        one: 1,
        encrypted: true,
      });
    }
  });

  it("lets an app that trusts the CA (NODE_EXTRA_CA_CERTS) connect with the URI as given, verified", async () => {
    // `pg` checks the certificate for sslmode=require, as for verify-full.
    const script =
      'const { Client } = require("pg"); const c = new Client({ connectionString: process.env.DATABASE_URL });' +
      "c.connect().then(() => c.query('SELECT 1 AS one')).then((r) => { console.log('rows', JSON.stringify(r.rows)," +
      " c.connection.stream.encrypted); return c.end(); }).catch((e) => { console.error('failed', e.code, e.message); process.exit(1); });";
    const run = async (env: Record<string, string>) => {
      const child = spawn(process.execPath, ["-e", script], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: uri, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const text = output(child);
      return { code: await exited(child), text: text.text() };
    };
    const trusting = await run({ NODE_EXTRA_CA_CERTS: emu.caPath as string });
    assert.equal(trusting.code, 0, trusting.text);
    assert.match(trusting.text, /rows \[\{"one":1\}\] true/);
    const untrusting = await run({});
    assert.equal(untrusting.code, 1, untrusting.text);
    assert.match(untrusting.text, /failed \S*(VERIFY|CERT)\S*/);
  });

  it("passes verify-full with the emulator's CA for the address the URI names and every endpoint host name, and fails with another CA or name", async () => {
    assert.deepEqual(await selectOne({ connectionString: verifyFull(uri, emu.caPath) }), {
      one: 1,
      encrypted: true,
    });
    assert.deepEqual(await selectOne({ connectionString: verifyFull(pooledUri, emu.caPath) }), {
      one: 1,
      encrypted: true,
    });
    // A client that names the endpoint's host (the API's `host`, or its pooler host) and reaches it on loopback.
    const parts = partsOf(uri);
    const ca = emu.caCertificate as string;
    for (const name of [host, host.replace(/^([^.]+)/, "$1-pooler")]) {
      assert.deepEqual(await selectOne({ ...parts, ssl: { ca, servername: name } }), {
        one: 1,
        encrypted: true,
      });
    }
    assert.deepEqual(await selectOne({ ...parts, ssl: { ca, servername: "localhost" } }), {
      one: 1,
      encrypted: true,
    });
    const elsewhere = await connectError({ ...parts, ssl: { ca, servername: "db.example.com" } });
    assert.equal(elsewhere.code, "ERR_TLS_CERT_ALTNAME_INVALID", elsewhere.message);

    const other = await endpointCertificates({ hosts: ["127.0.0.1"] });
    try {
      assert.notEqual(other.caCertificate, ca);
      const refused = await connectError({ connectionString: verifyFull(uri, other.caPath) });
      assert.match(
        `${refused.code}`,
        /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN/,
        refused.message,
      );
    } finally {
      other.dispose();
    }
  });

  it("presents a certificate its CA signed, for localhost, 127.0.0.1 and a wildcard per region", async () => {
    const { port } = partsOf(uri);
    const socket = connectTcp(port, "127.0.0.1");
    const reader = new MessageReader(socket);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    const request = Buffer.alloc(8);
    request.writeInt32BE(8, 0);
    request.writeInt32BE(80_877_103, 4);
    socket.write(request);
    assert.equal((await reader.peek()).toString(16), "53", "the answer to the SSL request is 'S'");
    reader.detach();
    const secure = connectTls({ socket, ca: emu.caCertificate, servername: host });
    await new Promise<void>((resolve, reject) => {
      secure.once("secureConnect", resolve);
      secure.once("error", reject);
    });
    const leaf = new X509Certificate(secure.getPeerX509Certificate()?.raw ?? Buffer.alloc(0));
    secure.destroy();
    const ca = new X509Certificate(emu.caCertificate as string);
    assert.ok(ca.ca, "the CA certificate is a CA");
    assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey), "the CA signed the endpoints' certificate");
    assert.equal(leaf.ca, false);
    assert.match(leaf.subjectAltName ?? "", /DNS:localhost/);
    assert.match(leaf.subjectAltName ?? "", /IP Address:127\.0\.0\.1/);
    assert.match(leaf.subjectAltName ?? "", /DNS:\*\.us-east-2\.aws\.clouddb\.local/);
    assert.match(leaf.subjectAltName ?? "", /DNS:\*\.eu-central-1\.aws\.clouddb\.local/);
  });

  it("refuses a login without TLS with the service's message, before asking for a password", async () => {
    const refused = await connectError({ connectionString: withParams(uri, { sslmode: "disable" }) });
    assert.equal(refused.message, INSECURE_CONNECTION);
    assert.equal(refused.message, "connection is insecure (try using `sslmode=require`)");
    assert.equal(refused.code, "XX000");
    assert.equal(refused.severity, "ERROR");
    // The first answer to a startup message in clear is that error, not a password request.
    const { port, user, database } = partsOf(uri);
    const plain = connectTcp(port, "127.0.0.1");
    const reader = new MessageReader(plain);
    plain.write(
      startupMessage(
        new Map([
          ["user", user],
          ["database", database],
        ]),
      ),
    );
    const answer = await reader.typed();
    plain.destroy();
    assert.equal(answer.type, "E");
    assert.equal(errorMessageOf(answer.body), INSECURE_CONNECTION);
  });

  it("accepts TLS started at once (sslnegotiation=direct) with the postgresql ALPN, and refuses it without", async () => {
    assert.deepEqual(
      await selectOne({
        connectionString: withParams(verifyFull(uri, emu.caPath), { sslnegotiation: "direct" }),
      }),
      { one: 1, encrypted: true },
    );
    const { port } = partsOf(uri);
    const bare = connectTls({ port, host: "127.0.0.1", ca: emu.caCertificate, servername: "localhost" });
    const reader = new MessageReader(bare);
    await new Promise<void>((resolve, reject) => {
      bare.once("secureConnect", resolve);
      bare.once("error", reject);
    });
    const answer = await reader.typed();
    bare.destroy();
    assert.equal(answer.type, "E");
    assert.match(errorMessageOf(answer.body), /without ALPN/);
  });

  it("passes on a cancel request sent in clear, as clients send them", async () => {
    const client = new Client({ connectionString: verifyFull(uri, emu.caPath) });
    client.on("error", () => undefined);
    await client.connect();
    try {
      const { processID, secretKey } = client as unknown as { processID: number; secretKey: number };
      const slow = client.query("SELECT pg_sleep(30)");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const cancel = Buffer.alloc(16);
      cancel.writeInt32BE(16, 0);
      cancel.writeInt32BE(80_877_102, 4);
      cancel.writeInt32BE(processID, 8);
      cancel.writeInt32BE(secretKey, 12);
      const plain = connectTcp(partsOf(uri).port, "127.0.0.1", () => plain.end(cancel));
      plain.on("error", () => undefined);
      await assert.rejects(slow, (error: { code?: string }) => error.code === "57014");
    } finally {
      await client.end();
    }
  });

  it("serves its CA at GET /__emulator/tls/ca.pem, which verifies the endpoints", async () => {
    const response = await call(emu.origin, "GET", "/__emulator/tls/ca.pem");
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get("content-type") ?? "", /^application\/x-pem-file/);
    assert.equal(response.text, emu.caCertificate);
    assert.deepEqual(await selectOne({ ...partsOf(uri), ssl: { ca: response.text, servername: host } }), {
      one: 1,
      encrypted: true,
    });
  });

  it("connects with psql: sslmode=require as given, verify-full with PGSSLROOTCERT, and the endpoint's host name with hostaddr", async function () {
    if (spawnSync("psql", ["--version"]).status !== 0) this.skip();
    const given = await psql([uri, "-Atc", "SELECT 1"]);
    assert.deepEqual(given, { code: 0, text: "1" });
    const verified = await psql([withParams(uri, { sslmode: "verify-full" }), "-Atc", "SELECT 1"], {
      PGSSLROOTCERT: emu.caPath as string,
    });
    assert.deepEqual(verified, { code: 0, text: "1" });
    const parts = partsOf(uri);
    const named = await psql([
      `host=${host} hostaddr=127.0.0.1 port=${parts.port} user=${parts.user} password=${parts.password} ` +
        `dbname=${parts.database} sslmode=verify-full sslrootcert=${emu.caPath}`,
      "-Atc",
      "SELECT 1",
    ]);
    assert.deepEqual(named, { code: 0, text: "1" });
    const plain = await psql([withParams(uri, { sslmode: "disable" }), "-Atc", "SELECT 1"]);
    assert.equal(plain.code, 2, plain.text);
    assert.match(plain.text, /ERROR: {2}connection is insecure \(try using `sslmode=require`\)/);
  });

  it("keeps no CA file after it stops, without a state file", async () => {
    const other = await startEmulator({ postgres: true, seed: "empty" });
    const caPath = other.caPath as string;
    assert.ok(existsSync(caPath));
    assert.notEqual(other.caCertificate, emu.caCertificate, "a CA of its own per emulator");
    await other.stop();
    assert.equal(existsSync(caPath), false);
  });
});

describe("emulator without the data plane: TLS", () => {
  it("has no CA, and the control API says why", async () => {
    const emu = await startEmulator({ opDurationMs: 20 });
    try {
      assert.equal(emu.caPath, undefined);
      const response = await call(emu.origin, "GET", "/__emulator/tls/ca.pem");
      assert.equal(response.status, 404, response.text);
      assert.match(response.text, /start the emulator with postgres/);
    } finally {
      await emu.stop();
    }
  });
});
