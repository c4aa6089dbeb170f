import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareEngine, ROOT } from "./stack";

/**
 * Installs the package the way users do: `npm pack` of this repo, installed with its
 * dependencies (and `extraDependencies`, e.g. optional peers) into a fresh project holding
 * `fixture`'s files, next to `pulumiVersion` of `@pulumi/pulumi` (by default the one this
 * repository develops with). Returns the folder.
 */
export function installPackedProject(
  fixture: string,
  extraDependencies: Record<string, string> = {},
  pulumiVersion: string = packageJson().devDependencies["@pulumi/pulumi"] ?? "latest",
): string {
  prepareEngine();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-project-"));
  installPacked(ROOT, dir, { "@pulumi/pulumi": pulumiVersion, ...extraDependencies });
  for (const file of fs.readdirSync(fixture)) fs.copyFileSync(path.join(fixture, file), path.join(dir, file));
  return dir;
}

/**
 * `npm pack` of the package in `packageDir` (built already: no scripts run), installed the way
 * users install it into the project folder `dir`, next to `dependencies`. `npmArgs` go to the
 * install (e.g. `--omit=optional`). Returns the package's name.
 */
export function installPacked(
  packageDir: string,
  dir: string,
  dependencies: Record<string, string> = {},
  npmArgs: string[] = [],
): string {
  const packed = packedInto(packageDir, dir);
  const name = (
    JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { name: string }
  ).name;
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "clouddb-e2e-project",
      private: true,
      dependencies: { [name]: `file:./${packed}`, ...dependencies },
    }),
  );
  execFileSync(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      ...npmArgs,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
  );
  return name;
}

/** The lower bound of the package's `@pulumi/pulumi` peer range (`^3.139.0` -> `3.139.0`). */
export function oldestPulumi(): string {
  const range = packageJson().peerDependencies["@pulumi/pulumi"];
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range ?? "")?.[1];
  if (lowest === undefined) throw new Error(`@pulumi/pulumi peer range ${range} is not a caret range`);
  return lowest;
}

function packageJson(): {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
} {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
}

/**
 * The package in `packageDir` as a tarball in `dir`, its file name: the tarball the run's global
 * set-up packed once (tests/support/global.ts) when `packageDir` is this repository, else `npm pack`.
 */
function packedInto(packageDir: string, dir: string): string {
  const shared = process.env.CLOUDDB_TEST_TARBALL;
  if (shared !== undefined && path.resolve(packageDir) === ROOT) {
    fs.copyFileSync(shared, path.join(dir, path.basename(shared)));
    return path.basename(shared);
  }
  return execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], {
    cwd: packageDir,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop() as string;
}
