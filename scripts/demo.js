#!/usr/bin/env node
// `npm start`: the quickstart, for real, against the local emulator. Starts the emulator with the
// demo account, runs `pulumi up` of examples/quickstart with a local file:// backend, shows the
// outputs and the operations the run caused, runs `pulumi destroy`, and stops the emulator.
// `npm start -- --keep` leaves the emulator and the stack up for exploring.

const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ensurePulumiCli, quietEnv } = require("./pulumi-cli");

const ROOT = path.resolve(__dirname, "..");
const KEEP = process.argv.includes("--keep");
const STATE_DIR = path.join(ROOT, ".pulumi-state");
const STACK = "demo";

let stepNo = 0;
function step(text) {
  stepNo += 1;
  process.stdout.write(`\n\x1b[1m== ${stepNo}. ${text}\x1b[0m\n`);
}
function note(text) {
  process.stdout.write(`   ${text}\n`);
}

async function main() {
  const started = Date.now();
  const { startEmulator, DEMO } = require(path.join(ROOT, "lib/emulator"));

  step("Finding the Pulumi CLI");
  const cli = ensurePulumiCli();
  note(`pulumi ${cli.version} (${cli.binary})`);

  step("Starting the emulator with the demo account");
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const stateFile = path.join(STATE_DIR, "emulator.json");
  fs.rmSync(stateFile, { force: true });
  const emulator = await startEmulator({ seed: "demo", opDurationMs: 400, stateFile });
  note(`the Cloud Database Control API, emulated, at ${emulator.url}`);
  note(`demo organization ${DEMO.orgId}, its project ${DEMO.orgProjectId}; signed in as the demo user`);

  const env = {
    ...quietEnv(process.env),
    PATH: cli.path,
    PULUMI_BACKEND_URL: `file://${STATE_DIR}`,
    PULUMI_CONFIG_PASSPHRASE: "demo",
    CLOUDDB_API_KEY: "",
    CLOUDDB_API_URL: "",
  };
  // The emulator runs in this process: commands run asynchronously so it keeps answering.
  const pulumi = (args, opts = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(cli.binary, [...args, "--stack", STACK, "--non-interactive"], {
        cwd: ROOT,
        env,
        stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
      });
      let stderr = "";
      child.stderr?.on("data", (d) => {
        stderr += d;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0 || opts.allowFailure) resolve(code);
        else reject(new Error(`pulumi ${args.join(" ")} failed (exit ${code}) ${stderr}`));
      });
    });

  try {
    step("Creating the stack on a local backend (./.pulumi-state) and configuring it");
    // A stack left by an earlier `--keep` run points at objects of an emulator that is gone.
    spawnSync(cli.binary, ["stack", "rm", STACK, "--yes", "--force", "--non-interactive"], {
      cwd: ROOT,
      env,
      stdio: "ignore",
    });
    spawnSync(cli.binary, ["stack", "init", STACK, "--non-interactive"], { cwd: ROOT, env, stdio: "ignore" });
    await pulumi(["config", "set", "clouddb:apiUrl", emulator.url], { quiet: true });
    await pulumi(["config", "set", "--secret", "clouddb:apiKey", DEMO.personalKey], { quiet: true });
    await pulumi(["config", "set", "orgId", DEMO.orgId], { quiet: true });
    await pulumi(["config", "set", "projectId", DEMO.orgProjectId], { quiet: true });
    note("clouddb:apiKey is stored encrypted (a secret); nothing else holds it");

    step("pulumi up: three API keys, a branch with two computes, a child branch");
    emulator.control.clearRequests();
    await pulumi(["up", "--yes", "--skip-preview"]);

    step("The stack's outputs (the keys are secrets: shown as [secret])");
    await pulumi(["stack", "output"]);

    step("What the run asked of the API");
    const counts = new Map();
    for (const r of emulator.control.requests()) {
      const k = `${r.route} -> ${r.status}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const [k, n] of [...counts.entries()].sort()) note(`${String(n).padStart(3)} x ${k}`);
    const locked = emulator.control.requests().filter((r) => r.status === 423).length;
    note(`423 Locked responses: ${locked} (branch creates queue per project instead of colliding)`);

    if (KEEP) {
      step("Keeping everything up (--keep)");
      note("explore with:");
      note(`  export PULUMI_BACKEND_URL=file://${STATE_DIR} PULUMI_CONFIG_PASSPHRASE=demo`);
      note(`  pulumi stack output --show-secrets --stack ${STACK}`);
      note(`  curl -s -H "Authorization: Bearer ${DEMO.personalKey}" ${emulator.url}/projects`);
      note("Ctrl-C stops the emulator (its state is saved to .pulumi-state/emulator.json).");
      await new Promise((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      return;
    }

    step("pulumi destroy: revokes the keys, deletes the branches (the child first)");
    await pulumi(["destroy", "--yes", "--skip-preview"]);
    await pulumi(["stack", "rm", "--yes"], { quiet: true });
    note(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await emulator.stop();
    if (!KEEP) fs.rmSync(STATE_DIR, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`\ndemo failed: ${err.message}\n`);
  process.exit(1);
});
