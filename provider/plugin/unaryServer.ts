/**
 * gRPC over `node:http2` for a service whose every method is unary, as Pulumi's `ResourceProvider`
 * is. The engine sends a preview's `Check` and `Diff` one resource after the other and waits for
 * each answer, so what a call costs beyond its handler is paid once per resource: `@grpc/grpc-js`'s
 * server runs each call through its interceptor chain, metadata objects and stream wrappers, about
 * a third of the plugin's work per call in a no-change preview (bench 18). A unary call is one
 * length-prefixed message each way and a status in the trailers, which is all this does, with the
 * service definitions and handlers grpc-js takes.
 */
import * as http2 from "node:http2";

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
function errorTrailers(error: CallError): http2.OutgoingHttpHeaders {
  const trailers: http2.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(error.metadata?.getMap() ?? {})) {
    trailers[key] = key.endsWith("-bin") ? Buffer.from(value).toString("base64") : String(value);
  }
  trailers["grpc-status"] = String(error.code ?? UNKNOWN);
  trailers["grpc-message"] = percentEncoded(error.details ?? error.message ?? "");
  return trailers;
}

/** The one message of a unary request's body, or why there is none. */
function requestMessage(body: Buffer): Buffer | string {
  if (body.length < 5) return "the request has no message";
  if (body[0] !== 0) return "compressed messages are not accepted";
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) return "the request holds other than one message";
  return body.subarray(5);
}

/** Answers one stream: the method's handler on its message, its result or error as gRPC frames it. */
function onStream(
  methods: ReadonlyMap<string, { method: UnaryMethod; handler: UnaryHandler }>,
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
): void {
  // A stream the engine resets (it stopped waiting) must not end the process.
  stream.on("error", () => undefined);
  const answer = (error: CallError | null, message?: Buffer | Uint8Array) => {
    if (stream.destroyed || stream.closed) return;
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.once("wantTrailers", () => {
      stream.sendTrailers(error === null ? { "grpc-status": "0" } : errorTrailers(error));
    });
    if (message === undefined) {
      stream.end();
      return;
    }
    const framed = Buffer.allocUnsafe(5 + message.length);
    framed[0] = 0;
    framed.writeUInt32BE(message.length, 1);
    framed.set(message, 5);
    stream.end(framed);
  };
  const served = methods.get(String(headers[":path"]));
  if (served === undefined) {
    stream.resume();
    answer({ code: UNIMPLEMENTED, details: `the method ${headers[":path"]} is not served` });
    return;
  }
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.on("end", () => {
    const body = requestMessage(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
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
  });
}

/**
 * Serves `service`'s methods with `handlers` (keyed as the service definition is) on a free port of
 * 127.0.0.1; resolves to the server and its port. A method without a handler (a streaming one
 * included) answers UNIMPLEMENTED, as grpc-js's server does.
 */
export function serveUnary(
  service: Record<string, UnaryMethod>,
  handlers: Record<string, UnaryHandler>,
): Promise<{ server: http2.Http2Server; port: number }> {
  const methods = new Map<string, { method: UnaryMethod; handler: UnaryHandler }>();
  for (const [name, method] of Object.entries(service)) {
    const handler = handlers[name];
    if (handler === undefined) continue;
    if (method.requestStream || method.responseStream)
      throw new Error(`${method.path} streams: serveUnary serves unary methods only`);
    methods.set(method.path, { method, handler });
  }
  const server = http2.createServer({
    // The engine sends whole states in one message and may keep many calls open at once.
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
    maxSendHeaderBlockLength: 1 << 24,
    settings: { maxHeaderListSize: 1 << 24 },
  });
  server.on("stream", (stream, headers) => onStream(methods, stream, headers));
  server.on("sessionError", () => undefined);
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
