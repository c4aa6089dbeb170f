import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { GO_MODULE } from "../derive-schema";
import { buildEmulatorArchives } from "./emulator";
import { buildPluginArchives } from "./plugin";
import { packageVersion, writeSums } from "./sea";
import { buildSweepArchives } from "./sweep";

// `npm run release`: every artifact of one version into dist/release/, uploading nothing.
//
//   pulumi-clouddb-<v>.tgz, pulumi-clouddb-emulator-<v>.tgz    npm tarballs (`npm pack`)
//   pulumi-resource-clouddb-v<v>-<os>-<arch>.tar.gz            the plugin binary per platform (plugin.ts)
//   clouddb-emulator-v<v>-<os>-<arch>.tar.gz                   the emulator binary per platform (emulator.ts)
//   clouddb-v<v>-<os>-<arch>.tar.gz                            `clouddb sweep`'s binary per platform (sweep.ts)
//   pulumi_clouddb-<v>-py3-none-any.whl, pulumi_clouddb-<v>.tar.gz   the Python SDK (`python -m build`)
//   go/<module>/@v/{list,v<v>.info,v<v>.mod,v<v>.zip}         the Go SDK as a module proxy serves it
//   maven/<group path>/<artifact>/<v>/<artifact>-<v>.{jar,pom}  the Java SDK in a Maven repository layout
//   dotnet/                                                    the .NET SDK's sources (no dotnet here to pack them)
//   SHA256SUMS                                                 of every file above, by its path in the folder
//   release.json                                               the version, the tags, the files
//
// The version is package.json's; the tags to push are v<v> (the plugin's release, whose assets
// the engine downloads) and sdk/go/v<v> (the Go module in sdk/go).

const ROOT = join(__dirname, "..", "..");

/** Where `npm run release` writes. */
export const RELEASE_DIR = join(ROOT, "dist", "release");

const log = (line: string): void => {
  process.stderr.write(`[release] ${line}\n`);
};

/** Runs `command` in `cwd`, its output on stderr; throws naming the command when it fails. */
function run(command: string, args: readonly string[], cwd = ROOT): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    });
  } catch (err) {
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}: ${(err as Error).message}`);
  }
}

/** The `python` of the cached venv holding `build` (tools/release/python-build.sh). */
const buildPython = (): string =>
  run("bash", [join(ROOT, "tools", "release", "python-build.sh")])
    .trim()
    .split("\n")
    .pop()!;

/** The gomodzip tool (tools/release/gomodzip), built into the cache once per version of its sources. */
function gomodzip(): string {
  const sources = join(ROOT, "tools", "release", "gomodzip");
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "main.go"]) hash.update(readFileSync(join(sources, file)));
  const cache = join(
    process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"),
    "pulumi-clouddb",
    "gomodzip",
  );
  const binary = join(cache, hash.digest("hex").slice(0, 16), "gomodzip");
  if (!existsSync(binary)) {
    run("go", ["build", "-mod=mod", "-o", binary, "."], sources);
  }
  return binary;
}

/** The Go proxy tree's folder inside a release folder. */
export const goProxyDir = (dir: string): string => join(dir, "go");

/** The Maven repository folder inside a release folder. */
export const mavenDir = (dir: string): string => join(dir, "maven");

/**
 * Builds the Java SDK (tools/java/install-sdk.sh: Maven, into the local repository) and copies its
 * jar and pom into `repository` at the path Maven resolves `groupId:artifactId:version` from, each
 * with the .sha1 Maven checks. Returns the path of the version's folder.
 */
export function mavenLayout(repository: string): string {
  const local = run("bash", [join(ROOT, "tools", "java", "install-sdk.sh")])
    .trim()
    .split("\n")
    .pop()!;
  const pom = readFileSync(join(ROOT, "sdk", "java", "pom.xml"), "utf8");
  const own = (tag: string): string => {
    const value = new RegExp(`^  <${tag}>(.*)</${tag}>$`, "m").exec(pom)?.[1];
    if (value === undefined) throw new Error(`sdk/java/pom.xml names no ${tag}: run \`npm run derive:sdk\``);
    return value;
  };
  const [group, artifact, version] = [own("groupId"), own("artifactId"), own("version")];
  const path = join(...group.split("."), artifact, version);
  mkdirSync(join(repository, path), { recursive: true });
  for (const ext of ["jar", "pom"]) {
    const name = `${artifact}-${version}.${ext}`;
    const bytes = readFileSync(join(local, path, name));
    writeFileSync(join(repository, path, name), bytes);
    writeFileSync(join(repository, path, `${name}.sha1`), createHash("sha1").update(bytes).digest("hex"));
  }
  return join(repository, path);
}

/** What `release()` wrote, as `release.json` records it. */
export interface ReleaseManifest {
  version: string;
  tags: string[];
  goModule: string;
  files: string[];
}

/** Every file under `dir`, by its path from `dir` with `/` between folders, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => name.split(sep).join("/"))
    .sort();
}

/**
 * Writes the release into `dir` and returns its manifest. It is written into a folder of its own
 * beside `dir`, which then takes `dir`'s place: two runs never write into one folder.
 */
export async function release(dir = RELEASE_DIR): Promise<ReleaseManifest> {
  const final = dir;
  mkdirSync(dirname(final), { recursive: true });
  const staging = mkdtempSync(`${final}.partial-`);
  try {
    const manifest = await releaseInto(staging);
    rmSync(final, { recursive: true, force: true });
    renameSync(staging, final);
    log(`release ${manifest.version} in ${relative(ROOT, final)}`);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `release` into the empty folder `dir`. */
async function releaseInto(dir: string): Promise<ReleaseManifest> {
  const version = packageVersion();
  const started = Date.now();

  // lib/ and emulator/lib/ as built (`npm run release` builds them first): the packs' own prepack
  // would rewrite them in place, under any program loading them at that moment.
  let at = Date.now();
  run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]);
  run("npm", ["pack", "--ignore-scripts", "--silent", "--workspace", "emulator", "--pack-destination", dir]);
  log(`npm tarballs in ${Date.now() - at} ms`);

  at = Date.now();
  await buildPluginArchives(dir);
  log(`plugin archives in ${Date.now() - at} ms`);

  at = Date.now();
  await buildEmulatorArchives(dir);
  log(`emulator archives in ${Date.now() - at} ms`);

  at = Date.now();
  await buildSweepArchives(dir);
  log(`clouddb archives in ${Date.now() - at} ms`);

  // Built from a copy: a build writes build/ and *.egg-info beside the sources.
  at = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), "clouddb-release-"));
  try {
    const python = join(scratch, "python");
    cpSync(join(ROOT, "sdk", "python"), python, { recursive: true });
    run(buildPython(), ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", dir, python]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  log(`Python wheel and sdist in ${Date.now() - at} ms`);

  at = Date.now();
  const time = run("git", ["log", "-1", "--format=%cI"]).trim();
  run(gomodzip(), [join(ROOT, "sdk", "go"), GO_MODULE, `v${version}`, goProxyDir(dir), time]);
  log(`Go module proxy tree in ${Date.now() - at} ms`);

  at = Date.now();
  mavenLayout(mavenDir(dir));
  cpSync(join(ROOT, "sdk", "dotnet"), join(dir, "dotnet"), { recursive: true });
  log(`Java jar and pom, .NET sources in ${Date.now() - at} ms`);

  const files = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile());
  // Every artifact, the Go, Maven and .NET trees too: `sha256sum --check` takes paths.
  writeSums(dir, filesUnder(dir));
  const manifest: ReleaseManifest = {
    version,
    // The module sits in the repository at its path after github.com/<owner>/<repo>/.
    tags: [`v${version}`, `${GO_MODULE.split("/").slice(3).join("/")}/v${version}`],
    goModule: GO_MODULE,
    files: [...files, "SHA256SUMS"].sort(),
  };
  writeFileSync(join(dir, "release.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`release ${version} built in ${Date.now() - started} ms`);
  return manifest;
}

if (require.main === module) {
  release(process.argv[2] ?? RELEASE_DIR).then(
    (manifest) => process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
