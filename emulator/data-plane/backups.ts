import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyCluster, type DataFolder, giveToOwner } from "./folder";
import { lsnText, lsnValue } from "./history";
import type { PostgresServer } from "./postgres";

// Points of history, recovered. Postgres archives every finished WAL segment into the folder's
// wal/ (`basic_archive`); the emulator takes base backups (a copy of the cluster's files between
// `pg_backup_start` and `pg_backup_stop`, as pg_basebackup does: the embedded binaries have no
// pg_basebackup) when the cluster is made and then each time `BACKUP_EVERY` bytes of WAL have been
// written since the last one, so replaying to a point never reads more than that. A point is
// recovered into a scratch cluster: a copy of the newest base backup that ends before it,
// started with `recovery_target_lsn` (exclusive: every record before the point, none after) and
// promoted; the caller reads it (a schema) or takes databases from it (transplant.ts), then it
// is stopped and removed. One backup or recovery runs at a time.

/** Bytes of WAL after which a new base backup is taken. */
export const BACKUP_EVERY = 16n * 1024n * 1024n;

/** A base backup in the folder: its files, and the WAL positions it spans. */
interface BaseBackup {
  dir: string;
  start: bigint;
  stop: bigint;
}

const hex16 = (value: bigint) => value.toString(16).toUpperCase().padStart(16, "0");

/** The command Postgres runs to fetch an archived segment (`%f`) into its WAL folder (`%p`). */
function restoreCommand(wal: string): string {
  return process.platform === "win32" ? `copy "${join(wal, "%f")}" "%p"` : `cp "${join(wal, "%f")}" "%p"`;
}

/** The base backups and the recoveries of one data folder. */
export class PointRecovery {
  readonly #server: PostgresServer;
  readonly #folder: DataFolder;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(server: PostgresServer) {
    this.#server = server;
    this.#folder = server.folder;
  }

  /** The base backups, oldest first. */
  #backups(): BaseBackup[] {
    const found: BaseBackup[] = [];
    for (const name of existsSync(this.#folder.backups) ? readdirSync(this.#folder.backups) : []) {
      const match = /^([0-9A-F]{16})-([0-9A-F]{16})$/.exec(name);
      if (!match) continue;
      found.push({
        dir: join(this.#folder.backups, name),
        start: BigInt(`0x${match[1]}`),
        stop: BigInt(`0x${match[2]}`),
      });
    }
    return found.sort((a, b) => (a.start < b.start ? -1 : 1));
  }

  /** The oldest WAL position a point can be recovered at; undefined before the first backup. */
  get oldest(): string | undefined {
    const first = this.#backups()[0];
    return first === undefined ? undefined : lsnText(first.stop);
  }

  /** Runs `task` after the backups and recoveries asked before it. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Takes a base backup when there is none yet, or when `BACKUP_EVERY` bytes of WAL have passed since the last one started. */
  backUpIfDue(lsn: string): Promise<boolean> {
    const last = this.#backups().at(-1);
    if (last !== undefined && lsnValue(lsn) - last.start < BACKUP_EVERY) return Promise.resolve(false);
    return this.#serial(() => this.#backUp());
  }

  /** Takes a base backup unless one started within `BACKUP_EVERY` bytes; says whether it did. */
  async #backUp(): Promise<boolean> {
    const last = this.#backups().at(-1);
    const client = await this.#server.connectAdmin("postgres");
    const staging = mkdtempSync(join(this.#folder.backups, ".staging-"));
    try {
      const current = (await client.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn() AS lsn"))
        .rows[0];
      if (last !== undefined && lsnValue(current?.lsn as string) - last.start < BACKUP_EVERY) return false;
      // A fast checkpoint: the backup starts at once.
      const started = await client.query<{ lsn: string }>(
        "SELECT pg_backup_start('clouddb-emulator', true) AS lsn",
      );
      rmSync(staging, { recursive: true });
      copyCluster(this.#folder, this.#folder.cluster, staging, false);
      // Waits until the WAL the backup needs is archived.
      const stopped = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
        "SELECT lsn, labelfile, spcmapfile FROM pg_backup_stop(true)",
      );
      const { lsn, labelfile, spcmapfile } = stopped.rows[0] as {
        lsn: string;
        labelfile: string;
        spcmapfile: string;
      };
      writeFileSync(join(staging, "backup_label"), labelfile);
      if (spcmapfile !== "") writeFileSync(join(staging, "tablespace_map"), spcmapfile);
      giveToOwner(this.#folder, join(staging, "backup_label"));
      const start = lsnValue(started.rows[0]?.lsn as string);
      renameSync(staging, join(this.#folder.backups, `${hex16(start)}-${hex16(lsnValue(lsn))}`));
      return true;
    } finally {
      rmSync(staging, { recursive: true, force: true });
      await client.end();
    }
  }

  /**
   * Removes the base backups and archived WAL that no point at or after `lsn` needs: every backup
   * older than the newest one that ends at or before `lsn`, and the segments before that one.
   */
  forgetBefore(lsn: string): Promise<void> {
    return this.#serial(async () => {
      const backups = this.#backups();
      const keep = backups.findLastIndex((b) => b.stop <= lsnValue(lsn));
      if (keep <= 0) return;
      for (const old of backups.slice(0, keep)) rmSync(old.dir, { recursive: true, force: true });
      const client = await this.#server.connectAdmin("postgres");
      try {
        const first = (
          await client.query<{ name: string }>("SELECT pg_walfile_name($1::pg_lsn) AS name", [
            lsnText((backups[keep] as BaseBackup).start),
          ])
        ).rows[0]?.name as string;
        // Segment names sort in WAL order (timeline, then position); .history files stay.
        for (const name of readdirSync(this.#folder.wal)) {
          if (/^[0-9A-F]{24}$/.test(name) && name.slice(8) < first.slice(8)) {
            rmSync(join(this.#folder.wal, name), { force: true });
          }
        }
      } finally {
        await client.end();
      }
    });
  }

  /**
   * Recovers the cluster as it was at WAL position `lsn` into a scratch cluster, runs `use` with
   * its port, then stops and removes it. A point before the oldest backup is recovered at that
   * backup's end (the history kept starts there).
   */
  recover<T>(lsn: string, use: (port: number) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      await this.#archivePast(lsn);
      const backups = this.#backups();
      const target = lsnValue(lsn);
      const base = backups.findLast((b) => b.stop <= target) ?? backups[0];
      if (base === undefined) throw new Error("no base backup has been taken yet");
      const at = target < base.stop ? base.stop : target;
      rmSync(this.#folder.scratch, { recursive: true, force: true });
      copyCluster(this.#folder, base.dir, this.#folder.scratch, true);
      writeFileSync(join(this.#folder.scratch, "recovery.signal"), "");
      giveToOwner(this.#folder, join(this.#folder.scratch, "recovery.signal"));
      try {
        const scratch = await this.#server.startOn(this.#folder.scratch, {
          listen_addresses: "127.0.0.1",
          unix_socket_directories: "",
          fsync: "off",
          full_page_writes: "off",
          max_connections: "20",
          shared_buffers: "16MB",
          // No connection is needed before the point is reached; and so no setting has to match the main server's.
          hot_standby: "off",
          archive_mode: "off",
          // Nothing may change a page once the point is settled (transplant.ts copies the files).
          autovacuum: "off",
          restore_command: restoreCommand(this.#folder.wal),
          recovery_target_lsn: lsnText(at),
          recovery_target_inclusive: "false",
          recovery_target_action: "promote",
        });
        try {
          return await use(scratch.port);
        } finally {
          await scratch.stop();
        }
      } finally {
        rmSync(this.#folder.scratch, { recursive: true, force: true });
      }
    });
  }

  /**
   * Makes sure the archive holds a WAL record at or past `lsn` (recovery stops at the first one):
   * unless a later segment is archived already, a record is written and the segment switched,
   * and the archiver is waited for.
   */
  async #archivePast(lsn: string): Promise<void> {
    const client = await this.#server.connectAdmin("postgres");
    try {
      const state = async () =>
        (
          await client.query<{ archived: string | null; failed: string | null; segment: string }>(
            "SELECT last_archived_wal AS archived, last_failed_wal AS failed, pg_walfile_name($1::pg_lsn) AS segment FROM pg_stat_archiver",
            [lsn],
          )
        ).rows[0] as { archived: string | null; failed: string | null; segment: string };
      const now = await state();
      if (now.archived !== null && now.archived > now.segment) return;
      await client.query("SELECT pg_logical_emit_message(false, 'clouddb-emulator', 'point')");
      const { rows } = await client.query<{ segment: string }>(
        "SELECT pg_walfile_name(pg_switch_wal()) AS segment",
      );
      const needed = rows[0]?.segment as string;
      for (let waited = 0; ; waited += 20) {
        const seen = await state();
        if (seen.archived !== null && seen.archived >= needed) return;
        if (waited > 60_000) {
          throw new Error(
            `WAL segment ${needed} was not archived within a minute (last failed: ${seen.failed ?? "none"})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await client.end();
    }
  }
}
