/**
 * The two calls a preview makes for every resource, `Check` and `Diff`: their requests read from the
 * wire and their answers written to it with less work than the generated stubs do. `google-protobuf`
 * makes a message object of every value of every `Struct` (inputs, old inputs, outputs), and
 * `toJavaScript` then walks those objects again: for a key's state that was the largest part of each
 * call (bench 18). Here a request's `Struct` fields are cut out of the message and decoded, when a
 * handler asks, straight from their bytes into the values `Struct.toJavaScript()` gives, and its
 * strings are set on the stubs' message; a request with a field read here by no rule goes, but for
 * its `Struct`s, through the stubs. The answers are written as the stubs would, byte for byte.
 */
import * as proto from "@pulumi/pulumi/proto/provider_pb";

/** A value as `Struct.toJavaScript()` gives it. */
export type JsValue = null | number | string | boolean | JsValue[] | { [key: string]: JsValue };

/** A `Struct` field of a request, read as the stubs' `Struct` is by the handlers: `toJavaScript()` only. */
export interface WireStruct {
  toJavaScript(): { [key: string]: JsValue };
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

/** A cursor over one message's bytes. */
class Cursor {
  private view: DataView | undefined;

  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {}

  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.bytes.length) throw new Error("truncated protobuf message");
      const byte = this.bytes[this.at++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
  }

  double(): number {
    this.view ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const value = this.view.getFloat64(this.at, true);
    this.at += 8;
    return value;
  }

  /** The end of the length-delimited field that starts here (its length read). */
  delimited(): number {
    const length = this.varint();
    const end = this.at + length;
    if (end > this.bytes.length) throw new Error("truncated protobuf message");
    return end;
  }

  string(end: number): string {
    const value = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, end - this.at).toString(
      "utf8",
    );
    this.at = end;
    return value;
  }

  skip(wireType: number): void {
    if (wireType === WIRE_VARINT) this.varint();
    else if (wireType === WIRE_FIXED64) this.at += 8;
    else if (wireType === WIRE_BYTES) this.at = this.delimited();
    else if (wireType === WIRE_FIXED32) this.at += 4;
    else throw new Error(`unsupported protobuf wire type ${wireType}`);
  }
}

/** Decodes a `google.protobuf.Value` ending at `end`. A field set twice keeps the last, as the stubs do. */
function value(cursor: Cursor, end: number): JsValue {
  let result: JsValue | undefined;
  while (cursor.at < end) {
    const tag = cursor.varint();
    const field = Math.floor(tag / 8);
    const wireType = tag & 7;
    if (field === 1 && wireType === WIRE_VARINT) {
      cursor.varint();
      result = null;
    } else if (field === 2 && wireType === WIRE_FIXED64) result = cursor.double();
    else if (field === 3 && wireType === WIRE_BYTES) result = cursor.string(cursor.delimited());
    else if (field === 4 && wireType === WIRE_VARINT) result = cursor.varint() !== 0;
    else if (field === 5 && wireType === WIRE_BYTES) result = struct(cursor, cursor.delimited());
    else if (field === 6 && wireType === WIRE_BYTES) result = list(cursor, cursor.delimited());
    else cursor.skip(wireType);
  }
  if (result === undefined) throw new Error("Unexpected struct type");
  return result;
}

/** Decodes a `google.protobuf.ListValue` ending at `end`. */
function list(cursor: Cursor, end: number): JsValue[] {
  const values: JsValue[] = [];
  while (cursor.at < end) {
    const tag = cursor.varint();
    if (tag === (1 << 3) + WIRE_BYTES) values.push(value(cursor, cursor.delimited()));
    else cursor.skip(tag & 7);
  }
  return values;
}

/**
 * Decodes a `google.protobuf.Struct` ending at `end`: a key sent twice keeps its last value, and the
 * keys come in the order `toJavaScript()` gives them (the stubs' map lists its keys sorted).
 */
function struct(cursor: Cursor, end: number): { [key: string]: JsValue } {
  const fields = new Map<string, JsValue>();
  while (cursor.at < end) {
    const tag = cursor.varint();
    if (tag !== (1 << 3) + WIRE_BYTES) {
      cursor.skip(tag & 7);
      continue;
    }
    const entryEnd = cursor.delimited();
    let key = "";
    let entry: JsValue | undefined;
    while (cursor.at < entryEnd) {
      const entryTag = cursor.varint();
      if (entryTag === (1 << 3) + WIRE_BYTES) key = cursor.string(cursor.delimited());
      else if (entryTag === (2 << 3) + WIRE_BYTES) entry = value(cursor, cursor.delimited());
      else cursor.skip(entryTag & 7);
    }
    // An entry without a value holds the empty `Value`, which `toJavaScript()` refuses.
    if (entry === undefined) throw new Error("Unexpected struct type");
    fields.set(key, entry);
  }
  const result: { [key: string]: JsValue } = {};
  for (const key of [...fields.keys()].sort()) result[key] = fields.get(key)!;
  return result;
}

/** The `Struct` whose bytes are `bytes`, decoded afresh on each `toJavaScript()`, as the stubs' is. */
export function wireStruct(bytes: Uint8Array): WireStruct {
  return { toJavaScript: () => struct(new Cursor(bytes, 0), bytes.length) };
}

/**
 * A request type of the stubs: the numbers of its `Struct` fields with the getter each has, and of
 * the fields read here with the setter (or, for a repeated one, the adder) each has.
 */
interface RequestShape<T> {
  type: { new (): T; deserializeBinary(bytes: Uint8Array): T };
  structs: Record<number, string>;
  strings: Record<number, string>;
  bytes?: Record<number, string>;
  repeatedStrings?: Record<number, string>;
}

/**
 * A reader of `shape`'s request: each `Struct` field's getter answers a {@link WireStruct} of its
 * bytes (undefined when not sent), its strings and bytes are set on a new message from the wire, and
 * a request with any other field (an `autonaming` message, a field the stubs know and this does not)
 * is read, but for its `Struct`s, by the stubs.
 */
function requestReader<T extends object>(shape: RequestShape<T>): (bytes: Uint8Array) => T {
  return (bytes) => {
    const cursor = new Cursor(bytes, 0);
    const rest: Uint8Array[] = [];
    const found: Record<string, WireStruct> = {};
    const set: [string, string | Uint8Array][] = [];
    let other = false;
    let kept = 0;
    while (cursor.at < bytes.length) {
      const start = cursor.at;
      const tag = cursor.varint();
      const field = Math.floor(tag / 8);
      if ((tag & 7) !== WIRE_BYTES) {
        cursor.skip(tag & 7);
        other = true;
        continue;
      }
      const end = cursor.delimited();
      const getter = shape.structs[field];
      const setter = shape.strings[field] ?? shape.repeatedStrings?.[field];
      if (getter !== undefined) {
        found[getter] = wireStruct(bytes.subarray(cursor.at, end));
        if (start > kept) rest.push(bytes.subarray(kept, start));
        kept = end;
      } else if (setter !== undefined) set.push([setter, cursor.string(end)]);
      else if (shape.bytes?.[field] !== undefined)
        set.push([shape.bytes[field]!, bytes.slice(cursor.at, end)]);
      else other = true;
      cursor.at = end;
    }
    if (kept < bytes.length) rest.push(bytes.subarray(kept));
    let message: T;
    if (other) message = shape.type.deserializeBinary(rest.length === 1 ? rest[0]! : Buffer.concat(rest));
    else {
      message = new shape.type();
      const setters = message as unknown as Record<string, (value: unknown) => void>;
      for (const [name, value] of set) setters[name]!.call(message, value);
    }
    for (const getter of Object.values(shape.structs)) {
      const struct = found[getter];
      Object.defineProperty(message, getter, { value: () => struct, configurable: true });
    }
    return message;
  };
}

/** `Check`'s request: olds (2), news (3) and old outputs (9) are `Struct`s; urn (1), random seed (5), name (6), type (7). */
export const readCheckRequest = requestReader<proto.CheckRequest>({
  type: proto.CheckRequest,
  structs: { 2: "getOlds", 3: "getNews", 9: "getOldOutputs" },
  strings: { 1: "setUrn", 6: "setName", 7: "setType" },
  bytes: { 5: "setRandomseed" },
});

/** `Diff`'s request: olds (3), news (4) and old inputs (6) are `Struct`s; id (1), urn (2), ignore changes (5), name (7), type (8). */
export const readDiffRequest = requestReader<proto.DiffRequest>({
  type: proto.DiffRequest,
  structs: { 3: "getOlds", 4: "getNews", 6: "getOldInputs" },
  strings: { 1: "setId", 2: "setUrn", 7: "setName", 8: "setType" },
  repeatedStrings: { 5: "addIgnorechanges" },
});

/*
 * The answers to `Check` and `Diff`, written to the wire directly. The stubs build a message object
 * for every value of the inputs' `Struct` (`Struct.fromJavaScript`) and then walk them with their
 * generic writer; for a no-change preview those two answers are the whole of the plugin's work per
 * resource, run cold in a plugin started for that preview (bench 18). The bytes are the stubs' own:
 * fields in number order, a map's entries by sorted key, a `Value`'s kind always written.
 */

/** A growing buffer that protobuf is written into. */
class Writer {
  private bytes = Buffer.allocUnsafe(512);
  private at = 0;

  private room(size: number): void {
    if (this.at + size <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + size));
    this.bytes.copy(larger, 0, 0, this.at);
    this.bytes = larger;
  }

  byte(value: number): void {
    this.room(1);
    this.bytes[this.at++] = value;
  }

  varint(value: number): void {
    this.room(10);
    while (value >= 0x80) {
      this.bytes[this.at++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    this.bytes[this.at++] = value;
  }

  double(value: number): void {
    this.room(8);
    this.bytes.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  /** A length-delimited string field's body: its UTF-8 length, then the bytes. */
  string(value: string): void {
    const length = Buffer.byteLength(value, "utf8");
    this.varint(length);
    this.room(length);
    this.at += this.bytes.write(value, this.at, length, "utf8");
  }

  /** Starts a length-delimited message: one octet is kept for its length, {@link end} fixes it. */
  begin(): number {
    this.room(1);
    return this.at++;
  }

  /** Ends the message {@link begin} started at `start`, moving it on when its length takes more octets. */
  end(start: number): void {
    const length = this.at - start - 1;
    if (length < 0x80) {
      this.bytes[start] = length;
      return;
    }
    let octets = 1;
    for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 128)) octets++;
    this.room(octets - 1);
    this.bytes.copyWithin(start + octets, start + 1, this.at);
    const body = this.at;
    this.at = start;
    this.varint(length);
    this.at = body + octets - 1;
  }

  done(): Buffer {
    return this.bytes.subarray(0, this.at);
  }
}

/** Writes `value` (a JSON value) as a `google.protobuf.Value`'s fields. */
function writeValue(out: Writer, value: unknown): void {
  if (value === null) {
    out.byte((1 << 3) | WIRE_VARINT);
    out.byte(0);
  } else if (typeof value === "number") {
    out.byte((2 << 3) | WIRE_FIXED64);
    out.double(value);
  } else if (typeof value === "string") {
    out.byte((3 << 3) | WIRE_BYTES);
    out.string(value);
  } else if (typeof value === "boolean") {
    out.byte((4 << 3) | WIRE_VARINT);
    out.byte(value ? 1 : 0);
  } else if (Array.isArray(value)) {
    out.byte((6 << 3) | WIRE_BYTES);
    const list = out.begin();
    for (const item of value) {
      out.byte((1 << 3) | WIRE_BYTES);
      const start = out.begin();
      writeValue(out, item);
      out.end(start);
    }
    out.end(list);
  } else if (typeof value === "object") {
    out.byte((5 << 3) | WIRE_BYTES);
    const struct = out.begin();
    writeStructFields(out, value as Record<string, unknown>);
    out.end(struct);
  } else throw new Error("Unexpected struct type");
}

/** An entry of map field `field`: its key (1), then its message value (2) as `value` writes it. */
function mapEntry(out: Writer, field: number, key: string, value: () => void): void {
  out.byte((field << 3) | WIRE_BYTES);
  const entry = out.begin();
  out.byte((1 << 3) | WIRE_BYTES);
  out.string(key);
  out.byte((2 << 3) | WIRE_BYTES);
  const start = out.begin();
  value();
  out.end(start);
  out.end(entry);
}

/** Writes `object` (a JSON object) as a `google.protobuf.Struct`'s fields: its entries by sorted key. */
function writeStructFields(out: Writer, object: Record<string, unknown>): void {
  for (const key of Object.keys(object).sort()) mapEntry(out, 1, key, () => writeValue(out, object[key]));
}

/**
 * Writes `props` as a `Struct`'s fields, as `Struct.fromJavaScript` of its JSON (what `toStruct`
 * sends) would serialize: an absent property is left out, a date is its ISO text.
 */
function writePropsFields(out: Writer, props: Record<string, unknown>): void {
  writeStructFields(out, JSON.parse(JSON.stringify(props)) as Record<string, unknown>);
}

/** `props` as a `Struct`'s bytes (see {@link writePropsFields}). */
export function writeStruct(props: Record<string, unknown>): Buffer {
  const out = new Writer();
  writePropsFields(out, props);
  return out.done();
}

/** A failure of `Check`'s answer. */
export interface CheckFailureAnswer {
  property: string;
  reason: string;
}

/** `Check`'s answer: the checked inputs (as `toStruct` takes them) and the failures. */
export interface CheckAnswer {
  inputs: Record<string, unknown>;
  failures: readonly CheckFailureAnswer[];
}

/** A string field, left out when empty as proto3 does (an element of a repeated one never is). */
function stringField(out: Writer, field: number, value: string, repeated = false): void {
  if (value === "" && !repeated) return;
  out.byte((field << 3) | WIRE_BYTES);
  out.string(value);
}

/** `CheckResponse`'s bytes: inputs (1), failures (2: property 1, reason 2). */
export function writeCheckResponse(answer: CheckAnswer): Buffer {
  const out = new Writer();
  out.byte((1 << 3) | WIRE_BYTES);
  const inputs = out.begin();
  writePropsFields(out, answer.inputs);
  out.end(inputs);
  for (const failure of answer.failures) {
    out.byte((2 << 3) | WIRE_BYTES);
    const start = out.begin();
    stringField(out, 1, failure.property);
    stringField(out, 2, failure.reason);
    out.end(start);
  }
  return out.done();
}

/** `Diff`'s answer, field for field as `DiffResponse` has them (`changes` and a detailed diff's kinds as their numbers). */
export interface DiffAnswer {
  replaces: readonly string[];
  stables: readonly string[];
  deleteBeforeReplace: boolean;
  changes: number;
  diffs: readonly string[];
  /** Each changed path's `PropertyDiff.Kind`; the input diff is false for every one. */
  detailedDiff: ReadonlyMap<string, number>;
  hasDetailedDiff: boolean;
}

/**
 * `DiffResponse`'s bytes: replaces (1), stables (2), deleteBeforeReplace (3), changes (4), diffs (5),
 * detailedDiff (6: a map of `PropertyDiff`, kind 1), hasDetailedDiff (7).
 */
export function writeDiffResponse(answer: DiffAnswer): Buffer {
  const out = new Writer();
  for (const path of answer.replaces) stringField(out, 1, path, true);
  for (const path of answer.stables) stringField(out, 2, path, true);
  if (answer.deleteBeforeReplace) {
    out.byte((3 << 3) | WIRE_VARINT);
    out.byte(1);
  }
  if (answer.changes !== 0) {
    out.byte((4 << 3) | WIRE_VARINT);
    out.varint(answer.changes);
  }
  for (const path of answer.diffs) stringField(out, 5, path, true);
  for (const path of [...answer.detailedDiff.keys()].sort()) {
    const kind = answer.detailedDiff.get(path)!;
    mapEntry(out, 6, path, () => {
      if (kind === 0) return;
      out.byte((1 << 3) | WIRE_VARINT);
      out.varint(kind);
    });
  }
  if (answer.hasDetailedDiff) {
    out.byte((7 << 3) | WIRE_VARINT);
    out.byte(1);
  }
  return out.done();
}
