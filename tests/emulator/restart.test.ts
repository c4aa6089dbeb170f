import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../../emulator";
import { exited, output } from "../support/child-output";
import { alive, call, dataPlaneRun, type Json, pgQuery } from "./helpers";

// Rows survive a restart: with --state-file and --postgres the cluster lives beside the state
// file and a restarted emulator starts Postgres on it again, after a clean stop as after a
// SIGKILL (of the emulator alone, which leaves its Postgres running, or of both, which leaves
// Postgres's crash recovery to do).

const ROOT = join(__dirname, "..", "..");

/** The CLI as a separate process, and what it printed once it listens. */
async function startCli(stateFile: string): Promise<{ child: ChildProcess; url: string; postgres: number }> {
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "emulator/cli.ts", "--postgres", "--state-file", stateFile],
    { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const out = output(child);
  const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
  const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
  return { child, url: url as string, postgres: Number(pid) };
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
  let running: { child: ChildProcess; url: string; postgres: number } | undefined;
  const leftovers: number[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-restart-"));
    // Run as root, Postgres's user must reach the folder beside the state file.
    chmodSync(dir, 0o755);
    stateFile = join(dir, "state.json");
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill("SIGTERM");
      await exited(running.child);
    }
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, "SIGINT");
    await eventually(() => leftovers.every((pid) => !alive(pid)), 10_000);
    rmSync(dir, { recursive: true, force: true });
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
    const target = await uri();
    await pgQuery(target, "CREATE TABLE IF NOT EXISTS notes (item text)");
    await pgQuery(target, `INSERT INTO notes VALUES ('${item}')`);
    return pgQuery(target, "SELECT item FROM notes ORDER BY item");
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

  it("refuses a second emulator on the same state file while the first runs", async () => {
    await startAndWrite("a");
    const second = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "emulator/cli.ts", "--postgres", "--state-file", stateFile],
      {
        cwd: ROOT,
        env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const out = output(second);
    assert.equal(await exited(second), 1);
    assert.match(out.text(), /is in use by another emulator \(pid \d+\): stop it first/);
    assert.deepEqual(await pgQuery(await uri(), "SELECT item FROM notes"), [{ item: "a" }]);
  });
});
