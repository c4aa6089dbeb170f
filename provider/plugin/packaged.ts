/**
 * What the plugin takes from its package: its version, its schema, and the gRPC and protobuf
 * modules `@pulumi/pulumi`'s stubs are built against. Run from the npm package they are read from
 * where the package is installed. In the plugin binary (one bundled file run by Node's
 * single-executable support, see tools/release/plugin.ts) the bundler sets `PLUGIN_BINARY_VERSION`,
 * bundles the modules, and the schema is the binary's embedded asset `schema.json`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpc from "@grpc/grpc-js";

/** The package version the bundler writes into the binary; not defined when run from the package. */
declare const PLUGIN_BINARY_VERSION: string | undefined;

/** Whether this is the plugin binary. */
export const IN_BINARY = typeof PLUGIN_BINARY_VERSION === "string";

/**
 * A dependency of `@pulumi/pulumi`, resolved from where it is installed: the stubs are built
 * against its copies of gRPC and protobuf, which this package does not depend on itself.
 */
function fromPulumi<T>(id: string): T {
  const root = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve(id, { paths: [root] }));
}

/* The static requires are the bundle's: the bundler resolves them as `@pulumi/pulumi` does. */
export const grpcJs: typeof grpc = IN_BINARY ? require("@grpc/grpc-js") : fromPulumi("@grpc/grpc-js");
export const { Struct } = (
  IN_BINARY
    ? require("google-protobuf/google/protobuf/struct_pb")
    : fromPulumi("google-protobuf/google/protobuf/struct_pb")
) as typeof import("google-protobuf/google/protobuf/struct_pb");
export const { Empty } = (
  IN_BINARY
    ? require("google-protobuf/google/protobuf/empty_pb")
    : fromPulumi("google-protobuf/google/protobuf/empty_pb")
) as typeof import("google-protobuf/google/protobuf/empty_pb");
export const { Any } = (
  IN_BINARY
    ? require("google-protobuf/google/protobuf/any_pb")
    : fromPulumi("google-protobuf/google/protobuf/any_pb")
) as typeof import("google-protobuf/google/protobuf/any_pb");

/** The package root (its `package.json` and `schema.json`), when run from the package. */
const packageRoot = (): string => path.dirname(require.resolve("pulumi-clouddb/package.json"));

/** The version the plugin reports: the package's. */
export function packageVersion(): string {
  if (typeof PLUGIN_BINARY_VERSION === "string") return PLUGIN_BINARY_VERSION;
  const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** The package schema; throws saying what to do when it is missing. */
export function packageSchema(): string {
  if (IN_BINARY) {
    const sea = require("node:sea") as typeof import("node:sea");
    if (!sea.isSea()) {
      throw new Error(
        "the package schema is embedded in the plugin binary only: run pulumi-resource-clouddb as built by `npm run release`, not its bundle",
      );
    }
    return sea.getAsset("schema.json", "utf8");
  }
  const file = path.join(packageRoot(), "schema.json");
  if (!fs.existsSync(file)) {
    throw new Error(
      `the package schema is missing: ${file} does not exist; build or reinstall the package pulumi-clouddb`,
    );
  }
  return fs.readFileSync(file, "utf8");
}
