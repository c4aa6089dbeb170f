import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO, type RunningEmulator, ScaledClock, startEmulator } from "../../emulator";
import { createClient } from "../../provider/client";
import { isoSeconds } from "../../provider/resources/expiry";
import { STACK_MARKS } from "../../provider/resources/lifecycle/owner";
import { ensurePulumiCli } from "../../scripts/pulumi-cli";
import { packageVersion, seaArchiveName } from "../../scripts/release/sea";
import { SWEEP } from "../../scripts/release/sweep";
import { pathWith, releaseFolder, unpackBinary } from "../release/support";
import { fixture, programStack } from "./support/programStack";
import { collect, type E2eStack, fileBackendUrl, leaks, PASSPHRASE, ROOT } from "./support/stack";

// `clouddb sweep` run as a user runs it against stacks of one program on one file backend, made and
// removed through the real engine: the package's bin script with Node.js and the pulumi CLI on
// PATH, or the release's single executable (linux-amd64) with the pulumi CLI and no Node.js on PATH,
// as a Python or Go pipeline runs it.

const HOUR = 3_600_000;
const P = DEMO.projectId;

/** A way to start the command: its name in the tests, and what it runs with which PATH. */
interface Launcher {
  name: string;
  command: () => string;
  path: () => string;
}

/** How one run of the command ended. */
interface SweepRun {
  code: number | "killed";
  stdout: string;
  stderr: string;
}

describe("clouddb sweep: the branches no live stack owns", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-sweep-backend-"));
  const sweepHome = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-sweep-home-"));
  const reportFile = path.join(sweepHome, "report.json");
  const stacks = new Map<string, E2eStack>();
  const ids = new Map<string, string>();
  let byHand: string;
  let binary: string | undefined;
  const SCRIPT: Launcher = {
    name: "the package's bin script",
    command: () => path.join(ROOT, "bin", "clouddb"),
    path: () => process.env.PATH ?? "",
  };
  let barePath = "";
  const BINARY: Launcher = {
    name: "the release's single executable, no Node.js on PATH",
    command: () => binary as string,
    path: () => barePath,
  };
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: emulator.url });
  const live = async () => new Set((await api().listBranches(P)).map((b) => b.id));

  /**
   * Runs `clouddb sweep` for the demo project on the suite's backend, by `via` (the bin script
   * unless given); `killAt` kills it when the log shows that.
   */
  function sweep(
    args: string[],
    opts: { apiKey?: string; killAt?: () => boolean; via?: Launcher } = {},
  ): Promise<SweepRun> {
    const via = opts.via ?? SCRIPT;
    const child = spawn(
      via.command(),
      ["sweep", "--project", P, "--backend", fileBackendUrl(backendDir), ...args],
      {
        env: {
          PATH: via.path(),
          HOME: sweepHome,
          PULUMI_HOME: sweepHome,
          PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
          CLOUDDB_API_KEY: opts.apiKey ?? DEMO.personalKey,
          CLOUDDB_API_URL: emulator.url,
        },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const watch =
      opts.killAt === undefined
        ? undefined
        : setInterval(() => {
            if (opts.killAt?.()) child.kill("SIGKILL");
          }, 5);
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => {
        if (watch !== undefined) clearInterval(watch);
        resolve({ code: signal === "SIGKILL" ? "killed" : (code ?? 1), stdout, stderr });
      });
    });
  }

  /** A stack `pr-<pr>` on the shared backend, up: of the YAML program, or with `js` of the Node.js one. */
  async function upStack(pr: string, js = false): Promise<E2eStack> {
    const e2e = await programStack({
      ...(js
        ? { workDir: fixture("sweep-js") }
        : { copyOf: fixture("sweep-yaml"), language: "yaml" as const }),
      emulator,
      stackName: `pr-${pr}`,
      backendDir,
      config: { projectId: P, pullRequest: pr },
    });
    stacks.set(pr, e2e);
    const up = await e2e.stack.up(collect(e2e.output));
    ids.set(pr, String(up.outputs.branchId?.value));
    return e2e;
  }

  before(async () => {
    const { dir } = await releaseFolder();
    binary = unpackBinary(
      path.join(dir, seaArchiveName(SWEEP, packageVersion(), { os: "linux", arch: "amd64" })),
    );
    // The CLI's folder (the CLI and its language hosts) and a folder of links to nothing.
    barePath = [path.dirname(ensurePulumiCli().binary), pathWith([])].join(path.delimiter);
    const node = spawn("/bin/bash", ["-c", "command -v node"], { env: { PATH: barePath } });
    assert.notEqual(await new Promise((resolve) => node.on("close", resolve)), 0, "node is on the bare PATH");
    // The service deletes an expired branch by itself when it gets to it: the emulator's clock runs
    // two hours behind this machine's, so a branch whose expiry passed here is still listed there.
    emulator = await startEmulator({
      seed: "demo",
      opDurationMs: 50,
      clock: new ScaledClock({ startMs: Date.now() - 2 * HOUR }),
    });
    await Promise.all([...["101", "102", "103", "104"].map((pr) => upStack(pr)), upStack("106", true)]);
    // 101 is removed without a destroy; 102 destroyed; 103 lives; 104 lives but its branch expired;
    // 106 lives, its branch a dynamic resource of the Node.js classes.
    await stacks.get("101")?.stack.workspace.removeStack("pr-101", { force: true });
    await stacks.get("102")?.stack.destroy(collect([]));
    await api().updateBranch(P, ids.get("104") as string, { expires_at: isoSeconds(Date.now() - HOUR) });
    const made = await api().createBranch(P, {
      branch: { name: "by-hand" },
      endpoints: [{ type: "read_write" }],
    });
    byHand = made.branch.id;
  });

  after(async () => {
    await stacks.get("103")?.dispose({ destroy: true });
    await stacks.get("104")?.dispose({ destroy: true });
    await stacks.get("106")?.dispose({ destroy: true });
    for (const [pr, e2e] of stacks) if (!["103", "104", "106"].includes(pr)) await e2e.dispose();
    await emulator?.stop();
    if (binary !== undefined) fs.rmSync(path.dirname(binary), { recursive: true, force: true });
    fs.rmSync(backendDir, { recursive: true, force: true });
    fs.rmSync(sweepHome, { recursive: true, force: true });
  });

  for (const via of [SCRIPT, BINARY])
    it(`lists exactly the branch of the removed stack and the expired one in a dry run, with why, and exits 10 (${via.name})`, async () => {
      emulator.control.clearRequests();
      const run = await sweep(["--report", reportFile], { via });
      assert.equal(run.code, 10, run.stdout + run.stderr);
      const orphan = ids.get("101") as string;
      const expired = ids.get("104") as string;
      const rows = run.stdout.split("\n").filter((line) => line.startsWith("br-"));
      assert.equal(rows.length, 2, run.stdout);
      const row = (id: string) => rows.find((line) => line.startsWith(id)) ?? "";
      assert.match(
        row(orphan),
        /preview\/pr-101\s+clouddb-e2e-sweep\/pr-101\s+pr-101\s+\S+\s+stack clouddb-e2e-sweep\/pr-101 is gone/,
      );
      assert.match(row(expired), /preview\/pr-104 .*expired at /);
      const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as {
        mode: string;
        found: { branchId: string; reason: string; pullRequest: string }[];
        deleted: string[];
      };
      assert.equal(report.mode, "dry-run");
      assert.deepEqual(
        report.found.map((f) => [f.branchId, f.reason, f.pullRequest]).sort(),
        [
          [orphan, "stack-gone", "pr-101"],
          [expired, "expired", "pr-104"],
        ].sort(),
      );
      assert.deepEqual(report.deleted, []);
      assert.deepEqual(
        emulator.control.requests().filter((r) => r.method !== "GET"),
        [],
        "a dry run changed something",
      );
      assert.deepEqual(leaks(run.stdout + run.stderr + fs.readFileSync(reportFile, "utf8")), []);
    });

  it("marks a branch of the Node.js classes with its stack and pull request, as the plugin's", async () => {
    const { annotations } = await api().listAnnotatedBranches(P);
    for (const [pr, project] of [
      ["106", "clouddb-e2e-sweep-js"],
      ["103", "clouddb-e2e-sweep"],
    ] as const) {
      const mark = annotations.get(ids.get(pr) as string) ?? {};
      assert.equal(mark[STACK_MARKS.project], project);
      assert.equal(mark[STACK_MARKS.stack], `pr-${pr}`);
      assert.equal(mark[STACK_MARKS.pullRequest], pr === "106" ? "106" : "pr-103");
      assert.ok(!Number.isNaN(Date.parse(mark[STACK_MARKS.createdAt] ?? "")), JSON.stringify(mark));
    }
  });

  // The bin script's --delete is the next test's.
  it(`deletes exactly those, with their computes, then finds nothing, and the live stack previews no change (${BINARY.name})`, async () => {
    const before = await live();
    const run = await sweep(["--delete", "--report", reportFile], { via: BINARY });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const gone = [ids.get("101"), ids.get("104")] as string[];
    assert.deepEqual(await live(), new Set([...before].filter((id) => !gone.includes(id))));
    for (const id of [ids.get("103"), ids.get("106"), byHand])
      assert.ok((await live()).has(id as string), `${id} is kept`);
    const computes = await api().listEndpoints(P);
    assert.deepEqual(
      computes.filter((ep) => gone.includes(ep.branch_id)),
      [],
      "a deleted branch's compute is left",
    );
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as { mode: string; deleted: string[] };
    assert.equal(report.mode, "delete");
    assert.deepEqual([...report.deleted].sort(), [...gone].sort());

    const e2e = stacks.get("103") as E2eStack;
    const preview = await e2e.stack.preview(collect(e2e.output));
    assert.deepEqual(preview.changeSummary, { same: 2 }, e2e.output.join("\n"));

    for (const via of [BINARY, SCRIPT]) {
      const again = await sweep([], { via });
      assert.equal(again.code, 0, `${via.name}: ${again.stdout}${again.stderr}`);
      assert.match(again.stdout, /No branch of project .* is left without its stack/);
    }
  });

  it(`finds a branch its live stack no longer holds; a sweep killed after its first delete (${BINARY.name}) is finished when run again (${SCRIPT.name})`, async () => {
    // Two more: a stack made again after its destroy, then removed by force; and a stack that still
    // exists but whose state no longer holds its branch (taken out of the state by hand).
    await stacks.get("102")?.stack.up(collect([]));
    const remade = await stacks.get("102")?.stack.outputs();
    ids.set("102", String(remade?.branchId?.value));
    await stacks.get("102")?.stack.workspace.removeStack("pr-102", { force: true });
    const kept = await upStack("105");
    const state = await kept.stack.exportStack();
    state.deployment.resources = (state.deployment.resources as { type: string }[]).filter(
      (r) => r.type !== "clouddb:index:Branch",
    );
    await kept.stack.importStack(state);
    const orphans = [ids.get("102"), ids.get("105")] as string[];
    const before = await live();
    for (const id of orphans) assert.ok(before.has(id), `${id} is there to sweep`);
    const dry = await sweep([]);
    assert.equal(dry.code, 10, dry.stdout + dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(`${ids.get("102")} .*stack clouddb-e2e-sweep/pr-102 is gone from the backend`),
    );
    assert.match(
      dry.stdout,
      new RegExp(`${ids.get("105")} .*stack clouddb-e2e-sweep/pr-105 no longer holds it`),
    );

    emulator.control.clearRequests();
    const deletes = () => emulator.control.requests().filter((r) => r.method === "DELETE");
    const killed = await sweep(["--delete"], { via: BINARY, killAt: () => deletes().length >= 1 });
    assert.equal(killed.code, "killed", killed.stdout + killed.stderr);
    assert.equal(deletes().length, 1, "the kill came after the first delete request");

    const rerun = await sweep(["--delete"]);
    assert.equal(rerun.code, 0, rerun.stdout + rerun.stderr);
    assert.deepEqual(await live(), new Set([...before].filter((id) => !orphans.includes(id))));
    const last = await sweep([]);
    assert.equal(last.code, 0, last.stdout + last.stderr);
  });

  it("fails with exit 1 naming what failed, the request id and what to do, in its report too, never the key", async () => {
    const wrongKey = `napi_${"x".repeat(64)}`;
    fs.rmSync(reportFile, { force: true });
    const run = await sweep(["--report", reportFile], { apiKey: wrongKey });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /listing the branches of project hidden-river-50598307 failed: .*\(request id [^)]+\)/,
    );
    assert.match(run.stderr, /Check the project id, CLOUDDB_API_KEY/);
    assert.ok(!run.stderr.includes(wrongKey) && !run.stdout.includes(wrongKey), "the key is never printed");
    const written = fs.readFileSync(reportFile, "utf8");
    const report = JSON.parse(written) as { errors: string[]; found: unknown[] };
    assert.deepEqual(report.found, []);
    assert.equal(report.errors.length, 1);
    assert.match(report.errors[0] ?? "", /listing the branches of project hidden-river-50598307 failed/);
    assert.ok(!written.includes(wrongKey), "the key is never in the report");
  });
});
