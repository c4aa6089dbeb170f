/**
 * gRPC for a service whose every method is unary, as Pulumi's `ResourceProvider` is. The engine
 * sends a preview's `Check` and `Diff` one resource after the other and waits for each answer, so
 * what a call costs beyond its handler is paid once per resource: `@grpc/grpc-js`'s server runs
 * each call through its interceptor chain, metadata objects and stream wrappers, and `node:http2`
 * under it makes a stream object per call (bench 18). A unary call is one length-prefixed message
 * each way and a status in the trailers, which is all this does, over the HTTP/2 connection layer
 * of `h2.ts`, with the service definitions and handlers grpc-js takes.
 */
import type * as net from "node:net";
import { createH2Server, type H2Call } from "./h2";
import type { HeaderField } from "./hpack";

/** A method of a service definition as `@grpc/grpc-js` takes it (the generated `*_grpc_pb` stubs). */
export interface UnaryMethod {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: unknown): Buffer | Uint8Array;
}

/** A call's error as grpc-js handlers give it: a status code, its message, and metadata for the trailers. */
export interface CallError {
  code?: number;
  details?: string;
  message?: string;
  metadata?: { getMap(): Record<string, string | Buffer> };
}

/** A unary handler as grpc-js takes it. */
export type UnaryHandler = (
  call: { request: unknown },
  callback: (error: CallError | null, value?: unknown) => void,
) => void;

const UNKNOWN = 2;
const INTERNAL = 13;
const UNIMPLEMENTED = 12;

/**
 * A status message as gRPC sends it in `grpc-message`: percent-encoded outside printable ASCII
 * (and `%` itself), as UTF-8.
 */
function percentEncoded(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The trailers of a call that failed with `error`: its status, message and metadata (`-bin` keys base64). */
function errorTrailers(error: CallError): HeaderField[] {
  const trailers: HeaderField[] = [];
  for (const [key, value] of Object.entries(error.metadata?.getMap() ?? {})) {
    trailers.push([key, key.endsWith("-bin") ? Buffer.from(value).toString("base64") : String(value)]);
  }
  trailers.push(["grpc-status", String(error.code ?? UNKNOWN)]);
  trailers.push(["grpc-message", percentEncoded(error.details ?? error.message ?? "")]);
  return trailers;
}

const RESPONSE_HEADERS: readonly HeaderField[] = [["content-type", "application/grpc"]];
const OK: readonly HeaderField[] = [["grpc-status", "0"]];

/** The one message of a unary request's body, or why there is none. */
function requestMessage(body: Buffer): Buffer | string {
  if (body.length < 5) return "the request has no message";
  if (body[0] !== 0) return "compressed messages are not accepted";
  const length = body[1]! * 2 ** 24 + ((body[2]! << 16) | (body[3]! << 8) | body[4]!);
  if (body.length !== 5 + length) return "the request holds other than one message";
  return body.subarray(5);
}

/** Answers one call: the method's handler on its message, its result or error as gRPC frames it. */
function onCall(
  methods: ReadonlyMap<string, { method: UnaryMethod; handler: UnaryHandler }>,
  call: H2Call,
): void {
  const answer = (error: CallError | null, message?: Buffer | Uint8Array) => {
    let framed: Buffer | undefined;
    if (message !== undefined) {
      const length = message.length;
      framed = Buffer.allocUnsafe(5 + length);
      framed[0] = 0;
      framed[1] = length >>> 24;
      framed[2] = (length >>> 16) & 0xff;
      framed[3] = (length >>> 8) & 0xff;
      framed[4] = length & 0xff;
      framed.set(message, 5);
    }
    call.respond(RESPONSE_HEADERS, framed, error === null ? OK : errorTrailers(error));
  };
  const served = methods.get(call.headers.get(":path") ?? "");
  if (served === undefined) {
    answer({ code: UNIMPLEMENTED, details: `the method ${call.headers.get(":path")} is not served` });
    return;
  }
  const body = requestMessage(call.body);
  if (typeof body === "string") {
    answer({ code: INTERNAL, details: body });
    return;
  }
  let request: unknown;
  try {
    request = served.method.requestDeserialize(body);
  } catch (err) {
    answer({ code: INTERNAL, details: `the request could not be read: ${(err as Error).message}` });
    return;
  }
  const respond = (error: CallError | null, value?: unknown) => {
    if (error !== null) {
      answer(error);
      return;
    }
    let message: Buffer | Uint8Array;
    try {
      message = served.method.responseSerialize(value);
    } catch (err) {
      answer({ code: INTERNAL, details: `the response could not be written: ${(err as Error).message}` });
      return;
    }
    answer(null, message);
  };
  try {
    served.handler({ request }, respond);
  } catch (err) {
    respond({ code: UNKNOWN, details: (err as Error).message });
  }
}

/**
 * Serves `service`'s methods with `handlers` (keyed as the service definition is) on a free port of
 * 127.0.0.1; resolves to the server and its port. A method without a handler (a streaming one
 * included) answers UNIMPLEMENTED, as grpc-js's server does.
 */
export function serveUnary(
  service: Record<string, UnaryMethod>,
  handlers: Record<string, UnaryHandler>,
): Promise<{ server: net.Server; port: number }> {
  const methods = new Map<string, { method: UnaryMethod; handler: UnaryHandler }>();
  for (const [name, method] of Object.entries(service)) {
    const handler = handlers[name];
    if (handler === undefined) continue;
    if (method.requestStream || method.responseStream)
      throw new Error(`${method.path} streams: serveUnary serves unary methods only`);
    methods.set(method.path, { method, handler });
  }
  const server = createH2Server((call) => onCall(methods, call));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      const address = server.address();
      if (address === null || typeof address === "string") {
        reject(new Error("the server has no TCP port"));
        return;
      }
      resolve({ server, port: address.port });
    });
  });
}
