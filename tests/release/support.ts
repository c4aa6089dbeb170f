import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { type ReleaseManifest, release } from "../../scripts/release/release";

// The release as `npm run release` writes it, made once per test process into a temporary folder
// (the plugin archives come from the cache when the bundle has not changed).

let made: Promise<{ dir: string; manifest: ReleaseManifest }> | undefined;

/** The release folder and its manifest. */
export function releaseFolder(): Promise<{ dir: string; manifest: ReleaseManifest }> {
  made ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-release-"));
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return { dir, manifest: await release(dir) };
  })();
  return made;
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
