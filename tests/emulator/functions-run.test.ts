import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import { api, deployTo, type Json, runSql, zipOf } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The emulator runs the functions deployed to it (docs/api-rules.md §27): code deployed by the
// official CLI (`neonctl functions deploy`, zipped as is with --no-bundle, or bundled with the
// esbuild it ships) answers at the function's invocation URL, with its variables' values and the
// branch's DATABASE_URL reaching the real Postgres behind the branch; the newest completed
// deployment serves; a handler that throws answers 500, one that runs too long 504; the Worker of a
// deleted function, of a replaced deployment and of a stopped emulator ends.

const REPO = resolve(__dirname, "../..");

/** A folder holding `files` (path to text), removed after the suite. */
function folderOf(files: Record<string, string>, made: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), "fn-run-"));
  made.push(folder);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(folder, path), text);
  return folder;
}

/** A handler that answers what it got and what it runs with, tagged `version`. */
const echo = (version: number) => `
export default {
  async fetch(req) {
    const url = new URL(req.url);
    return Response.json(
      {
        version: ${version},
        method: req.method,
        path: url.pathname + url.search,
        header: req.headers.get("x-test"),
        body: await req.text(),
        greeting: process.env.GREETING ?? null,
        folder: new URL(".", import.meta.url).pathname,
      },
      { status: 201, headers: { "x-function": "echo-${version}" } },
    );
  },
};
`;

/** A handler that counts in `beat` (a file) every 20 ms while its Worker lives; it answers its folder. */
const heartbeat = (beat: string) => `
import { writeFileSync } from "node:fs";
let count = 0;
setInterval(() => writeFileSync(${JSON.stringify(beat)}, String(++count)), 20);
export default () => Response.json({ folder: new URL(".", import.meta.url).pathname });
`;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Whether the file `beat` stopped changing: read twice, 200 ms apart (a file not there reads as empty). */
async function stopped(beat: string): Promise<boolean> {
  const read = () => (existsSync(beat) ? readFileSync(beat, "utf8") : "");
  const before = read();
  await sleep(200);
  return read() === before;
}

/** Whether `check` holds within 5 s: a Worker ends, and its folder goes, just after the answer that ends it. */
async function within5s(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(50))
    if (await check()) return true;
  return false;
}

describe("the emulator runs deployed functions", function () {
  this.timeout(180_000);
  const cli = useNeonctl({ seed: "demo", clock: "manual", postgres: true });
  const { ok } = cli;
  const on = ["--project-id", DEMO.projectId, "--branch", DEMO.branchId];
  const made: string[] = [];
  let url = "";

  before(() => {
    process.env.NEON_FUNCTIONS_POLL_INTERVAL_MS = "50";
  });
  after(() => {
    delete process.env.NEON_FUNCTIONS_POLL_INTERVAL_MS;
    for (const folder of made) rmSync(folder, { recursive: true, force: true });
  });

  /** Moves the emulator's clock past a deployment's pending and building time (5 ms, then 10 ms). */
  const built = () => cli.emu.control.advance(15);

  it("answers a request to a function deployed with --no-bundle: method, path below its root, query, headers and body in; status, headers and body out; its variables set", async () => {
    const src = folderOf({ "index.mjs": echo(1) }, made);
    const deployed = await ok(
      "functions",
      "deploy",
      "echo",
      "--src",
      src,
      "--no-bundle",
      "--no-wait",
      "--env",
      "GREETING=bonjour",
      ...on,
    );
    url = deployed.invocation_url;
    assert.equal(url, `${cli.emu.origin}/__functions/${DEMO.branchId}-echo/`);
    const early = await fetch(`${url}hello`);
    assert.equal(early.status, 503, "nothing serves before the build completes");
    assert.match(((await early.json()) as Json).message, /no completed deployment/);
    built();
    const answer = await fetch(`${url}hello?x=1`, {
      method: "POST",
      headers: { "x-test": "yes", "content-type": "text/plain" },
      body: "ping",
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers.get("x-function"), "echo-1");
    const body = (await answer.json()) as Json;
    assert.deepEqual(
      [body.version, body.method, body.path, body.header, body.body, body.greeting],
      [1, "POST", "/hello?x=1", "yes", "ping", "bonjour"],
    );
    const root = (await (await fetch(url)).json()) as Json;
    assert.equal(root.path, "/", "the invocation URL itself is the function's root");
    const shown = JSON.stringify(await ok("functions", "get", "echo", ...on));
    assert.ok(
      shown.includes("GREETING") && !shown.includes("bonjour"),
      "the API shows the name, never the value",
    );
  });

  it("serves a newer deployment once its build completed, the older one until then; a deployment without --env keeps the values, an empty value removes one", async () => {
    const first = (await (await fetch(url)).json()) as Json;
    const src = folderOf({ "index.mjs": echo(2) }, made);
    await ok("functions", "deploy", "echo", "--src", src, "--no-bundle", "--no-wait", ...on);
    const during = (await (await fetch(url)).json()) as Json;
    assert.equal(during.version, 1, "the older deployment serves while the newer builds");
    built();
    const after = (await (await fetch(url)).json()) as Json;
    assert.deepEqual([after.version, after.greeting], [2, "bonjour"]);
    assert.ok(
      await within5s(() => !existsSync(first.folder)),
      "the older deployment's folder goes with its Worker",
    );
    const cleared = await deployTo(cli.emu, "echo", { environment: '{"GREETING":""}' });
    assert.equal(cleared.status, 201, JSON.stringify(cleared.body));
    built();
    const removed = (await (await fetch(url)).json()) as Json;
    assert.deepEqual([removed.version, removed.greeting], [2, null]);
  });

  it("runs code the CLI bundled with esbuild (pg inside): the handler reads the branch's rows through DATABASE_URL", async () => {
    const { body } = await api(cli.emu, DEMO.personalKey).get(
      `/projects/${DEMO.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner`,
    );
    const uri = body.uri as string;
    await runSql(
      uri,
      cli.emu.caPath,
      "create table notes (id int primary key, note text)",
      "insert into notes values (1, 'from the branch')",
    );
    const src = folderOf(
      {
        "index.mjs": `
import pg from "pg";
export default async function (req) {
  const url = new URL(process.env.DATABASE_URL);
  url.searchParams.set("sslmode", "verify-full");
  url.searchParams.set("sslrootcert", process.env.CA_PATH);
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    const { rows } = await client.query("select note, current_user as who from notes");
    return Response.json({ rows, database: new URL(process.env.DATABASE_URL).pathname });
  } finally {
    await client.end();
  }
}
`,
      },
      made,
    );
    // The function's folder has its dependencies installed, as an app's has.
    symlinkSync(join(REPO, "node_modules"), join(src, "node_modules"));
    const deployed = await ok(
      "functions",
      "deploy",
      "db",
      "--src",
      src,
      "--no-wait",
      "--env",
      `CA_PATH=${cli.emu.caPath}`,
      ...on,
    );
    built();
    const answer = await fetch(deployed.invocation_url);
    const text = await answer.text();
    assert.equal(answer.status, 200, text);
    assert.deepEqual(JSON.parse(text), {
      rows: [{ note: "from the branch", who: "neondb_owner" }],
      database: "/neondb",
    });
  });

  it("answers 500 with the error of a handler that throws or a module that does not load, and goes on serving", async () => {
    const throwing = folderOf(
      { "index.mjs": "export default () => { throw new Error('no luck today'); };\n" },
      made,
    );
    const broken = folderOf({ "index.js": "export default {;\n" }, made);
    const empty = folderOf({ "index.mjs": "export const other = 1;\n" }, made);
    const urls: string[] = [];
    for (const [slug, src] of [
      ["throws", throwing],
      ["broken", broken],
      ["empty", empty],
    ] as const)
      urls.push(
        (await ok("functions", "deploy", slug, "--src", src, "--no-bundle", "--no-wait", ...on))
          .invocation_url,
      );
    built();
    const answers = await Promise.all(urls.map((u) => fetch(u)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [500, 500, 500],
    );
    const [thrown, unloaded, unexported] = await Promise.all(answers.map((a) => a.text()));
    assert.match(thrown as string, /^Internal Server Error\n\nError: no luck today/);
    assert.match(unloaded as string, /SyntaxError/);
    assert.match(unexported as string, /No request handler found in the source module/);
    assert.equal((await fetch(url)).status, 201, "another function still answers");
  });

  it("refuses to build an archive without index.mjs or index.js at its root", async () => {
    const made = await deployTo(cli.emu, "nomain", {
      zip: zipOf({ "main.mjs": "export default () => new Response('');\n" }),
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    built();
    const fn = await ok("functions", "get", "nomain", ...on);
    assert.equal(fn.current_deployment.status, "failed");
    assert.match(fn.current_deployment.error, /no entry module \(expected one of: index\.mjs, index\.js\)/);
    assert.equal((await fetch(fn.invocation_url)).status, 503);
  });

  it("ends a deleted function's Worker and removes its folder; its URL answers 404", async () => {
    const beat = join(folderOf({}, made), "beat");
    const src = folderOf({ "index.mjs": heartbeat(beat) }, made);
    const deployed = await ok("functions", "deploy", "beat", "--src", src, "--no-bundle", "--no-wait", ...on);
    built();
    const { folder } = (await (await fetch(deployed.invocation_url)).json()) as Json;
    // On a loaded machine a Worker can go 200 ms without a turn: it runs when its beat moves at all.
    assert.ok(await within5s(async () => !(await stopped(beat))), "the Worker runs");
    await ok("functions", "delete", "beat", ...on);
    assert.ok(await within5s(() => stopped(beat)), "the Worker ended");
    assert.ok(await within5s(() => !existsSync(folder)), "its folder went with it");
    const gone = await fetch(deployed.invocation_url);
    assert.equal(gone.status, 404);
    assert.match(((await gone.json()) as Json).message, /no function is deployed at/);
  });

  it("ends the Workers when the emulator stops, so a process that ran functions exits by itself", async () => {
    const beat = join(folderOf({}, made), "beat");
    // A process of its own: it starts an emulator, runs a function, stops the emulator, checks that
    // the function's beat stopped with it, and then has nothing left to do (a Worker left running
    // would keep the beat going).
    const script = `
      const { readFileSync } = require("node:fs");
      const { DEMO, startEmulator } = require(${JSON.stringify(join(REPO, "emulator"))});
      const { zipOf, deployTo } = require(${JSON.stringify(join(REPO, "tests/emulator/helpers"))});
      const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
      (async () => {
        const emu = await startEmulator({ clock: "manual", limits: false });
        await deployTo(emu, "beat", { zip: zipOf({ "index.mjs": ${JSON.stringify(heartbeat(beat))} }) });
        emu.control.advance(3000);
        const { folder } = await (await fetch(emu.origin + "/__functions/" + DEMO.branchId + "-beat/")).json();
        await sleep(100);
        await emu.stop();
        const before = readFileSync(${JSON.stringify(beat)}, "utf8");
        await sleep(200);
        const after = readFileSync(${JSON.stringify(beat)}, "utf8");
        process.stdout.write(JSON.stringify({ folder, before, after }));
      })();
    `;
    const out = await new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", "-e", script],
        { cwd: REPO, timeout: 60_000 },
        (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)),
      ),
    );
    const { folder, before, after } = JSON.parse(out) as Json;
    assert.ok(Number(before) > 0, "the function ran");
    assert.equal(after, before, "its Worker ended when the emulator stopped");
    assert.equal(existsSync(folder), false, "its folder was removed");
  });
});

describe("the emulator's time limit on a function's request", () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ clock: "manual", limits: false, functionTimeoutMs: 300 });
  });
  after(() => emu.stop());

  it("answers 504 to a request past the limit, ends that Worker, and a new one serves the next request", async () => {
    const code = `
let calls = 0;
export default async (req) => {
  calls += 1;
  if (new URL(req.url).pathname === "/forever") while (true) {}
  return Response.json({ calls });
};
`;
    await deployTo(emu, "slow", { zip: zipOf({ "index.mjs": code }) });
    emu.control.advance(3000);
    const url = `${emu.origin}/__functions/${DEMO.branchId}-slow/`;
    assert.deepEqual(await (await fetch(url)).json(), { calls: 1 });
    const late = await fetch(`${url}forever`);
    assert.equal(late.status, 504);
    assert.match(((await late.json()) as Json).message, /did not answer within 300 ms/);
    assert.deepEqual(await (await fetch(url)).json(), { calls: 1 }, "a fresh Worker answers");
  });

  it("counts from the call of the handler: a module that takes longer than the limit to load still answers", async () => {
    const code = `
await new Promise((resolve) => setTimeout(resolve, 600));
export default () => Response.json({ loaded: true });
`;
    await deployTo(emu, "heavy", { zip: zipOf({ "index.mjs": code }) });
    emu.control.advance(3000);
    const answer = await fetch(`${emu.origin}/__functions/${DEMO.branchId}-heavy/`);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { loaded: true });
  });
});
