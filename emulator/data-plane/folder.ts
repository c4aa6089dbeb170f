import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chownSync,
  copyFileSync,
  type Dirent,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { PostgresUser } from "./unprivileged";

// The data plane's folder: everything Postgres keeps, in one place. Without `--state-file` it is
// a temporary folder removed at stop; with one it is `<state file>.pgdata/` and comes back with the
// state (as root, where the Postgres user cannot reach that folder, a folder of the work folder
// named after the state file's path: see unprivileged.ts). It holds
//   cluster/        the Postgres data directory
//   wal/            the archived WAL segments, copied there by Postgres (`basic_archive`)
//   backups/<a>-<b>/ base backups: copies of cluster/ taken between WAL positions a and b
//   scratch/        a cluster recovered to a point of history, while one is in use
//   points.jsonl    the emulator clock's readings and the WAL position at each (history.ts)
//   secrets.json    the superuser's and the API roles' internal passwords (mode 0600)
//   emulator.pid    the process that uses the folder, so a second one does not start on it

/** The paths of a data folder. */
export interface DataFolder {
  root: string;
  cluster: string;
  wal: string;
  backups: string;
  scratch: string;
  points: string;
  /** Whether the folder outlives the emulator (a state file's) or is removed at stop. */
  kept: boolean;
  /** The user Postgres runs as when this process is root; files made for Postgres are given to it. */
  owner: PostgresUser | undefined;
}

/** The internal passwords, kept with the cluster so that a restart can log in again. */
export interface Secrets {
  admin: string;
  role: string;
}

/** The paths of the folder at `root`. */
export function dataFolder(root: string, kept: boolean, owner: PostgresUser | undefined): DataFolder {
  return {
    root,
    cluster: join(root, "cluster"),
    wal: join(root, "wal"),
    backups: join(root, "backups"),
    scratch: join(root, "scratch"),
    points: join(root, "points.jsonl"),
    kept,
    owner,
  };
}

/** Gives `path` to the Postgres user when this process is root. */
export function giveToOwner(folder: DataFolder, path: string): void {
  if (folder.owner) chownSync(path, folder.owner.uid, folder.owner.gid);
}

/** Makes the folders Postgres writes (mode 0700, its own), keeping what is there. */
export function prepareFolder(folder: DataFolder): void {
  for (const path of [folder.root, folder.wal, folder.backups]) {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    giveToOwner(folder, path);
  }
}

/** Whether the folder already holds a cluster (a restart with a state file). */
export function hasCluster(folder: DataFolder): boolean {
  return existsSync(join(folder.cluster, "PG_VERSION"));
}

/** The folder's internal passwords: those saved with its cluster, or new ones saved now. */
export function secretsOf(folder: DataFolder): Secrets {
  const file = join(folder.root, "secrets.json");
  if (hasCluster(folder) && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Secrets;
  const secrets = {
    admin: randomBytes(18).toString("base64url"),
    role: randomBytes(18).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/**
 * Whether a process with that id runs. A zombie does not: a process killed with its parent stays
 * one until the machine's init reaps it, which in a container may take a while or never happen.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/** The command line of a process, or "" when it cannot be read. */
function commandOf(pid: number): string {
  try {
    if (existsSync(`/proc/${pid}/cmdline`))
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8" });
  } catch {
    return "";
  }
}

/**
 * Claims the folder for this process; throws when another running emulator has it. A Postgres
 * left running on its cluster by an emulator that was killed (SIGKILL does not reach the child)
 * is stopped first, so the new one can start on the same files.
 */
export async function claimFolder(folder: DataFolder): Promise<void> {
  const lock = join(folder.root, "emulator.pid");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8")) : Number.NaN;
  const emulator = (pid: number) => /node|clouddb/.test(commandOf(pid));
  if (Number.isInteger(holder) && holder !== process.pid && running(holder) && emulator(holder)) {
    throw new Error(
      `the Postgres data in ${folder.root} is in use by another emulator (pid ${holder}): stop it first, or use another --state-file`,
    );
  }
  writeFileSync(lock, String(process.pid));
  const pidFile = join(folder.cluster, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || !running(pid) || !commandOf(pid).includes(folder.cluster)) {
    // Stale: its Postgres was killed. Postgres checks the id itself, but takes a zombie (or an
    // unrelated process that now has the id) for a server still running and refuses to start;
    // its check of the shared memory block still refuses if any of its processes lives on.
    rmSync(pidFile, { force: true });
    return;
  }
  // SIGINT is Postgres's fast shutdown: committed work is on disk, the server stops at once.
  process.kill(pid, "SIGINT");
  for (let waited = 0; running(pid); waited += 50) {
    if (waited > 60_000)
      throw new Error(`the Postgres (pid ${pid}) left running on ${folder.cluster} does not stop`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Releases the folder: removes it when it is temporary, else the lock when it is this process's. */
export function releaseFolder(folder: DataFolder): void {
  if (!folder.kept) {
    rmSync(folder.root, { recursive: true, force: true });
    return;
  }
  const lock = join(folder.root, "emulator.pid");
  if (existsSync(lock) && Number(readFileSync(lock, "utf8")) === process.pid) rmSync(lock, { force: true });
}

/** What a copy of a cluster leaves out: what Postgres rebuilds or must not find in a copy. */
const NOT_COPIED = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "pg_internal.init",
  "backup_label",
  "tablespace_map",
  "recovery.signal",
  "standby.signal",
]);
/** Folders whose contents a copy leaves out (the folders themselves must exist). */
const EMPTIED = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);

/**
 * Copies a cluster's files from `from` to `to` (a new folder), for Postgres's user: with `whole`
 * everything (a stopped cluster), else what a base backup holds (`EMPTIED` folders empty).
 */
export function copyCluster(folder: DataFolder, from: string, to: string, whole: boolean): void {
  const walk = (source: string, target: string, top: boolean) => {
    mkdirSync(target, { mode: 0o700 });
    giveToOwner(folder, target);
    let entries: Dirent[];
    try {
      entries = readdirSync(source, { withFileTypes: true });
    } catch (error) {
      if (whole || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return;
    }
    for (const entry of entries) {
      if (!whole && (NOT_COPIED.has(entry.name) || entry.name.startsWith("pgsql_tmp"))) continue;
      const s = join(source, entry.name);
      const t = join(target, entry.name);
      if (entry.isDirectory()) {
        if (!whole && top && EMPTIED.has(entry.name)) {
          mkdirSync(t, { mode: 0o700 });
          giveToOwner(folder, t);
        } else walk(s, t, false);
      } else if (entry.isFile()) {
        try {
          copyFileSync(s, t);
        } catch (error) {
          // A running cluster removes files as it goes (a dropped table): the WAL replays that.
          if (whole || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          continue;
        }
        giveToOwner(folder, t);
      }
    }
  };
  walk(from, to, true);
}
