// Mocha's global set-up, once per run in the main process before any suite (also in parallel mode,
// whose workers inherit what it puts in the environment): the Pulumi CLI on PATH, `lib/` and the
// emulator built, the package packed once into a tarball every suite that installs it copies, and a
// folder for the release the release suites share.
// `CLOUDDB_TEST_SETUP=none` (the fast tier, which runs no engine) skips it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensurePulumiCli } from "../../scripts/pulumi-cli";
import { finished } from "./child-output";

const ROOT = path.resolve(__dirname, "../..");

/** Set by the set-up: `lib/` is built and the CLI is on PATH. */
export const ENGINE_READY = "CLOUDDB_TEST_ENGINE_READY";
/** Set by the set-up: the path of the package's tarball, packed from the built tree. */
export const TARBALL = "CLOUDDB_TEST_TARBALL";

let packDir: string | undefined;

/** Runs `command` in the repository; rejects with what ran and its output when it fails. */
async function run(command: string, args: string[]): Promise<void> {
  const { code, output } = await finished(command, args, { cwd: ROOT });
  if (code !== 0) throw new Error(`${[command, ...args].join(" ")} failed:\n${output}`);
}

export async function mochaGlobalSetup(): Promise<void> {
  // Every Node.js process of the run (the workers, the programs and the plugin each engine command
  // starts, the CLIs) keeps the bytecode of what it compiles here and reuses it: a TypeScript
  // program's preview takes about a quarter less time once its modules are in it.
  process.env.NODE_COMPILE_CACHE ??= path.join(os.homedir(), ".cache/pulumi-clouddb/node-compile-cache");
  // `npm test` asks for the type check here (CLOUDDB_TEST_TYPECHECK=1) rather than before mocha: it
  // runs beside the build, each on a core, and a type error still stops the run before any suite.
  // Incremental, its record in the cache folder (one per checkout path): a run whose sources match the
  // last one's checks only what changed, about 4 s where a whole check takes 17 (tsc compares each
  // file's content, so a fresh clone of the same tree counts as unchanged).
  const record = path.join(
    os.homedir(),
    ".cache/pulumi-clouddb/tsbuildinfo",
    `${createHash("sha256").update(ROOT).digest("hex").slice(0, 16)}.tsbuildinfo`,
  );
  const typecheck =
    process.env.CLOUDDB_TEST_TYPECHECK === "1"
      ? run("npm", ["run", "typecheck", "--silent", "--", "--incremental", "--tsBuildInfoFile", record])
      : Promise.resolve();
  if (process.env.CLOUDDB_TEST_SETUP === "none" || process.env[ENGINE_READY] === "1") {
    await typecheck;
    return;
  }
  const started = Date.now();
  process.env.PATH = ensurePulumiCli().path;
  // `npm run build`'s steps, the two compilations side by side (each tsc takes one core).
  await run("npm", ["run", "clean", "--silent"]);
  const outcomes = await Promise.allSettled([
    typecheck,
    run("npm", ["run", "build:provider", "--silent"]),
    run("npm", ["run", "build", "--silent", "--workspace", "emulator"]),
  ]);
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  packDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-test-pack-"));
  const packed = execFileSync(
    "npm",
    ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n")
    .pop() as string;
  process.env[TARBALL] = path.join(packDir, packed);
  // The release the release suites share, built by the first worker that needs it (tests/release/support.ts).
  process.env.CLOUDDB_TEST_RELEASE = path.join(packDir, "release");
  fs.mkdirSync(process.env.CLOUDDB_TEST_RELEASE);
  process.env[ENGINE_READY] = "1";
  console.log(
    `[set-up] Pulumi CLI on PATH, ${process.env.CLOUDDB_TEST_TYPECHECK === "1" ? "types checked, " : ""}lib/ built, package packed: ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

export function mochaGlobalTeardown(): void {
  if (packDir !== undefined) fs.rmSync(packDir, { recursive: true, force: true });
}
