import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { DEMO } from "../../emulator";
import { exited, output } from "../support/child-output";
import { alive, call, dataPlaneRun, emulatorCliArgs, verifyFull } from "./helpers";

// The `clouddb-emulator` bin as a separate process: it prints its URL, answers real HTTP
// requests, and on SIGTERM stops cleanly with its state flushed.

const ROOT = join(__dirname, "..", "..");

function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, [...emulatorCliArgs(), ...args], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * The CLI as `npx clouddb-emulator` runs it: npm exec starts a shell that starts the command, and
 * passes SIGTERM and SIGINT on to that shell.
 */
function spawnCliWithNpm(args: string[]): ChildProcess {
  const command = ["node", ...emulatorCliArgs(), ...args].join(" ");
  return spawn("npm", ["exec", "--offline", "--yes", "-c", command], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The ids of the processes whose command line mentions `text` (Linux /proc). */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The parent of process `pid` (field 4 of /proc/pid/stat, after the parenthesised name); undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The data folder a postgres process runs with (its `-D` argument). */
function dataFolderOf(postgres: number): string {
  const folder = /-D\0([^\0]+)/.exec(readFileSync(`/proc/${postgres}/cmdline`, "utf8"))?.[1];
  assert.ok(folder, `process ${postgres} is a postgres with a data folder`);
  return folder;
}

/** Polls until `done()` or about `ms` milliseconds have passed; returns `done()`'s last answer. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done();
}

describe("clouddb-emulator CLI", function () {
  this.timeout(30_000);
  let dir: string;
  let child: ChildProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-cli-"));
  });
  /** Processes a test left behind on failure, stopped as the CLI's SIGTERM would. */
  let leftovers: number[] = [];
  afterEach(() => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, "SIGTERM");
    leftovers = [];
    if (child && child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("listens, answers a real request, and flushes its state on SIGTERM", async () => {
    const stateFile = join(dir, "state.json");
    child = spawnCli(["--port", "0", "--seed", "demo", "--state-file", stateFile, "--op-duration-ms", "10"]);
    const out = output(child);
    const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
    assert.ok(url);
    await out.line(/organization key/);
    assert.ok(out.text().includes(DEMO.personalKey), "prints the demo account's keys");
    const projects = await call(url, "GET", "/projects", { key: DEMO.personalKey });
    assert.equal(projects.status, 200);
    assert.equal(projects.body.projects[0].id, DEMO.projectId);
    const made = await call(url, "POST", "/api_keys", {
      key: DEMO.personalKey,
      body: { key_name: "made-by-cli-test" },
    });
    assert.equal(made.status, 200);
    child.kill("SIGTERM");
    assert.equal(await exited(child), 0);
    assert.match(out.text(), /stopped \(SIGTERM\)/);
    const state = JSON.parse(readFileSync(stateFile, "utf8"));
    assert.ok(
      state.api_keys.some((k: { name: string }) => k.name === "made-by-cli-test"),
      "state was flushed",
    );
  });

  it(`with --postgres${dataPlaneRun()}, serves connection URIs that connect over TLS verified by the CA it prints, and SIGINT stops its Postgres and removes that CA`, async () => {
    child = spawnCli(["--postgres", "--op-duration-ms", "10"]);
    const out = output(child);
    const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
    const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
    const [, caPath] = await out.line(/endpoints' CA certificate: (\S+) /);
    await out.line(/connections without TLS are refused/);
    const created = await call(url as string, "POST", "/projects", {
      key: DEMO.personalKey,
      body: { project: {} },
    });
    assert.equal(created.status, 201);
    const client = new Client({
      connectionString: verifyFull(created.body.connection_uris[0].connection_uri, caPath),
    });
    await client.connect();
    assert.deepEqual((await client.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
    await client.end();
    child.kill("SIGINT");
    assert.equal(await exited(child), 0);
    assert.throws(() => process.kill(Number(pid), 0), /ESRCH/, "no postgres process is left");
    assert.equal(
      existsSync(caPath as string),
      false,
      "a CA not kept beside a state file goes with the emulator",
    );
  });

  it(`with --postgres${dataPlaneRun()}, run by npm exec as npx runs it, stops with its Postgres on SIGTERM to npm`, async function () {
    if (process.platform !== "linux") this.skip();
    child = spawnCliWithNpm(["--postgres", "--op-duration-ms", "10"]);
    const out = output(child);
    const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
    const postgres = Number(pid);
    const cli = parentOf(postgres) as number;
    const dataDir = dataFolderOf(postgres);
    leftovers = [cli, postgres];
    child.kill("SIGTERM");
    await exited(child);
    const gone = await eventually(() => processesWith(dataDir).length === 0 && !alive(cli), 15_000);
    assert.ok(gone, `left running: ${[...processesWith(dataDir), ...(alive(cli) ? [cli] : [])].join(", ")}`);
  });

  it(`with --postgres${dataPlaneRun()}, a SIGTERM while Postgres starts stops it once started, and exits 0`, async function () {
    if (process.platform !== "linux") this.skip();
    child = spawnCli(["--postgres"]);
    const cli = child.pid as number;
    const out = output(child);
    let postgres: number | undefined;
    const seen = await eventually(() => {
      postgres = processesWith("postgres\0-D\0").find((pid) => parentOf(pid) === cli);
      return postgres !== undefined;
    }, 20_000);
    assert.ok(seen, `no postgres started: ${out.text()}`);
    const dataDir = dataFolderOf(postgres as number);
    leftovers = [postgres as number];
    child.kill("SIGTERM");
    assert.equal(await exited(child), 0, out.text());
    assert.match(out.text(), /stopped \(SIGTERM\)/);
    assert.deepEqual(processesWith(dataDir), [], "no postgres process of its data folder is left");
  });

  it("prints usage with --help and exits 1 on a bad seed file", async () => {
    child = spawnCli(["--help"]);
    const help = output(child);
    assert.equal(await exited(child), 0);
    assert.match(help.text(), /Usage: clouddb-emulator/);
    assert.match(help.text(), /--allow-plain-connections/);
    child = spawnCli(["--seed", join(dir, "missing.json")]);
    const bad = output(child);
    assert.equal(await exited(child), 1);
    assert.match(bad.text(), /cannot read seed file/);
  });
});
