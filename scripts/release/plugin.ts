import { join } from "node:path";
import {
  BUNDLE_OPTIONS,
  buildFromCommandLine,
  buildSeaArchives,
  packageVersion,
  seaArchiveName,
  seaBinaryName,
  type Target,
} from "./sea";

// The provider plugin as one self-contained binary per platform (sea.ts): the plugin
// (provider/plugin/main.ts) bundled into one file, with schema.json as an embedded asset. Archived
// as the Pulumi engine downloads plugins: pulumi-resource-clouddb-v<version>-<os>-<arch>.tar.gz
// with the binary at the archive root.
//
//   npx ts-node -T scripts/release/plugin.ts <out-dir>     # the archives and SHA256SUMS
//
// The archives are cached by the bundle, the schema and this file: a second build of unchanged
// sources copies them.

const ROOT = join(__dirname, "..", "..");

/** The binary's name in every archive (with `.exe` on Windows). */
export const PLUGIN = "pulumi-resource-clouddb";

/** The engine's name for a plugin archive. */
export function archiveName(version: string, target: Pick<Target, "os" | "arch">): string {
  return seaArchiveName(PLUGIN, version, target);
}

/** The binary's file name inside the archive of `target`. */
export const binaryName = (target: Pick<Target, "os">): string => seaBinaryName(PLUGIN, target);

/**
 * `@pulumi/pulumi` loads the TypeScript compiler (through its `typescript-shim`, from a path the
 * bundler cannot follow) to serialize functions in Node.js programs, which a plugin never does. In
 * the bundle the shim is a module that says so if it is ever used.
 */
export const withoutTypeScript: import("esbuild").Plugin = {
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

/** A bundle's first line: in a single-executable application `require` has no `resolve`; this one answers the specifier. */
export const RESOLVE_SPECIFIER = 'if (typeof require.resolve !== "function") require.resolve = (id) => id;';

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
    ...BUNDLE_OPTIONS,
    define: { PLUGIN_BINARY_VERSION: JSON.stringify(version) },
    banner: { js: RESOLVE_SPECIFIER },
    // pg's native binding is an add-on, which a single-executable application cannot load.
    external: ["pg-native"],
    plugins: [withoutTypeScript],
  });
}

/** Builds every target's archive into `outDir` (from the cache when unchanged); returns the archive names. */
export function buildPluginArchives(outDir: string): Promise<string[]> {
  return buildSeaArchives(
    {
      name: PLUGIN,
      kind: "plugin",
      bundle: (out) => bundle(out, packageVersion()),
      assets: { "schema.json": join(ROOT, "schema.json") },
      recipe: [__filename],
    },
    outDir,
  );
}

if (require.main === module) buildFromCommandLine(buildPluginArchives);
