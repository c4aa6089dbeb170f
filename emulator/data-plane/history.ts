import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

// The emulator's clock and the WAL. The API names points of history by the emulator's clock (which
// tests move by hand or speed up) or by an LSN; Postgres recovers to a WAL position. So the data
// plane reads the WAL's insert position, noting the clock each time: when a transaction that may
// have written ends (before its client is told, commits.ts), at the end of every sync (every API
// and control request), when a session through an endpoint ends, just before the clock is
// advanced, and every `SAMPLE_MS` of wall time. The rule (docs/api-rules.md §9):
//   the data at time T  is the WAL up to the last reading noted at or before T
//   the time of an LSN  is the first reading at or past it (later than every reading: the future)
// Why it holds what it must, and nothing more:
// - A reading is noted with the clock's time after the read is answered, so its WAL holds only
//   writes made by then: a write begun once the clock is past T is not in a reading noted at or
//   before T. A commit's reading is noted at the clock's next millisecond (its read ended before
//   any client could read that time), so its commit is not at T even when it began in T's own
//   millisecond after T was read; readings run one at a time, each noted no earlier than the last.
// - A commit's reading is read after the commit, and its client learns of the commit only once
//   the reading is noted and the clock has reached its time: any T the client reads after that
//   is at or past the reading, so the data at T holds the commit, however late readings run.
// Writes no client has been told of yet (a transaction still open, a query whose answer is on
// its way) are seen at the next reading. Readings are kept in `points.jsonl`, one per change of
// position, so a restarted emulator with a state file keeps its history.

/** How often, in wall milliseconds, the WAL position is read besides requests and session ends. */
export const SAMPLE_MS = 100;

/** An LSN's byte position. */
export function lsnValue(lsn: string): bigint {
  const slash = lsn.indexOf("/");
  return (BigInt(`0x${lsn.slice(0, slash)}`) << 32n) | BigInt(`0x${lsn.slice(slash + 1)}`);
}

/** An LSN as Postgres and the API write it, `0/1F0A3B8`. */
export function lsnText(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The clock's readings and the WAL position at each, in order (both never go back). */
export class WalClock {
  readonly #file: string;
  #times: number[] = [];
  #lsns: bigint[] = [];

  /** Loads the readings an earlier run kept in `file`. */
  constructor(file: string) {
    this.#file = file;
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      // A line cut short by a kill is left out: the readings before it stand.
      try {
        const { t, lsn } = JSON.parse(line) as { t: number; lsn: string };
        this.#push(t, lsnValue(lsn));
      } catch {}
    }
  }

  /** Notes that the WAL had reached `lsn` by clock time `t`. */
  add(t: number, lsn: string): void {
    const value = lsnValue(lsn);
    const last = this.#lsns.length - 1;
    if (last >= 0 && value <= (this.#lsns[last] as bigint)) return;
    // A commit's reading is noted at the millisecond after its read: one read after it, in the same
    // millisecond, is noted no earlier.
    const time = Math.max(t, this.#times[last] ?? t);
    if (this.#push(time, value))
      appendFileSync(this.#file, `${JSON.stringify({ t: time, lsn: lsnText(value) })}\n`);
  }

  #push(t: number, value: bigint): boolean {
    const last = this.#times.length - 1;
    if (last >= 0 && (t < (this.#times[last] as number) || value <= (this.#lsns[last] as bigint)))
      return false;
    this.#times.push(t);
    this.#lsns.push(value);
    return true;
  }

  /** The last WAL position read; undefined before the first reading. */
  get latest(): string | undefined {
    const last = this.#lsns.at(-1);
    return last === undefined ? undefined : lsnText(last);
  }

  /** The WAL position of the data at clock time `t`; the first reading's for a time before it. */
  lsnAt(t: number): string | undefined {
    let low = 0;
    let high = this.#times.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.#times[mid] as number) <= t) low = mid + 1;
      else high = mid;
    }
    const value = this.#lsns[Math.max(0, low - 1)];
    return value === undefined ? undefined : lsnText(value);
  }

  /** The clock time by which the WAL reached `lsn`; Infinity when no reading has seen it yet. */
  timeAt(lsn: string): number {
    const value = lsnValue(lsn);
    let low = 0;
    let high = this.#lsns.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.#lsns[mid] as bigint) < value) low = mid + 1;
      else high = mid;
    }
    return this.#times[low] ?? Number.POSITIVE_INFINITY;
  }

  /** Forgets the readings before clock time `t`, but the last of them (it tells the data at `t`). */
  forgetBefore(t: number): void {
    let keep = 0;
    while (keep + 1 < this.#times.length && (this.#times[keep + 1] as number) <= t) keep++;
    if (keep === 0) return;
    this.#times = this.#times.slice(keep);
    this.#lsns = this.#lsns.slice(keep);
    const lines = this.#times.map((time, i) =>
      JSON.stringify({ t: time, lsn: lsnText(this.#lsns[i] as bigint) }),
    );
    writeFileSync(`${this.#file}.tmp`, lines.map((l) => `${l}\n`).join(""));
    renameSync(`${this.#file}.tmp`, this.#file);
  }
}
