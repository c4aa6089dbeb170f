import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { DEMO } from "../../emulator";
import { exited, output } from "../support/child-output";
import { call, dataPlaneRun } from "./helpers";

// The `clouddb-emulator` bin as a separate process: it prints its URL, answers real HTTP
// requests, and on SIGTERM stops cleanly with its state flushed.

const ROOT = join(__dirname, "..", "..");

function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "emulator/cli.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("clouddb-emulator CLI", function () {
  this.timeout(30_000);
  let dir: string;
  let child: ChildProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-cli-"));
  });
  afterEach(() => {
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

  it(`with --postgres${dataPlaneRun()}, serves connection URIs that connect, and SIGINT stops its Postgres too`, async () => {
    child = spawnCli(["--postgres", "--op-duration-ms", "10"]);
    const out = output(child);
    const [, url] = await out.line(/^clouddb-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v2)$/m);
    const [, pid] = await out.line(/postgres \(pid (\d+)\)/);
    const created = await call(url as string, "POST", "/projects", {
      key: DEMO.personalKey,
      body: { project: {} },
    });
    assert.equal(created.status, 201);
    const client = new Client({ connectionString: created.body.connection_uris[0].connection_uri });
    await client.connect();
    assert.deepEqual((await client.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
    await client.end();
    child.kill("SIGINT");
    assert.equal(await exited(child), 0);
    assert.throws(() => process.kill(Number(pid), 0), /ESRCH/, "no postgres process is left");
  });

  it("prints usage with --help and exits 1 on a bad seed file", async () => {
    child = spawnCli(["--help"]);
    const help = output(child);
    assert.equal(await exited(child), 0);
    assert.match(help.text(), /Usage: clouddb-emulator/);
    child = spawnCli(["--seed", join(dir, "missing.json")]);
    const bad = output(child);
    assert.equal(await exited(child), 1);
    assert.match(bad.text(), /cannot read seed file/);
  });
});
