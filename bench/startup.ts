// Benchmark 7: what the package adds to the start-up of a small TypeScript program. Three programs
// (empty, importing the package, one ApiKey) run with the real engine, each type-checked by ts-node
// (Pulumi's default), transpile-only, and precompiled to JavaScript; then the seconds are split
// between Pulumi's parts and ours.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO, type RunningEmulator, startEmulator } from "../emulator";
import { installPackedProject } from "../tests/e2e/support/package";
import { collect, createStack, ROOT } from "../tests/e2e/support/stack";
import { timed } from "./support/engine";
import { fmt, median, secs, type Table, verdict } from "./support/stats";

const FIXTURE = path.join(__dirname, "fixtures", "startup");
const PROGRAMS = ["empty", "import", "one-key"] as const;
type Program = (typeof PROGRAMS)[number];
const LABELS: Record<Program, string> = {
  empty: "empty program",
  import: "importing the package",
  "one-key": "one resource (a personal ApiKey)",
};

/**
 * How the program reaches Node: ts-node type-checking it (with its compile cache cold, as on the
 * first `up` after an edit or in CI, or warm, as on a repeated `up` of an unchanged program),
 * ts-node transpile-only, or compiled by tsc first.
 */
const MODES = ["type-check", "type-check, warm cache", "transpile-only", "precompiled"] as const;
type Mode = (typeof MODES)[number];

/** The target: the package adds at most this much to an empty program's `up`. */
const TARGET_MS = 300;

/**
 * The packed package installed next to `typescript` and `@types/node` (as `pulumi new typescript`
 * sets a project up), with one Pulumi project per program and mode: `<program>` runs `index.ts`,
 * `<program>-js` the same compiled by the project's `tsc`.
 */
function startupProject(): { dir: string; tscErrors: Record<Program, number> } {
  const dev = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
  const dir = installPackedProject(FIXTURE, {
    typescript: dev.typescript,
    "@types/node": dev["@types/node"],
  });
  const tscErrors = {} as Record<Program, number>;
  for (const program of PROGRAMS) {
    const ts = path.join(dir, program);
    fs.mkdirSync(ts);
    fs.copyFileSync(path.join(FIXTURE, `${program}.ts`), path.join(ts, "index.ts"));
    fs.copyFileSync(path.join(FIXTURE, "tsconfig.json"), path.join(ts, "tsconfig.json"));
    fs.writeFileSync(path.join(ts, "Pulumi.yaml"), `name: startup-${program}\nruntime: nodejs\n`);
    const js = path.join(dir, `${program}-js`);
    // `tsc` emits even when it reports errors; they are counted for the notes.
    tscErrors[program] = errorCount(tscOutput(dir, ["-p", ts, "--outDir", js, "--pretty", "false"]));
    fs.writeFileSync(
      path.join(js, "Pulumi.yaml"),
      `name: startup-${program}-js\nruntime: nodejs\nmain: index.js\n`,
    );
  }
  return { dir, tscErrors };
}

function errorCount(tscOutput: string): number {
  return tscOutput.split("\n").filter((l) => / error TS\d+:/.test(l)).length;
}

/** Runs the project's `tsc` with `args`; its output, whether or not it reported errors. */
function tscOutput(dir: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), ...args], {
      cwd: dir,
      encoding: "utf8",
    });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? "");
  }
}

/**
 * The `up` wall time of `program` in `mode`, on a fresh stack. The ts-node Pulumi ships caches what
 * it compiled (in the OS temp folder by default) and skips the type-check on a hit: the cache is
 * off, or kept in the project's own folder for the warm mode.
 */
async function upOnce(dir: string, emulator: RunningEmulator, program: Program, mode: Mode): Promise<number> {
  const e2e = await createStack({
    workDir: path.join(dir, mode === "precompiled" ? `${program}-js` : program),
    apiUrl: emulator.url,
    apiKey: DEMO.personalKey,
    stackName: `startup-${process.pid}-${Date.now()}`,
    env: {
      PULUMI_NODEJS_TRANSPILE_ONLY: mode === "transpile-only" ? "true" : "false",
      ...(mode === "type-check, warm cache"
        ? { TS_NODE_CACHE: "true", TS_NODE_CACHE_DIRECTORY: path.join(dir, ".ts-node-cache") }
        : { TS_NODE_CACHE: "false" }),
    },
  });
  try {
    return (await timed(() => e2e.stack.up(collect(e2e.output)))).ms;
  } finally {
    await e2e.dispose();
  }
}

/** Median time of `require(modules...)` in a fresh Node process in `dir`, after `@pulumi/pulumi` is loaded. */
function requireMs(dir: string, modules: string[], runs: number): number {
  const script =
    'require("@pulumi/pulumi"); const t = performance.now(); ' +
    `for (const m of ${JSON.stringify(modules)}) require(m); ` +
    "process.stdout.write(String(performance.now() - t));";
  const times = Array.from({ length: runs }, () =>
    Number(execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" })),
  );
  return median(times);
}

/** Median time from starting Pulumi's dynamic-provider plugin in `dir` until it prints its port. */
async function providerStartMs(dir: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        // Its own process group: the plugin is a shell script that starts node, and both must stop.
        const child = spawn("pulumi-resource-pulumi-nodejs", ["127.0.0.1:1"], { cwd: dir, detached: true });
        child.once("error", reject);
        child.stdout.once("data", () => {
          resolve(performance.now() - started);
          if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
        });
      }),
    );
  }
  return median(times);
}

/**
 * Files and total time of `tsc --noEmit --skipLibCheck` over one program: like ts-node's type-check,
 * it reads every declaration file the program reaches but reports only the program's own errors.
 */
function typeCheckFigures(dir: string, program: Program): { files: number; totalMs: number } {
  const out = tscOutput(dir, [
    "-p",
    path.join(dir, program),
    "--noEmit",
    "--skipLibCheck",
    "--extendedDiagnostics",
    "--pretty",
    "false",
  ]);
  const figure = (name: string) =>
    Number(new RegExp(`^${name}:\\s+([\\d.]+)`, "m").exec(out)?.[1] ?? Number.NaN);
  return { files: figure("Files"), totalMs: figure("Total time") * 1000 };
}

/** Benchmark 7 as two tables: the wall times, and where the seconds go. */
export async function benchStartup(opts: { runs: number; log: (line: string) => void }): Promise<Table[]> {
  const { dir, tscErrors } = startupProject();
  const emulator = await startEmulator({ seed: "demo" });
  try {
    const ups = new Map<string, number[]>();
    for (const program of PROGRAMS) await upOnce(dir, emulator, program, "type-check, warm cache");
    for (let i = 0; i < opts.runs; i++) {
      // Interleaved, so a burst of load elsewhere on the machine spreads over every figure.
      for (const mode of MODES) {
        for (const program of PROGRAMS) {
          const ms = await upOnce(dir, emulator, program, mode);
          ups.set(`${program}/${mode}`, [...(ups.get(`${program}/${mode}`) ?? []), ms]);
        }
        opts.log(
          `  run ${i + 1}/${opts.runs}, ${mode}: ${PROGRAMS.map((p) => `${p} ${secs(ups.get(`${p}/${mode}`)!.at(-1)!)}`).join(", ")}`,
        );
      }
    }
    const up = (program: Program, mode: Mode) => median(ups.get(`${program}/${mode}`)!);
    const ours = (mode: Mode) => up("import", mode) - up("empty", mode);
    const perResource = (mode: Mode) => up("one-key", mode) - up("import", mode);

    const samples = Math.max(3, opts.runs * 3);
    const importMs = requireMs(dir, ["pulumi-clouddb"], samples);
    const zodMs = requireMs(dir, ["zod"], samples);
    const methodsMs = requireMs(dir, ["pulumi-clouddb/lib/provider/resources/apiKeyMethods.js"], samples);
    const pluginMs = await providerStartMs(dir, samples);
    const checks = Array.from({ length: opts.runs }, () => [
      typeCheckFigures(dir, "empty"),
      typeCheckFigures(dir, "import"),
    ]);
    const emptyCheck = { files: checks[0]![0]!.files, totalMs: median(checks.map(([e]) => e!.totalMs)) };
    const importCheck = { files: checks[0]![1]!.files, totalMs: median(checks.map(([, i]) => i!.totalMs)) };
    opts.log(
      `  import ${fmt(importMs, 0)} ms (zod alone ${fmt(zodMs, 0)} ms), ApiKey methods ${fmt(methodsMs, 0)} ms, ` +
        `plugin start ${secs(pluginMs)}, tsc files ${emptyCheck.files} -> ${importCheck.files}, ` +
        `tsc ${secs(emptyCheck.totalMs)} -> ${secs(importCheck.totalMs)}, tsc errors ${tscErrors.import}`,
    );

    const walls: Table = {
      title: `7. Start-up: \`pulumi up\` of a small TypeScript program — median of ${opts.runs}`,
      header: ["program", ...MODES.map((m) => `${m}`)],
      rows: [
        ...PROGRAMS.map((p) => [LABELS[p], ...MODES.map((m) => secs(up(p, m)))]),
        [
          `ours: importing − empty (target ≤ ${secs(TARGET_MS)})`,
          ...MODES.map((m) => `${secs(ours(m))} ${verdict(ours(m) <= TARGET_MS)}`),
        ],
        ["one resource − importing", ...MODES.map((m) => secs(perResource(m)))],
      ],
      notes: [
        "Each program is its own Pulumi project in one folder holding the packed package, `typescript` and `@types/node` (as `pulumi new typescript` sets up, with its tsconfig.json); each `up` is a fresh stack through the Automation API.",
        "type-check: Pulumi's default (ts-node type-checks the program and every declaration file it reaches), with ts-node's compile cache off: the first `up` after an edit, or any `up` on a fresh machine (CI). warm cache: ts-node's cache holds the unchanged program from an earlier `up` (the ts-node Pulumi ships keeps one in the OS temp folder by default), so it skips the type-check. transpile-only: `PULUMI_NODEJS_TRANSPILE_ONLY=true`. precompiled: the same program compiled by `tsc` first, `main: index.js` in Pulumi.yaml.",
        '"one resource − importing" pays the dynamic-provider process, the create request and the engine\'s step for one resource.',
      ],
    };
    const checkCost = ours("type-check") - ours("transpile-only");
    const split: Table = {
      title: "7b. Start-up: where the seconds go",
      header: ["part", "time", "whose", "what the user can do"],
      rows: [
        [
          "empty program's `up`, precompiled (CLI, engine, language host, Node, @pulumi/pulumi)",
          secs(up("empty", "precompiled")),
          "Pulumi",
          "",
        ],
        [
          "ts-node on the empty program (type-check − precompiled)",
          secs(up("empty", "type-check") - up("empty", "precompiled")),
          "Pulumi",
          "transpile-only, or precompile",
        ],
        [
          "of it, type-checking (type-check − transpile-only)",
          secs(up("empty", "type-check") - up("empty", "transpile-only")),
          "Pulumi",
          "transpile-only, or precompile",
        ],
        [
          "type-checking against the package's declarations (ours, type-check − ours, transpile-only)",
          secs(checkCost),
          "ours",
          "transpile-only, or precompile",
        ],
        [
          "`tsc --noEmit --skipLibCheck` of the program: files read, time (empty → importing)",
          `${emptyCheck.files} → ${importCheck.files} files, ${secs(emptyCheck.totalMs)} → ${secs(importCheck.totalMs)}`,
          "ours",
          "transpile-only, or precompile",
        ],
        [
          `\`require("pulumi-clouddb")\` in the program process (of it \`zod\` alone: ${fmt(zodMs, 0)} ms)`,
          `${fmt(importMs, 0)} ms`,
          "ours",
          "",
        ],
        ["dynamic-provider plugin start, until it listens", secs(pluginMs), "Pulumi", ""],
        [
          "loading ApiKey's methods (client, transport, schemas) in the provider process",
          `${fmt(methodsMs, 0)} ms`,
          "ours",
          "",
        ],
      ],
      notes: [
        "Module load times are medians over fresh Node processes in the installed project, measured after `@pulumi/pulumi` is loaded (every program loads it).",
        "The plugin start runs Pulumi's `pulumi-resource-pulumi-nodejs` script (a shell, `node -e` to find the provider, then Node loading @pulumi/pulumi's gRPC server) until it prints its port; it happens once per `up` that has a dynamic resource.",
        `Compiling the programs with the project's tsconfig.json (no skipLibCheck) reported ${tscErrors.empty} errors for the empty program and ${tscErrors.import} for the importing one${tscErrors.import > tscErrors.empty ? ": they are in declaration files the package's public types reach (zod's). ts-node reports only the program's own errors, so `up` is unaffected, but a precompiled program needs `skipLibCheck` (or `esModuleInterop`) today" : ""}.`,
        "What the user can do: set `PULUMI_NODEJS_TRANSPILE_ONLY=true` (type errors then surface in the editor or a separate `tsc --noEmit`), or compile the program with `tsc` and point `main` in Pulumi.yaml at the output; both skip ts-node's type-check, ours and Pulumi's.",
      ],
    };
    return [walls, split];
  } finally {
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
