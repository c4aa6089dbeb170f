import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareEngine, ROOT } from "./stack";

/**
 * The languages whose programs the e2e suites run under the real engine. Node.js's host comes with
 * the CLI (`prepareEngine`); `languagePath` finds or builds the others'.
 */
export type ProgramLanguage = "nodejs" | "python" | "yaml" | "java";

const TOOLS = path.join(ROOT, "tools/pulumi-cli");
const folders = new Map<string, string>();

/**
 * Runs `tools/pulumi-cli/<script>`, or `tools/<script>` when it names its folder (it answers at once
 * from its cache and builds or installs only what is missing, progress on stderr) and returns the
 * folder it prints. Throws naming the script.
 */
export function toolFolder(script: string): string {
  const known = folders.get(script);
  if (known !== undefined) return known;
  const file = script.includes("/") ? path.join(ROOT, "tools", script) : path.join(TOOLS, script);
  const run = spawnSync("bash", [file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const folder = run.stdout?.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !fs.existsSync(folder)) {
    const why = `exit ${run.status}, its output is above`;
    throw new Error(`${path.relative(ROOT, file)} failed (${why}); run it by hand to see why`);
  }
  folders.set(script, folder);
  return folder;
}

function onPath(command: string, envPath: string): boolean {
  return envPath.split(path.delimiter).some((dir) => dir !== "" && fs.existsSync(path.join(dir, command)));
}

/**
 * The PATH a `language` program needs under the engine: the CLI with that language's host
 * (built by tools/pulumi-cli/build.sh when the PATH has none) and, for Python, first of all the
 * bin folder of the venv holding the `pulumi` SDK (tools/pulumi-cli/python-sdk.sh). The CLI hands
 * the Python host no venv option, so the host runs the first `python` on PATH.
 */
export function languagePath(language: ProgramLanguage): string {
  prepareEngine();
  const envPath = process.env.PATH ?? "";
  const first: string[] = [];
  if (language === "python") first.push(toolFolder("python-sdk.sh"));
  if (!onPath(`pulumi-language-${language}`, envPath)) first.push(toolFolder("build.sh"));
  return [...first, envPath].join(path.delimiter);
}

/**
 * Copies folder `from` to `to` with every link, at any depth, copied as what it points at (an
 * example's `migrations/` shared by its languages), so the copy is its own: `fs.cpSync`'s
 * `dereference` follows only a link given as its source. `keep` leaves out the entries it refuses
 * (by their path in `from`).
 */
export function copyFolder(from: string, to: string, keep: (source: string) => boolean = () => true): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from)) {
    const source = path.join(from, entry);
    if (!keep(source)) continue;
    if (fs.statSync(source).isDirectory()) copyFolder(source, path.join(to, entry), keep);
    else fs.copyFileSync(source, path.join(to, entry));
  }
}

/**
 * A copy of the program folder `fixture` in a fresh temporary folder (the engine writes stack files
 * there), its links copied as what they point at (`copyFolder`).
 */
export function copyProgram(fixture: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-e2e-program-"));
  copyFolder(fixture, dir);
  return dir;
}

let sdkSite: string | undefined;

/** The `python` of the venv holding the `pulumi` SDK (tools/pulumi-cli/python-sdk.sh). */
export function venvPython(): string {
  return path.join(toolFolder("python-sdk.sh"), "python");
}

/**
 * A folder holding the Python SDK of this repository (`sdk/python`, module `pulumi_clouddb`) as pip
 * installs it, made once per test process: put it on PYTHONPATH. Installed with the venv's own pip
 * and setuptools (tools/pulumi-cli/python-requirements.txt), offline, without its dependencies (the
 * venv has them).
 */
export function pythonSdkSite(): string {
  if (sdkSite !== undefined) return sdkSite;
  const site = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-python-sdk-"));
  // Built from a copy: a build writes `build/` and `*.egg-info` next to the sources.
  const sources = path.join(site, ".sources");
  fs.cpSync(path.join(ROOT, "sdk/python"), sources, { recursive: true });
  pipInstallInto(site, sources, "./sdk/python");
  sdkSite = site;
  return site;
}

/**
 * Installs the Python package whose sources are in `sources` into the folder `site` as pip installs
 * it, with the venv's own pip and setuptools, offline, without its dependencies (the venv has them).
 * Throws naming the package as `what`.
 */
export function pipInstallInto(site: string, sources: string, what: string): void {
  const pip = ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", site];
  const run = spawnSync(venvPython(), [...pip, sources], {
    encoding: "utf8",
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
  });
  if (run.status !== 0) {
    throw new Error(`pip install ${what} failed (exit ${run.status}): ${run.stderr}`);
  }
}

/**
 * The environment a `language` program needs under the engine, with this repository's provider
 * plugin first on PATH (`bin/`, built by `prepareEngine`); for Python, the SDK on PYTHONPATH; for
 * Java, the SDK (`sdk/java`) built and installed into the local Maven repository, where the
 * program's pom.xml finds it (tools/java/install-sdk.sh, once per version of its sources).
 */
export function pluginProgramEnv(language: ProgramLanguage): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${path.join(ROOT, "bin")}${path.delimiter}${languagePath(language)}`,
  };
  if (language === "python") env.PYTHONPATH = pythonSdkSite();
  if (language === "java") toolFolder("java/install-sdk.sh");
  return env;
}
