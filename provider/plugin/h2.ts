/**
 * The server side of HTTP/2 (RFC 9113) over cleartext with prior knowledge, as gRPC clients speak
 * it, for calls that are one request and one answer each. `node:http2` makes a Duplex stream per
 * call, with its events, buffering and per-frame writes, and in a provider plugin started for one
 * preview that code runs cold: for the first few hundred calls it cost more than the rest of the
 * plugin together (bench 18). Here a call is its header block and body read from the connection's
 * frames, and its answer one write: the response's HEADERS, DATA and trailing HEADERS, with whatever
 * else the same turn of the event loop sends (a PING's acknowledgement).
 *
 * What it does: the connection preface and SETTINGS (ours: a large window, frames up to 1 MiB),
 * HEADERS with CONTINUATION, padding and priority fields, DATA, RST_STREAM, PING, GOAWAY and
 * WINDOW_UPDATE; flow control of what it sends (the connection's and each stream's window, as the
 * client's SETTINGS and WINDOW_UPDATEs move them); windows it gives the client large enough that a
 * request never waits. A frame it cannot read ends the connection.
 */
import * as net from "node:net";
import { encodeHeaders, type HeaderField, HpackDecoder } from "./hpack";

/** One call: the request's headers and body, and how to answer it (at most once). */
export interface H2Call {
  headers: ReadonlyMap<string, string>;
  body: Buffer;
  /** Sends `:status: 200` and `headers`, `body` as DATA, then `trailers`, ending the stream. */
  respond(headers: readonly HeaderField[], body: Buffer | undefined, trailers: readonly HeaderField[]): void;
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;

const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;

/** The largest window HTTP/2 allows. */
const MAX_WINDOW = 2 ** 31 - 1;
/** The largest frame we take. */
const OUR_MAX_FRAME = 1 << 20;
/** The window every flow-control window starts at. */
const DEFAULT_WINDOW = 65535;

/**
 * Writes a frame's 9-octet header into `out` at `at`. Octet by octet: the Buffer methods' checks ran
 * cold for every frame of every answer, and cost more than the rest of sending it.
 */
function putFrameHeader(
  out: Buffer,
  at: number,
  length: number,
  type: number,
  flags: number,
  stream: number,
): void {
  out[at] = length >>> 16;
  out[at + 1] = (length >>> 8) & 0xff;
  out[at + 2] = length & 0xff;
  out[at + 3] = type;
  out[at + 4] = flags;
  out[at + 5] = stream >>> 24;
  out[at + 6] = (stream >>> 16) & 0xff;
  out[at + 7] = (stream >>> 8) & 0xff;
  out[at + 8] = stream & 0xff;
}

/** An empty payload or body. */
const EMPTY = Buffer.alloc(0);

/**
 * Frames sent together: kept as they are added, then written, each header before its payload, into
 * one buffer for one socket write (an answer's HEADERS, DATA and trailers; a PING's acknowledgement).
 */
class Frames {
  private readonly list: { type: number; flags: number; stream: number; payload: Uint8Array }[] = [];
  private size = 0;

  add(type: number, flags: number, stream: number, payload: Uint8Array = EMPTY): this {
    this.list.push({ type, flags, stream, payload });
    this.size += 9 + payload.length;
    return this;
  }

  /** Adds a WINDOW_UPDATE of `stream` (0: the connection) by `increment`. */
  windowUpdate(stream: number, increment: number): this {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(increment, 0);
    return this.add(WINDOW_UPDATE, 0, stream, payload);
  }

  /** Adds `other`'s frames after these. */
  append(other: Frames): this {
    for (const frame of other.list) this.list.push(frame);
    this.size += other.size;
    return this;
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this.size);
    let at = 0;
    for (const { type, flags, stream, payload } of this.list) {
      putFrameHeader(out, at, payload.length, type, flags, stream);
      out.set(payload, at + 9);
      at += 9 + payload.length;
    }
    return out;
  }
}

/** A stream of the connection, from its first HEADERS until its answer is sent or it is reset. */
interface Stream {
  id: number;
  headers: Map<string, string>;
  chunks: Buffer[];
  /** What we may still send on it. */
  sendWindow: number;
  /** The answer's DATA not yet sent, and its trailers' header block once the DATA is out. */
  pending: { data: Buffer; trailers: Buffer } | undefined;
  done: boolean;
}

/** One client's connection. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private preface = false;
  private readonly decoder = new HpackDecoder();
  private readonly streams = new Map<number, Stream>();
  /** The HEADERS block being read, across CONTINUATION frames. */
  private block: { stream: number; endStream: boolean; parts: Buffer[] } | undefined;
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = 16384;
  /** DATA received since we last widened the connection's window. */
  private unacknowledged = 0;
  /** Streams whose answer waits for a window, in the order they answered. */
  private readonly blocked: Stream[] = [];
  /** Frames to send at the end of this turn of the event loop (see `write`). */
  private outgoing: Frames | undefined;

  constructor(
    private readonly socket: net.Socket,
    private readonly onCall: (call: H2Call) => void,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", () => socket.destroy());
    const settings = Buffer.allocUnsafe(12);
    settings.writeUInt16BE(SETTINGS_INITIAL_WINDOW_SIZE, 0);
    settings.writeUInt32BE(MAX_WINDOW, 2);
    settings.writeUInt16BE(SETTINGS_MAX_FRAME_SIZE, 6);
    settings.writeUInt32BE(OUR_MAX_FRAME, 8);
    this.write(new Frames().add(SETTINGS, 0, 0, settings).windowUpdate(0, MAX_WINDOW - DEFAULT_WINDOW));
  }

  /**
   * Sends `frames` with whatever else this turn of the event loop sends: the frames wait for the
   * turn's end (`setImmediate`, after the answers its calls resolve), then go in one socket write.
   * A gRPC client's PING and its next call often arrive together: the PING's acknowledgement then
   * travels with the call's answer, one write where there would be two, as Go's gRPC server batches.
   */
  private write(frames: Frames): void {
    if (this.socket.destroyed) return;
    if (this.outgoing !== undefined) {
      this.outgoing.append(frames);
      return;
    }
    this.outgoing = frames;
    setImmediate(() => {
      const outgoing = this.outgoing!;
      this.outgoing = undefined;
      if (!this.socket.destroyed) this.socket.write(outgoing.bytes());
    });
  }

  /** Ends the connection after a frame it cannot read. */
  private fail(): void {
    this.buffer = Buffer.alloc(0);
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (!this.preface) {
      if (this.buffer.length < PREFACE.length) return;
      if (!this.buffer.subarray(0, PREFACE.length).equals(PREFACE)) {
        this.fail();
        return;
      }
      this.preface = true;
      this.buffer = this.buffer.subarray(PREFACE.length);
    }
    let at = 0;
    while (this.buffer.length - at >= 9) {
      const buffer = this.buffer;
      const length = (buffer[at]! << 16) | (buffer[at + 1]! << 8) | buffer[at + 2]!;
      if (length > OUR_MAX_FRAME) {
        this.fail();
        return;
      }
      if (this.buffer.length - at < 9 + length) break;
      const type = buffer[at + 3]!;
      const flags = buffer[at + 4]!;
      const stream =
        ((buffer[at + 5]! & 0x7f) << 24) | (buffer[at + 6]! << 16) | (buffer[at + 7]! << 8) | buffer[at + 8]!;
      const payload = buffer.subarray(at + 9, at + 9 + length);
      at += 9 + length;
      if (!this.onFrame(type, flags, stream, payload)) {
        this.fail();
        return;
      }
      if (this.socket.destroyed) return;
    }
    this.buffer = at === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(at);
  }

  /** Handles one frame; false when the connection cannot go on. */
  private onFrame(type: number, flags: number, id: number, payload: Buffer): boolean {
    // A header block in progress admits nothing but its CONTINUATION frames.
    if (this.block !== undefined && (type !== CONTINUATION || id !== this.block.stream)) return false;
    switch (type) {
      case DATA: {
        const stream = this.streams.get(id);
        const body = unpadded(flags, payload);
        if (body === undefined) return false;
        this.unacknowledged += payload.length;
        if (this.unacknowledged > MAX_WINDOW / 2) {
          this.write(new Frames().windowUpdate(0, this.unacknowledged));
          this.unacknowledged = 0;
        }
        if (stream === undefined) return true;
        stream.chunks.push(Buffer.from(body));
        if (flags & END_STREAM) this.dispatch(stream);
        return true;
      }
      case HEADERS: {
        if (id === 0 || id % 2 === 0) return false;
        let block = unpadded(flags, payload);
        if (block === undefined) return false;
        if (flags & PRIORITY) {
          if (block.length < 5) return false;
          block = block.subarray(5);
        }
        this.block = { stream: id, endStream: (flags & END_STREAM) !== 0, parts: [Buffer.from(block)] };
        return (flags & END_HEADERS) === 0 || this.endBlock();
      }
      case CONTINUATION:
        if (this.block === undefined) return false;
        this.block.parts.push(Buffer.from(payload));
        return (flags & END_HEADERS) === 0 || this.endBlock();
      case RST_STREAM: {
        const stream = this.streams.get(id);
        if (stream !== undefined) {
          stream.done = true;
          this.streams.delete(id);
        }
        return true;
      }
      case SETTINGS:
        if (flags & ACK) return true;
        if (id !== 0 || payload.length % 6 !== 0) return false;
        for (let i = 0; i < payload.length; i += 6) {
          const key = payload.readUInt16BE(i);
          const value = payload.readUInt32BE(i + 2);
          if (key === SETTINGS_INITIAL_WINDOW_SIZE) {
            if (value > MAX_WINDOW) return false;
            const delta = value - this.peerInitialWindow;
            this.peerInitialWindow = value;
            for (const stream of this.streams.values()) stream.sendWindow += delta;
          } else if (key === SETTINGS_MAX_FRAME_SIZE) {
            if (value < 16384 || value > 16777215) return false;
            this.peerMaxFrame = value;
          }
        }
        this.write(new Frames().add(SETTINGS, ACK, 0));
        this.flushBlocked();
        return true;
      case PING:
        if (payload.length !== 8) return false;
        // A gRPC client pings after the answers it reads (to size its windows).
        if ((flags & ACK) === 0) this.write(new Frames().add(PING, ACK, 0, payload));
        return true;
      case GOAWAY:
        // The client sends no new calls; the ones it sent are still answered.
        return true;
      case WINDOW_UPDATE: {
        if (payload.length !== 4) return false;
        const increment =
          ((payload[0]! & 0x7f) << 24) | (payload[1]! << 16) | (payload[2]! << 8) | payload[3]!;
        if (id === 0) {
          this.sendWindow += increment;
        } else {
          const stream = this.streams.get(id);
          if (stream !== undefined) stream.sendWindow += increment;
        }
        this.flushBlocked();
        return true;
      }
      default:
        // PRIORITY, PUSH_PROMISE from a client (not sent by gRPC's) and unknown types: nothing to do.
        return true;
    }
  }

  /** A whole header block: a new stream's request headers (a client's trailers are ignored). */
  private endBlock(): boolean {
    const block = this.block!;
    this.block = undefined;
    let fields: HeaderField[];
    try {
      fields = this.decoder.decode(block.parts.length === 1 ? block.parts[0]! : Buffer.concat(block.parts));
    } catch {
      return false;
    }
    let stream = this.streams.get(block.stream);
    if (stream === undefined) {
      stream = {
        id: block.stream,
        headers: new Map(fields),
        chunks: [],
        sendWindow: this.peerInitialWindow,
        pending: undefined,
        done: false,
      };
      this.streams.set(stream.id, stream);
    }
    if (block.endStream) this.dispatch(stream);
    return true;
  }

  private dispatch(stream: Stream): void {
    const body = stream.chunks.length === 1 ? stream.chunks[0]! : Buffer.concat(stream.chunks);
    stream.chunks = [];
    this.onCall({
      headers: stream.headers,
      body,
      respond: (headers, data, trailers) => this.respond(stream, headers, data, trailers),
    });
  }

  private respond(
    stream: Stream,
    headers: readonly HeaderField[],
    data: Buffer | undefined,
    trailers: readonly HeaderField[],
  ): void {
    if (stream.done || this.socket.destroyed) return;
    stream.done = true;
    const frames = this.headerFrames(new Frames(), stream.id, headerBlock(headers, true), false);
    stream.pending = { data: data ?? EMPTY, trailers: headerBlock(trailers, false) };
    this.sendPending(stream, frames);
    if (stream.pending !== undefined) this.blocked.push(stream);
    this.write(frames);
  }

  /** Adds to `frames` what the windows let `stream` send of its answer; clears `pending` when all is out. */
  private sendPending(stream: Stream, frames: Frames): void {
    const pending = stream.pending!;
    while (pending.data.length > 0) {
      const size = Math.min(pending.data.length, this.peerMaxFrame, this.sendWindow, stream.sendWindow);
      if (size <= 0) return;
      frames.add(DATA, 0, stream.id, pending.data.subarray(0, size));
      pending.data = pending.data.subarray(size);
      this.sendWindow -= size;
      stream.sendWindow -= size;
    }
    this.headerFrames(frames, stream.id, pending.trailers, true);
    stream.pending = undefined;
    this.streams.delete(stream.id);
  }

  /** Adds a header block to `frames` as HEADERS and, past the peer's frame size, CONTINUATION frames. */
  private headerFrames(frames: Frames, id: number, block: Buffer, endStream: boolean): Frames {
    let first = true;
    let rest = block;
    do {
      const piece = rest.subarray(0, this.peerMaxFrame);
      rest = rest.subarray(piece.length);
      const flags = (rest.length === 0 ? END_HEADERS : 0) | (first && endStream ? END_STREAM : 0);
      frames.add(first ? HEADERS : CONTINUATION, flags, id, piece);
      first = false;
    } while (rest.length > 0);
    return frames;
  }

  /** Sends what the windows now let the waiting answers send, in the order they waited. */
  private flushBlocked(): void {
    if (this.blocked.length === 0) return;
    const frames = new Frames();
    while (this.blocked.length > 0) {
      const stream = this.blocked[0]!;
      if (this.streams.get(stream.id) !== stream) {
        // Reset by the client meanwhile.
        this.blocked.shift();
        continue;
      }
      this.sendPending(stream, frames);
      if (stream.pending !== undefined) break;
      this.blocked.shift();
    }
    if (!frames.empty) this.write(frames);
  }
}

/**
 * The header blocks of header lists given again and again (a successful answer's headers and
 * trailers are the same arrays on every call), with `:status: 200` first for a response's own.
 */
const headerBlocks = { response: new WeakMap<object, Buffer>(), trailers: new WeakMap<object, Buffer>() };

/** `fields` encoded as a header block, once for each list of fields (the lists are not changed). */
function headerBlock(fields: readonly HeaderField[], response: boolean): Buffer {
  const cache = response ? headerBlocks.response : headerBlocks.trailers;
  let block = cache.get(fields);
  if (block === undefined) {
    block = encodeHeaders(response ? [[":status", "200"], ...fields] : fields);
    cache.set(fields, block);
  }
  return block;
}

/** A frame's payload without its padding, or undefined when the padding does not fit. */
function unpadded(flags: number, payload: Buffer): Buffer | undefined {
  if ((flags & PADDED) === 0) return payload;
  if (payload.length < 1) return undefined;
  const pad = payload[0]!;
  if (pad > payload.length - 1) return undefined;
  return payload.subarray(1, payload.length - pad);
}

/** A server of HTTP/2 calls on plain TCP; `onCall` gets each call once its request is whole. */
export function createH2Server(onCall: (call: H2Call) => void): net.Server {
  return net.createServer((socket) => {
    new Connection(socket, onCall);
  });
}
