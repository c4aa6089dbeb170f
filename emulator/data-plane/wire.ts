import type { Duplex } from "node:stream";

// The few Postgres wire-protocol messages of the startup phase (the protocol's "Message Formats"):
// the endpoint proxies read the client's StartupMessage and password and send a password
// request or an error; after that they only copy bytes. Written by hand because the phase is six
// message kinds, and a gateway library would bring its own authentication the proxies do not use.

/** Protocol 3.0, the only one Postgres 17 speaks. */
export const PROTOCOL_3 = 196_608;
/** Request codes a client may send instead of a StartupMessage. */
export const SSL_REQUEST = 80_877_103;
export const GSSENC_REQUEST = 80_877_104;
export const CANCEL_REQUEST = 80_877_102;
/** The first byte of a TLS handshake record: a client that starts TLS at once (`sslnegotiation=direct`). */
export const TLS_HANDSHAKE = 0x16;

/** Reads whole messages from a byte stream until `detach()`, which returns the bytes not yet read. */
export class MessageReader {
  readonly #socket: Duplex;
  #buffer: Buffer = Buffer.alloc(0);
  #wake: (() => void) | undefined;
  #closed = false;
  readonly #onData = (chunk: Buffer) => {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#wake?.();
  };
  readonly #onClose = () => {
    this.#closed = true;
    this.#wake?.();
  };

  constructor(socket: Duplex) {
    this.#socket = socket;
    socket.on("data", this.#onData);
    socket.on("close", this.#onClose);
  }

  /** The next byte, left unread. */
  async peek(): Promise<number> {
    await this.#fill(1);
    return this.#buffer[0] as number;
  }

  /** A message without a type byte (startup, SSL and cancel requests): its body after the length. */
  async untyped(): Promise<Buffer> {
    const length = (await this.#take(4)).readInt32BE(0);
    if (length < 8 || length > 10_000) throw new Error(`startup packet length ${length} is invalid`);
    return this.#take(length - 4);
  }

  /** A typed message: its type letter and body. */
  async typed(): Promise<{ type: string; body: Buffer }> {
    const head = await this.#take(5);
    const length = head.readInt32BE(1);
    if (length < 4 || length > 1_000_000) throw new Error(`message length ${length} is invalid`);
    return { type: String.fromCharCode(head[0] as number), body: await this.#take(length - 4) };
  }

  /** Stops reading; returns what arrived beyond the last message read. */
  detach(): Buffer {
    this.#socket.off("data", this.#onData);
    this.#socket.off("close", this.#onClose);
    const rest = this.#buffer;
    this.#buffer = Buffer.alloc(0);
    return rest;
  }

  async #fill(n: number): Promise<void> {
    while (this.#buffer.length < n) {
      if (this.#closed) throw new Error("connection closed during startup");
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  async #take(n: number): Promise<Buffer> {
    await this.#fill(n);
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }
}

/** The code and parameters of a startup packet body. */
export function parseStartup(body: Buffer): { code: number; params: Map<string, string> } {
  const code = body.readInt32BE(0);
  const params = new Map<string, string>();
  if (code === PROTOCOL_3 || code >> 16 === 3) {
    const parts = body.subarray(4).toString("utf8").split("\0");
    for (let i = 0; i + 1 < parts.length && parts[i] !== ""; i += 2) {
      params.set(parts[i] as string, parts[i + 1] as string);
    }
  }
  return { code, params };
}

/** A typed message from its letter and body. */
export function typed(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstring = (value: string) => Buffer.from(`${value}\0`, "utf8");

/** A StartupMessage (protocol 3.0) with the given parameters. */
export function startupMessage(params: Map<string, string>): Buffer {
  const fields = [...params].flatMap(([k, v]) => [cstring(k), cstring(v)]);
  const body = Buffer.concat([Buffer.alloc(4), ...fields, Buffer.from([0])]);
  body.writeInt32BE(PROTOCOL_3, 0);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4, 0);
  return Buffer.concat([length, body]);
}

/** AuthenticationCleartextPassword: the server asks for the password as it is. */
export function cleartextPasswordRequest(): Buffer {
  const body = Buffer.alloc(4);
  body.writeInt32BE(3, 0);
  return typed("R", body);
}

/** The authentication request code of an `R` message body (0 ok, 3 cleartext, 10 SASL...). */
export function authCode(body: Buffer): number {
  return body.readInt32BE(0);
}

/** A PasswordMessage. */
export function passwordMessage(password: string): Buffer {
  return typed("p", cstring(password));
}

/** The password of a PasswordMessage body. */
export function passwordOf(body: Buffer): string {
  const end = body.indexOf(0);
  return body.subarray(0, end < 0 ? body.length : end).toString("utf8");
}

/** An ErrorResponse of a severity (`FATAL`, `ERROR`) with a SQLSTATE code. */
export function errorResponse(severity: "FATAL" | "ERROR", sqlstate: string, message: string): Buffer {
  return typed(
    "E",
    Buffer.concat([
      cstring(`S${severity}`),
      cstring(`V${severity}`),
      cstring(`C${sqlstate}`),
      cstring(`M${message}`),
      Buffer.from([0]),
    ]),
  );
}

/** A FATAL ErrorResponse with a SQLSTATE code, as Postgres sends before closing. */
export function fatalError(sqlstate: string, message: string): Buffer {
  return errorResponse("FATAL", sqlstate, message);
}

/** The message of an ErrorResponse body. */
export function errorMessageOf(body: Buffer): string {
  for (const field of body.toString("utf8").split("\0")) if (field.startsWith("M")) return field.slice(1);
  return "unknown error";
}
