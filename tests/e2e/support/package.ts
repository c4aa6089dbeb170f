import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
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
 * install (e.g. `--omit=optional`). The run's tarball is installed once per package.json and
 * `npmArgs`, and linked into each folder that asks for the same. Returns the package's name.
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
  const installed = sharedInstall(packageDir, dir, npmArgs);
  if (installed === undefined || !linkInstall(installed, dir)) npmInstall(dir, npmArgs);
  return name;
}

/** Puts the tree installed in `installed` into `dir`, its files linked, not copied; false if they cannot be. */
function linkInstall(installed: string, dir: string): boolean {
  try {
    execFileSync("cp", ["-al", path.join(installed, "node_modules"), path.join(dir, "node_modules")]);
    fs.copyFileSync(path.join(installed, "package-lock.json"), path.join(dir, "package-lock.json"));
    return true;
  } catch {
    // Another file system, or no GNU cp: npm installs it.
    fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
    return false;
  }
}

function npmInstall(dir: string, npmArgs: string[]): void {
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
}

/**
 * The folder where this run installed the project `dir` describes (its package.json, naming the
 * tarball the global set-up packed, and `npmArgs`), installing it there the first time: `npm install`
 * of the same package.json gives the same tree, and takes about 9 CPU-seconds where linking it takes
 * a quarter of one. None for another package, or a folder that has an install to change (an upgrade).
 */
function sharedInstall(packageDir: string, dir: string, npmArgs: string[]): string | undefined {
  const shared = process.env.CLOUDDB_TEST_TARBALL;
  if (shared === undefined || path.resolve(packageDir) !== ROOT) return undefined;
  if (fs.existsSync(path.join(dir, "node_modules"))) return undefined;
  const manifest = fs.readFileSync(path.join(dir, "package.json"), "utf8");
  const key = createHash("sha256").update(manifest).update(JSON.stringify(npmArgs)).digest("hex");
  const installed = path.join(path.dirname(shared), "installs", key.slice(0, 16));
  if (fs.existsSync(path.join(installed, "package-lock.json"))) return installed;
  // Installed aside, then renamed into place: another worker either sees all of it or none. When two
  // install at once, the first rename wins and the other's copy is dropped.
  fs.mkdirSync(path.dirname(installed), { recursive: true });
  const aside = fs.mkdtempSync(`${installed}.`);
  fs.copyFileSync(shared, path.join(aside, path.basename(shared)));
  fs.writeFileSync(path.join(aside, "package.json"), manifest);
  npmInstall(aside, npmArgs);
  try {
    fs.renameSync(aside, installed);
  } catch {
    fs.rmSync(aside, { recursive: true, force: true });
  }
  return installed;
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
