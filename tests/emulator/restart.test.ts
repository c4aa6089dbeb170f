import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as NeonClient, neon, neonConfig } from "@neondatabase/serverless";
import { DEMO } from "../../emulator";
import { exited, output } from "../support/child-output";
import { alive, call, dataPlaneRun, emulatorCliArgs, type Json, runSql } from "./helpers";

// Rows survive a restart: with --state-file and --postgres the cluster lives beside the state
// file and a restarted emulator starts Postgres on it again, after a clean stop as after a
// SIGKILL (of the emulator alone, which leaves its Postgres running, or of both, which leaves
// Postgres's crash recovery to do). The endpoints' CA is kept beside it too, so an app that
// verifies them with it keeps connecting, and the serverless driver reaches the kept rows.

const ROOT = join(__dirname, "..", "..");

/** A running CLI: its process, API URL, Postgres's pid, CA file and the serverless driver's settings. */
interface Cli {
  child: ChildProcess;
  url: string;
  postgres: number;
  caPath: string;
  serverless: { fetchEndpoint: string; wsProxy: string };
}

/** The CLI as a separate process, and what it printed once it listens. */
async function startCli(stateFile: string): Promise<Cli> {
  const child = spawn(process.execPath, [...emulatorCliArgs(), "--postgres", "--state-file", stateFile], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = output(child);
  const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
  const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
  const [, caPath] = await out.line(/endpoints' CA certificate: (\S+)/);
  const [, fetchEndpoint, wsProxy] = await out.line(
    /neonConfig\.fetchEndpoint = "([^"]+)"; neonConfig\.wsProxy = "([^"]+)"/,
  );
  return {
    child,
    url: url as string,
    postgres: Number(pid),
    caPath: caPath as string,
    serverless: { fetchEndpoint: fetchEndpoint as string, wsProxy: wsProxy as string },
  };
}

/** Polls until `done()` or about `ms` milliseconds have passed. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

describe(`emulator restart with --state-file and --postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  let dir: string;
  let stateFile: string;
  let running: Cli | undefined;
  const driverSettings = {
    fetchEndpoint: neonConfig.fetchEndpoint,
    wsProxy: neonConfig.wsProxy,
    useSecureWebSocket: neonConfig.useSecureWebSocket,
  };
  const leftovers: number[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-restart-"));
    // Run as root, Postgres's user must reach the folder beside the state file.
    chmodSync(dir, 0o755);
    stateFile = join(dir, "state.json");
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill("SIGTERM");
      await exited(running.child);
    }
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, "SIGINT");
    await eventually(() => leftovers.every((pid) => !alive(pid)), 10_000);
    rmSync(dir, { recursive: true, force: true });
    Object.assign(neonConfig, driverSettings);
  });

  /** The connection URI of the demo project's default branch, as the running emulator serves it. */
  async function uri(): Promise<string> {
    const answer = await call(
      running?.url as string,
      "GET",
      `/projects/${DEMO.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner`,
      { key: DEMO.personalKey },
    );
    assert.equal(answer.status, 200, answer.text);
    return answer.body.uri as string;
  }

  /** Starts the emulator, writes a row (committed) and returns the rows it then holds. */
  async function startAndWrite(item: string): Promise<Json[]> {
    running = await startCli(stateFile);
    return runSql(
      await uri(),
      running.caPath,
      "CREATE TABLE IF NOT EXISTS notes (item text)",
      `INSERT INTO notes VALUES ('${item}')`,
      "SELECT item FROM notes ORDER BY item",
    );
  }

  it("keeps the rows across a clean stop, in a folder beside the state file", async () => {
    assert.deepEqual(await startAndWrite("a"), [{ item: "a" }]);
    running?.child.kill("SIGTERM");
    assert.equal(await exited(running?.child as ChildProcess), 0);
    assert.ok(
      existsSync(join(`${stateFile}.pgdata`, "cluster", "PG_VERSION")),
      "the cluster is beside the state file",
    );
    assert.deepEqual(await startAndWrite("b"), [{ item: "a" }, { item: "b" }]);
  });

  it("serves TLS with the same CA after a restart, and the serverless driver reaches the kept rows", async () => {
    await startAndWrite("a");
    const first = running as Cli;
    assert.equal(first.caPath, `${stateFile}.ca.pem`, "the CA is beside the state file");
    const ca = readFileSync(first.caPath, "utf8");
    first.child.kill("SIGTERM");
    assert.equal(await exited(first.child), 0);

    running = await startCli(stateFile);
    assert.equal(running.caPath, first.caPath);
    assert.equal(readFileSync(running.caPath, "utf8"), ca, "the restarted emulator's CA is the one kept");
    const target = await uri();
    // Verified against the CA file an app was given before the restart.
    assert.deepEqual(await runSql(target, first.caPath, "SELECT item FROM notes"), [{ item: "a" }]);
    Object.assign(neonConfig, running.serverless, { useSecureWebSocket: false });
    assert.deepEqual(await neon(target)`SELECT item FROM notes`, [{ item: "a" }], "over HTTP");
    const overWebSocket = new NeonClient(target);
    await overWebSocket.connect();
    try {
      await overWebSocket.query("INSERT INTO notes VALUES ('b')");
    } finally {
      await overWebSocket.end();
    }
    assert.deepEqual(await runSql(target, first.caPath, "SELECT item FROM notes ORDER BY item"), [
      { item: "a" },
      { item: "b" },
    ]);
  });

  it("keeps a committed row after a SIGKILL of the emulator, stopping the Postgres it left running", async () => {
    await startAndWrite("a");
    const orphan = running?.postgres as number;
    leftovers.push(orphan);
    running?.child.kill("SIGKILL");
    await exited(running?.child as ChildProcess);
    assert.ok(alive(orphan), "a SIGKILL of the emulator leaves its Postgres running");
    assert.deepEqual(await startAndWrite("b"), [{ item: "a" }, { item: "b" }]);
    assert.equal(alive(orphan), false, "the restart stopped the Postgres left running");
  });

  it("keeps a committed row after a SIGKILL of the emulator and its Postgres (crash recovery)", async () => {
    await startAndWrite("a");
    const postgres = running?.postgres as number;
    running?.child.kill("SIGKILL");
    process.kill(postgres, "SIGKILL");
    await exited(running?.child as ChildProcess);
    assert.ok(await eventually(() => !alive(postgres), 10_000), "postgres is gone");
    assert.deepEqual(await startAndWrite("b"), [{ item: "a" }, { item: "b" }]);
  });

  it("starts on a cluster whose postmaster.pid names a live process that is not its Postgres (an id reused)", async () => {
    await startAndWrite("a");
    running?.child.kill("SIGTERM");
    assert.equal(await exited(running?.child as ChildProcess), 0);
    // What a killed server leaves when its id now belongs to another process, or to a zombie that
    // the container's init has not reaped: Postgres alone would refuse, saying it still runs.
    // It runs as Postgres's user: Postgres takes a process it may not signal for another user's.
    const cluster = join(`${stateFile}.pgdata`, "cluster");
    const owner = statSync(cluster);
    const other = spawn("sleep", ["60"], { stdio: "ignore", uid: owner.uid, gid: owner.gid });
    leftovers.push(other.pid as number);
    writeFileSync(join(cluster, "postmaster.pid"), `${other.pid}\n${cluster}\n`);
    assert.deepEqual(await startAndWrite("b"), [{ item: "a" }, { item: "b" }]);
    assert.ok(alive(other.pid as number), "the process that had the id is left alone");
  });

  it("refuses a second emulator on the same state file while the first runs", async () => {
    await startAndWrite("a");
    const second = spawn(process.execPath, [...emulatorCliArgs(), "--postgres", "--state-file", stateFile], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = output(second);
    assert.equal(await exited(second), 1);
    assert.match(out.text(), /is in use by another emulator \(pid \d+\): stop it first/);
    assert.deepEqual(await runSql(await uri(), running?.caPath, "SELECT item FROM notes"), [{ item: "a" }]);
  });
});
