/**
 * HPACK (RFC 7541), HTTP/2's header compression, as a gRPC server needs it: a decoder of the
 * client's header blocks (indexed fields, literals with or without indexing, Huffman-coded strings,
 * the dynamic table and its size updates) and an encoder of the few fields it answers with, as
 * literals that never touch the client's dynamic table.
 */
import { HUFFMAN_CODES, HUFFMAN_LENGTHS, STATIC_TABLE } from "./hpackTables";

/** A header block could not be read: the connection cannot go on (its dynamic table is lost). */
export class HpackError extends Error {}

/** A header field: name and value, as octets read as Latin-1. */
export type HeaderField = [name: string, value: string];

/**
 * The Huffman code as a binary tree in flat arrays: node 0 the root; `next[2n + bit]` the child, a
 * negative entry `-(octet + 1)` a leaf.
 */
const HUFFMAN_TREE = (() => {
  const next = new Int32Array(2 * 512);
  let nodes = 1;
  for (let octet = 0; octet < 256; octet++) {
    const code = HUFFMAN_CODES[octet]!;
    const length = HUFFMAN_LENGTHS[octet]!;
    let node = 0;
    for (let i = length - 1; i >= 0; i--) {
      const slot = 2 * node + ((code >>> i) & 1);
      if (i === 0) {
        next[slot] = -(octet + 1);
      } else {
        if (next[slot] === 0) next[slot] = nodes++;
        node = next[slot]!;
      }
    }
  }
  return next;
})();

/** The octets a Huffman-coded string stands for, as Latin-1. */
function huffmanDecoded(bytes: Buffer, start: number, end: number): string {
  let out = "";
  let node = 0;
  // Bits read since the last whole octet, all ones so far: what the padding may be.
  let pending = 0;
  let allOnes = true;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >>> bit) & 1;
      const child = HUFFMAN_TREE[2 * node + b]!;
      pending++;
      allOnes &&= b === 1;
      if (child < 0) {
        out += String.fromCharCode(-child - 1);
        node = 0;
        pending = 0;
        allOnes = true;
      } else if (child === 0) {
        throw new HpackError("a Huffman-coded string holds the end-of-string code");
      } else {
        node = child;
      }
    }
  }
  if (pending > 7 || !allOnes) throw new HpackError("a Huffman-coded string ends in other than its padding");
  return out;
}

/** The octets every dynamic table entry counts beyond its name and value. */
const ENTRY_OVERHEAD = 32;

/** The decoding side of one connection: its dynamic table lives as long as the connection. */
export class HpackDecoder {
  /** Newest first: index 62 is `entries[0]`. */
  private entries: HeaderField[] = [];
  private size = 0;
  private maxSize: number;

  /** `limit`: the header table size this side announced (SETTINGS_HEADER_TABLE_SIZE, 4096 by default). */
  constructor(private readonly limit = 4096) {
    this.maxSize = limit;
  }

  /** The fields of one whole header block, in order. */
  decode(block: Buffer): HeaderField[] {
    const fields: HeaderField[] = [];
    let at = 0;
    const integer = (prefixBits: number): number => {
      const max = (1 << prefixBits) - 1;
      let value = block[at++]! & max;
      if (value < max) return value;
      let shift = 0;
      for (;;) {
        if (at >= block.length) throw new HpackError("a header block ends inside an integer");
        const byte = block[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        if ((byte & 0x80) === 0) return value;
        if (shift > 28) throw new HpackError("a header block holds an integer too large");
      }
    };
    const string = (): string => {
      if (at >= block.length) throw new HpackError("a header block ends before a string");
      const huffman = (block[at]! & 0x80) !== 0;
      const length = integer(7);
      const end = at + length;
      if (end > block.length) throw new HpackError("a header block ends inside a string");
      const value = huffman ? huffmanDecoded(block, at, end) : block.toString("latin1", at, end);
      at = end;
      return value;
    };
    while (at < block.length) {
      const first = block[at]!;
      if (first & 0x80) {
        fields.push(this.field(integer(7)));
      } else if (first & 0x40) {
        const index = integer(6);
        const name = index === 0 ? string() : this.field(index)[0];
        const field: HeaderField = [name, string()];
        fields.push(field);
        this.add(field);
      } else if (first & 0x20) {
        const size = integer(5);
        if (size > this.limit) throw new HpackError("a dynamic table size update exceeds the announced size");
        this.maxSize = size;
        this.evict(0);
      } else {
        // Literal without indexing (0000) or never indexed (0001): a 4-bit index.
        const index = integer(4);
        const name = index === 0 ? string() : this.field(index)[0];
        fields.push([name, string()]);
      }
    }
    return fields;
  }

  private field(index: number): HeaderField {
    if (index >= 1 && index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1] as HeaderField;
    const entry = this.entries[index - STATIC_TABLE.length - 1];
    if (index === 0 || entry === undefined)
      throw new HpackError(`a header block names index ${index}, not in the table`);
    return entry;
  }

  private add(field: HeaderField): void {
    const size = field[0].length + field[1].length + ENTRY_OVERHEAD;
    this.evict(size);
    // An entry larger than the table empties it and is not added.
    if (size > this.maxSize) return;
    this.entries.unshift(field);
    this.size += size;
  }

  /** Drops the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.size + room > this.maxSize && this.entries.length > 0) {
      const [name, value] = this.entries.pop()!;
      this.size -= name.length + value.length + ENTRY_OVERHEAD;
    }
  }
}

/** `value` as an HPACK integer with a `prefixBits` prefix, its first octet or-ed with `flags`. */
function pushInteger(out: number[], value: number, prefixBits: number, flags: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(flags | value);
    return;
  }
  out.push(flags | max);
  let rest = value - max;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** The static table's index of each name the encoder may meet, for a literal with an indexed name. */
const STATIC_NAMES = new Map<string, number>();
STATIC_TABLE.forEach(([name], i) => {
  if (!STATIC_NAMES.has(name)) STATIC_NAMES.set(name, i + 1);
});

/**
 * A header block of `fields` (lowercase names, Latin-1 values): `:status: 200` indexed, every other
 * field a literal without indexing, its name indexed when the static table has it, strings as they
 * are. Nothing is added to the peer's dynamic table, so the encoder keeps no state.
 */
export function encodeHeaders(fields: readonly HeaderField[]): Buffer {
  const parts: Buffer[] = [];
  const out: number[] = [];
  const flush = () => {
    if (out.length === 0) return;
    parts.push(Buffer.from(out));
    out.length = 0;
  };
  const pushString = (value: string) => {
    const bytes = Buffer.from(value, "latin1");
    pushInteger(out, bytes.length, 7, 0);
    flush();
    parts.push(bytes);
  };
  for (const [name, value] of fields) {
    if (name === ":status" && value === "200") {
      out.push(0x88);
      continue;
    }
    const index = STATIC_NAMES.get(name);
    if (index !== undefined) {
      pushInteger(out, index, 4, 0);
    } else {
      out.push(0);
      pushString(name);
    }
    pushString(value);
  }
  flush();
  return Buffer.concat(parts);
}
