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
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "clouddb-e2e-project",
      private: true,
      dependencies: {
        "pulumi-clouddb": `file:./${packed}`,
        "@pulumi/pulumi": pulumiVersion,
        ...extraDependencies,
      },
    }),
  );
  execFileSync(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (const file of fs.readdirSync(fixture)) fs.copyFileSync(path.join(fixture, file), path.join(dir, file));
  return dir;
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
