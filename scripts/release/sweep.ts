import { join } from "node:path";
import { RESOLVE_SPECIFIER, withoutTypeScript } from "./plugin";
import { BUNDLE_OPTIONS, buildFromCommandLine, buildSeaArchives } from "./sea";

// The `clouddb` command (`clouddb sweep`, `clouddb from-terraform`) as one self-contained binary per
// platform (sea.ts), for a Python or Go pipeline with no Node.js: its command line
// (provider/sweep/cli.ts) bundled into one file with what it loads (the API client, got and zod; for
// from-terraform the kinds' declarations, with @pulumi/pulumi, bundled as the plugin bundles it).
// The sweep reads the backend through the `pulumi` CLI on PATH, as the npm package's bin script
// does. Archived as clouddb-v<version>-<os>-<arch>.tar.gz with the binary, `clouddb`, at the archive
// root.
//
//   npx ts-node -T scripts/release/sweep.ts <out-dir>     # the archives and SHA256SUMS
//
// The archives are cached by the bundle and this file: a second build of unchanged sources copies them.

const ROOT = join(__dirname, "..", "..");

/** The binary's name, as the npm package's bin names it: its archives are `seaArchiveName(SWEEP, ...)`, it is `seaBinaryName(SWEEP, ...)` in them. */
export const SWEEP = "clouddb";

/**
 * The command line bundled into one CommonJS file, as the plugin's is (plugin.ts): `require.resolve`
 * answering the specifier, no TypeScript compiler, no pg-native.
 */
export async function bundleSweep(out: string): Promise<void> {
  const esbuild = require("esbuild") as typeof import("esbuild");
  await esbuild.build({
    entryPoints: [join(ROOT, "provider", "sweep", "cli.ts")],
    outfile: out,
    ...BUNDLE_OPTIONS,
    banner: { js: RESOLVE_SPECIFIER },
    external: ["pg-native"],
    plugins: [withoutTypeScript],
  });
}

/** Builds every target's archive into `outDir` (from the cache when unchanged); returns the archive names. */
export function buildSweepArchives(outDir: string): Promise<string[]> {
  return buildSeaArchives({ name: SWEEP, kind: "sweep", bundle: bundleSweep, recipe: [__filename] }, outDir);
}

if (require.main === module) buildFromCommandLine(buildSweepArchives);
