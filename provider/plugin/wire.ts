/**
 * The two requests a preview sends for every resource, `Check` and `Diff`, read from the wire with
 * less work than the generated stubs do. `google-protobuf` makes a message object of every value of
 * every `Struct` (inputs, old inputs, outputs), and `toJavaScript` then walks those objects again:
 * for a key's state that was the largest part of each call (bench 18). Here a request's `Struct`
 * fields are cut out of the message and decoded, when a handler asks, straight from their bytes into
 * the values `Struct.toJavaScript()` gives; the rest of the message goes through the stubs, so every
 * other field reads as it always did.
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

/** A request type of the stubs, and the numbers of its `Struct` fields with the getter each has. */
interface RequestShape<T> {
  type: { deserializeBinary(bytes: Uint8Array): T };
  structs: Record<number, string>;
}

/**
 * A reader of `shape`'s request: the message without its `Struct` fields through the stubs, each
 * `Struct` field's getter answering a {@link WireStruct} of its bytes (undefined when not sent).
 */
function requestReader<T extends object>(shape: RequestShape<T>): (bytes: Uint8Array) => T {
  return (bytes) => {
    const cursor = new Cursor(bytes, 0);
    const rest: Uint8Array[] = [];
    const found: Record<string, WireStruct> = {};
    let kept = 0;
    while (cursor.at < bytes.length) {
      const start = cursor.at;
      const tag = cursor.varint();
      const getter = shape.structs[Math.floor(tag / 8)];
      if (getter !== undefined && (tag & 7) === WIRE_BYTES) {
        const end = cursor.delimited();
        found[getter] = wireStruct(bytes.subarray(cursor.at, end));
        cursor.at = end;
        if (start > kept) rest.push(bytes.subarray(kept, start));
        kept = end;
      } else cursor.skip(tag & 7);
    }
    if (kept < bytes.length) rest.push(bytes.subarray(kept));
    const message = shape.type.deserializeBinary(rest.length === 1 ? rest[0]! : Buffer.concat(rest));
    for (const getter of Object.values(shape.structs)) {
      const struct = found[getter];
      Object.defineProperty(message, getter, { value: () => struct, configurable: true });
    }
    return message;
  };
}

/** `Check`'s request: olds (2), news (3) and old outputs (9) are `Struct`s. */
export const readCheckRequest = requestReader<proto.CheckRequest>({
  type: proto.CheckRequest,
  structs: { 2: "getOlds", 3: "getNews", 9: "getOldOutputs" },
});

/** `Diff`'s request: olds (3), news (4) and old inputs (6) are `Struct`s. */
export const readDiffRequest = requestReader<proto.DiffRequest>({
  type: proto.DiffRequest,
  structs: { 3: "getOlds", 4: "getNews", 6: "getOldInputs" },
});
