import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// Postgres refuses to run as root, so a root emulator runs it as an unprivileged user. That user
// must reach the binaries and the cluster's folder, which a clone in a folder only root can enter
// (`mktemp -d`, /root/...) does not allow. So, as root, Postgres runs from a work folder in the
// first temporary folder the user can enter: `<tmp>/clouddb-postgres/`, owned by root and
// writable only by it, holding
//   postgres-<version>/   the package's native folder, hard-linked (copied across file systems)
//                         once per version when the user cannot reach the original, then reused
//   clusters-<user>/      owned by the user, mode 0700: one temporary cluster folder per server,
//                         and `state-<hash>/` for a state file whose own folder the user cannot
//                         reach (the hash is of the state file's absolute path, so a restart
//                         finds it again)

/** The account Postgres runs as. */
export interface PostgresUser {
  uid: number;
  gid: number;
  name: string;
}

/** The unprivileged user Postgres runs as when this process is root (`postgres`, else `nobody`); undefined otherwise. */
export function unprivilegedUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
      if (Number.isInteger(uid) && uid > 0) return { uid, gid, name };
    } catch (error) {
      // `id` itself missing is not a missing user: say what is.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new Error(
          "Postgres refuses to run as root, and the user it runs as cannot be looked up: `id` is not on PATH",
        );
      }
      // try the next candidate
    }
  }
  throw new Error(
    "Postgres refuses to run as root and this machine has neither a `postgres` nor a `nobody` user: " +
      "run the emulator as an ordinary user, or create one of them",
  );
}

/**
 * Whether `user` may enter `folder` and every folder above it, by the permission bits (the
 * user's primary group only: a process started with a uid and gid has no supplementary groups).
 */
export function reachable(user: PostgresUser, folder: string): boolean {
  for (let current = resolve(folder); ; current = dirname(current)) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(current);
    } catch {
      return false;
    }
    const shift = stat.uid === user.uid ? 6 : stat.gid === user.gid ? 3 : 0;
    if (((stat.mode >> shift) & 0o1) === 0) return false;
    if (dirname(current) === current) return true;
  }
}

/** What `startPostgres` needs when this process is root. */
export interface UnprivilegedLayout {
  user: PostgresUser;
  /** The native folder (`bin/`, `lib/`, `share/`) the user can reach. */
  nativeDir: string;
  /** The folder for one cluster, owned by the user: a new empty one the caller removes, or the kept one asked for. */
  clusterDir: string;
}

/**
 * Prepares what Postgres needs to run as `user`: the binaries where it can reach them and a
 * cluster folder it owns: a new temporary one, or `keptAt` (a state file's) when the user can
 * reach the folder it is in, else one in the work folder named after it. Throws an error that
 * says which folder is in the way and what to do.
 */
export function prepareUnprivileged(
  user: PostgresUser,
  nativeDir: string,
  keptAt?: string,
): UnprivilegedLayout {
  const root = workRoot(user);
  const shared = reachable(user, nativeDir) ? nativeDir : sharedInstall(root, nativeDir);
  if (keptAt !== undefined && reachable(user, dirname(keptAt))) {
    mkdirSync(keptAt, { recursive: true, mode: 0o700 });
    chownSync(keptAt, user.uid, user.gid);
    return { user, nativeDir: shared, clusterDir: keptAt };
  }
  const clusters = join(root, `clusters-${user.name}`);
  ownedFolder(clusters, user.uid, 0o700, "the unprivileged user's cluster folder");
  let clusterDir: string;
  if (keptAt === undefined) clusterDir = mkdtempSync(join(clusters, "pg-"));
  else {
    const hash = createHash("sha256").update(resolve(keptAt)).digest("hex").slice(0, 16);
    clusterDir = join(clusters, `state-${hash}`);
    mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  }
  chownSync(clusterDir, user.uid, user.gid);
  return { user, nativeDir: shared, clusterDir };
}

/** `<tmp>/clouddb-postgres` in the first of TMPDIR, /tmp, /var/tmp that `user` can enter. */
function workRoot(user: PostgresUser): string {
  const candidates = [...new Set([tmpdir(), "/tmp", "/var/tmp"])];
  const base = candidates.find((folder) => reachable(user, folder));
  if (base === undefined) {
    throw new Error(
      `Postgres runs as the unprivileged user ${user.name} because this process is root, and that user ` +
        `can enter none of ${candidates.join(", ")} to reach its binaries and data: set TMPDIR to a ` +
        `folder ${user.name} can enter, or run the emulator as an ordinary user`,
    );
  }
  const root = join(base, "clouddb-postgres");
  ownedFolder(root, 0, 0o755, "the emulator's Postgres work folder");
  return root;
}

/**
 * Makes `folder` (not a link) with `mode`, owned by `uid`, or checks that the existing one is
 * such a folder and writable by nobody else: another user must not be able to plant binaries or
 * data in it (it lives in a shared temporary folder).
 */
function ownedFolder(folder: string, uid: number, mode: number, what: string): void {
  try {
    mkdirSync(folder, { mode });
    chmodSync(folder, mode);
    if (uid !== 0) chownSync(folder, uid, -1);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  checkOwned(folder, uid, what);
}

/** Throws unless `folder` is a folder (not a link) owned by `uid` and writable by nobody else. */
function checkOwned(folder: string, uid: number, what: string): void {
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${what} ${folder} exists but is not a folder owned by uid ${uid} and writable only by it: ` +
        `remove it (as root) and start again`,
    );
  }
}

/** The version of the package that holds `nativeDir`, to name its shared copy. */
function versionOf(nativeDir: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(nativeDir, "..", "package.json"), "utf8")) as {
      version?: unknown;
    };
    if (typeof manifest.version === "string" && /^[\w.+-]+$/.test(manifest.version)) return manifest.version;
  } catch {
    // fall back to the server binary's size
  }
  return `size-${statSync(join(nativeDir, "bin", "postgres")).size}`;
}

/**
 * `<root>/postgres-<version>`: the native folder linked (or copied) in once, under a staging name
 * then renamed, so a folder with that name is always complete; a concurrent start that loses the
 * rename uses the winner's.
 */
function sharedInstall(root: string, nativeDir: string): string {
  const target = join(root, `postgres-${versionOf(nativeDir)}`);
  if (existsSync(target)) {
    checkOwned(target, 0, "the shared copy of the Postgres binaries");
    return target;
  }
  const staging = mkdtempSync(join(root, ".staging-"));
  try {
    chmodSync(staging, 0o755);
    linkTree(nativeDir, staging);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
  return target;
}

/** Recreates `from`'s tree in `to`: folders made, links kept, files hard-linked or else copied. */
function linkTree(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      mkdirSync(target, { mode: 0o755 });
      chmodSync(target, 0o755);
      linkTree(source, target);
    } else if (entry.isSymbolicLink()) {
      symlinkSync(readlinkSync(source), target);
    } else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
        chmodSync(target, statSync(source).mode & 0o755);
      }
    }
  }
}
