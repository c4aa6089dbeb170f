import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { type ReleaseManifest, release } from "../../scripts/release/release";

// The release as `npm run release` writes it, made once per test run (the plugin archives come
// from the cache when the bundle has not changed). The run's global set-up names a folder for it
// (`RELEASE_FOLDER`): the first worker to ask builds the release there, the others wait for its
// manifest. A process outside such a run (one file run alone) makes its own.

/** Set by the global set-up (tests/support/global.ts): the folder the run's release is built in. */
export const RELEASE_FOLDER = "CLOUDDB_TEST_RELEASE";

type Release = { dir: string; manifest: ReleaseManifest };

let made: Promise<Release> | undefined;

/** The release folder and its manifest. */
export function releaseFolder(): Promise<Release> {
  made ??= (async () => {
    const shared = process.env[RELEASE_FOLDER];
    if (shared !== undefined) return sharedRelease(shared);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-release-"));
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return { dir, manifest: await release(dir) };
  })();
  return made;
}

/**
 * The release in `base`, shared by the run's workers: the one that makes `base/lock` first builds
 * it into `base/release` and writes `base/manifest.json` (or `base/failed.txt`); the others poll for
 * either.
 */
async function sharedRelease(base: string): Promise<Release> {
  const dir = path.join(base, "release");
  const manifestFile = path.join(base, "manifest.json");
  const failedFile = path.join(base, "failed.txt");
  const builds = (() => {
    try {
      fs.mkdirSync(path.join(base, "lock"));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw err;
    }
  })();
  if (builds) {
    try {
      const manifest = await release(dir);
      fs.writeFileSync(`${manifestFile}.partial`, JSON.stringify(manifest));
      fs.renameSync(`${manifestFile}.partial`, manifestFile);
      return { dir, manifest };
    } catch (err) {
      fs.writeFileSync(failedFile, err instanceof Error ? (err.stack ?? err.message) : String(err));
      throw err;
    }
  }
  for (;;) {
    if (fs.existsSync(manifestFile)) {
      return { dir, manifest: JSON.parse(fs.readFileSync(manifestFile, "utf8")) as ReleaseManifest };
    }
    if (fs.existsSync(failedFile)) {
      throw new Error(
        `the release another test worker built failed:\n${fs.readFileSync(failedFile, "utf8")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The SHA-256 of a file, in hex. */
export const sha256 = (file: string): string =>
  createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** The binary of a release archive (the plugin's or the emulator's), unpacked into a fresh folder; throws unless it is the archive's one file. */
export function unpackBinary(archive: string): string {
  const names = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n");
  if (names.length !== 1 || names[0]?.includes("/")) {
    throw new Error(
      `${path.basename(archive)} holds ${names.join(", ")}: the binary alone, at its root, expected`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-binary-"));
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return path.join(dir, names[0]!);
}

/** A folder holding only links to `commands` (found on this PATH): a PATH with exactly those, and no `node`. */
export function pathWith(commands: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-path-"));
  for (const command of commands) {
    const found = execFileSync("bash", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim();
    fs.symlinkSync(found, path.join(dir, command));
  }
  return dir;
}

/** A folder served over HTTP on 127.0.0.1 (a port of its own), with the paths asked for, in order. */
export interface ServedFolder {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `dir` (GET only) as a plugin download server would. */
export async function serveFolder(dir: string): Promise<ServedFolder> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const wanted = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(`${req.method} ${wanted}`);
    const file = path.join(dir, path.normalize(wanted));
    if (
      req.method !== "GET" ||
      !file.startsWith(dir) ||
      !fs.existsSync(file) ||
      !fs.statSync(file).isFile()
    ) {
      res.writeHead(404).end();
      return;
    }
    // The engine refuses a plugin download of unknown length.
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
