import { Transform, type TransformCallback } from "node:stream";

// When a client learns that its writes are committed. Postgres tells a client a transaction is
// over with ReadyForQuery ('Z') and the status 'I' (idle, no transaction open); the client may
// read the emulator's clock right after and name that time as a point of history. So the stream
// from Postgres to the client is held before such a ReadyForQuery until the WAL has been read
// (docs/api-rules.md §9): the point the client names then holds the commit. Only messages'
// boundaries, command tags and ReadyForQuery's status are read; the bytes pass unchanged.

/** Command tags of statements that write nothing to the WAL: a transaction of only these needs no reading. */
const READ_ONLY_TAGS = new Set([
  "SHOW",
  "SET",
  "RESET",
  "BEGIN",
  "START TRANSACTION",
  "COMMIT",
  "ROLLBACK",
  "SAVEPOINT",
  "RELEASE",
  "FETCH",
  "MOVE",
  "CLOSE CURSOR",
  "DEALLOCATE",
  "DEALLOCATE ALL",
  "DISCARD ALL",
  "LISTEN",
  "UNLISTEN",
]);

/**
 * Whether a statement of command tag `tag` (as CommandComplete carries it) may have written;
 * `described` says whether it returned rows (a RowDescription came before it). A SELECT that
 * returns rows is taken for a read: CREATE TABLE AS and SELECT INTO, whose tag is SELECT too,
 * return none. (A function called by a query that returns rows may write too: such a write is
 * held by the next reading, not before the client learns of it; docs/api-rules.md §9.)
 */
export function mayWrite(tag: string, described: boolean): boolean {
  // A row count ends some tags ("SELECT 2", "MOVE 1"); the words before it name the command.
  const command = tag.replace(/( \d+)+$/, "");
  if (command === "SELECT") return !described;
  return !READ_ONLY_TAGS.has(command);
}

/** The longest command tag kept for `mayWrite` ("DEALLOCATE ALL" and its kin fit). */
const TAG_BYTES = 64;

/**
 * The stream from Postgres to a client, held before each ReadyForQuery that ends a transaction
 * that may have written until `reading()` resolves (a reading of the WAL taken after the commit).
 */
export class CommitGate extends Transform {
  readonly #reading: () => Promise<void>;
  /** Bytes of a message header (or a whole ReadyForQuery) not yet complete. */
  #carry: Buffer = Buffer.alloc(0);
  /** Body bytes of the current message still to come. */
  #left = 0;
  /** The current CommandComplete's tag so far; undefined inside other messages. */
  #tag: Buffer[] | undefined;
  #tagBytes = 0;
  /** A RowDescription came since the last CommandComplete: the statement returns rows. */
  #described = false;
  /** A statement that may have written completed since the last transaction's end. */
  #wrote = false;

  constructor(reading: () => Promise<void>) {
    super();
    this.#reading = reading;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#scan(Buffer.concat([this.#carry, chunk])).then(() => done(), done);
  }

  async #scan(data: Buffer): Promise<void> {
    let from = 0;
    let at = 0;
    while (at < data.length) {
      if (this.#left > 0) {
        const n = Math.min(this.#left, data.length - at);
        this.#collect(data.subarray(at, at + n));
        at += n;
        this.#left -= n;
        if (this.#left === 0) this.#completed();
        continue;
      }
      if (data.length - at < 5) break;
      const type = data[at];
      const length = data.readInt32BE(at + 1);
      if (type === 0x5a /* Z */) {
        if (data.length - at < 6) break;
        this.#described = false;
        if (data[at + 5] === 0x49 /* I */ && this.#wrote) {
          this.#wrote = false;
          if (at > from) this.push(data.subarray(from, at));
          from = at;
          await this.#reading();
        }
        at += 1 + length;
        continue;
      }
      if (type === 0x54 /* T */) this.#described = true;
      at += 5;
      this.#left = length - 4;
      this.#tag = type === 0x43 /* C */ ? [] : undefined;
      this.#tagBytes = 0;
      if (this.#left === 0) this.#completed();
    }
    // A ReadyForQuery's body is read with its header: `at` never passes the end of the data.
    if (at > from) this.push(data.subarray(from, at));
    this.#carry = Buffer.from(data.subarray(at));
  }

  #collect(bytes: Buffer): void {
    if (this.#tag === undefined || this.#tagBytes >= TAG_BYTES) return;
    this.#tag.push(Buffer.from(bytes.subarray(0, TAG_BYTES - this.#tagBytes)));
    this.#tagBytes += bytes.length;
  }

  #completed(): void {
    if (this.#tag === undefined) return;
    const body = Buffer.concat(this.#tag).toString("latin1");
    const end = body.indexOf("\0");
    if (mayWrite(end < 0 ? body : body.slice(0, end), this.#described)) this.#wrote = true;
    this.#tag = undefined;
    this.#described = false;
  }
}
