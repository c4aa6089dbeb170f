import { connect, createServer, type Server } from "node:net";
import type { Duplex } from "node:stream";
import { type SecureContext, TLSSocket } from "node:tls";
import { CommitGate } from "./commits";
import {
  authCode,
  CANCEL_REQUEST,
  cleartextPasswordRequest,
  errorResponse,
  fatalError,
  GSSENC_REQUEST,
  MessageReader,
  parseStartup,
  passwordMessage,
  passwordOf,
  SSL_REQUEST,
  startupMessage,
  TLS_HANDSHAKE,
  typed,
} from "./wire";

// One compute endpoint's front door: a direct and a pooled listener on loopback ports of their
// own. A client speaks to it as to the service: it asks for TLS (or starts it at once), the proxy
// answers with the endpoints' certificate, asks for the password (inside TLS), checks it against
// the emulator's state for the endpoint's branch (or has Postgres check it, for a role made over
// SQL: admission.ts), then opens the branch's copy of the database on the one Postgres server (in
// clear, over loopback) and copies bytes both ways, holding back the end of each transaction that
// may have written until the clock has a reading of the WAL that holds it (commits.ts,
// docs/api-rules.md §9). A login without TLS is refused with the service's words unless the
// emulator allows plain connections (docs/api-rules.md §14). A session runs over any byte stream:
// a TCP socket of the listeners, or a WebSocket's (`websocket.ts`), which carries the session
// without TLS inside it, as the service's WebSocket endpoint does (docs/api-rules.md §15).

/** The service's answer to a login that did not ask for TLS. */
export const INSECURE_CONNECTION = "connection is insecure (try using `sslmode=require`)";
/** The protocol name a client that starts TLS at once must offer (ALPN), as Postgres requires. */
const ALPN = "postgresql";

/** How a session's byte stream reaches the proxy. */
export interface SessionTransport {
  /**
   * The stream's own transport is the secure one (a WebSocket: the service's are `wss://`), so the
   * session offers no TLS inside it (an SSL request is answered "N") and a plain login is let in
   * whatever the emulator's rule for TCP logins. Default false: a TCP connection.
   */
  transportSecure?: boolean;
}

/** A refused login: the SQLSTATE and message the client sees. */
export interface Refusal {
  sqlstate: string;
  message: string;
}

/** An admitted login: the physical database it opens, and the password Postgres is given for it. */
export interface Admitted {
  database: string;
  password: string;
}

/** What the proxies ask the data plane. */
export interface ProxyTarget {
  /** Brings Postgres up to the emulator's state, so a connection sees what the API last answered. */
  sync(): Promise<void>;
  /**
   * The physical database a login from `address` opens and the password to send Postgres for it
   * (the API roles' internal one, or a role made over SQL's own), or why it is refused.
   */
  admit(
    endpointId: string,
    user: string,
    database: string,
    password: string,
    address: string,
  ): Promise<Admitted | Refusal>;
  /**
   * Reads the WAL's position after a commit, before the client is told of it: resolves once the
   * emulator's clock has a reading that holds the commit. Never rejects.
   */
  noteCommit(): Promise<void>;
  /** Marks a physical database in use by a session; the function returned ends that use. */
  inUse(database: string): () => void;
  /** Postgres's port. */
  upstream(): { port: number };
  /** The endpoints' certificate and key, and whether a login without TLS is let in. */
  tls(): { context: SecureContext; allowPlain: boolean };
}

/** The two listeners of one endpoint and their open sessions. */
export class EndpointProxy {
  readonly #servers: Server[] = [];
  readonly #sessions = new Set<Duplex>();
  /** Ports of the direct and pooled listeners. */
  readonly ports = { direct: 0, pooled: 0 };
  readonly #endpointId: string;
  readonly #target: ProxyTarget;

  private constructor(endpointId: string, target: ProxyTarget) {
    this.#endpointId = endpointId;
    this.#target = target;
  }

  /** Opens both listeners on 127.0.0.1, on free ports. */
  static async open(endpointId: string, target: ProxyTarget): Promise<EndpointProxy> {
    const proxy = new EndpointProxy(endpointId, target);
    const [direct, pooled] = await Promise.all([proxy.#listen(), proxy.#listen()]);
    proxy.ports.direct = direct;
    proxy.ports.pooled = pooled;
    return proxy;
  }

  /**
   * Runs one client session over `stream`, a connection from `address`, as the listeners do for a
   * TCP connection (or as a WebSocket's, with `transportSecure`); it counts among the endpoint's
   * sessions.
   */
  accept(stream: Duplex, address: string, transport: SessionTransport = {}): void {
    this.#sessions.add(stream);
    stream.once("close", () => this.#sessions.delete(stream));
    stream.on("error", () => stream.destroy());
    serve(stream, address, transport, this.#endpointId, this.#target, this.#sessions).catch(() =>
      stream.destroy(),
    );
  }

  /** Ends every open session (a suspended compute drops its connections). */
  dropSessions(): void {
    for (const socket of this.#sessions) socket.destroy();
  }

  /** Stops listening and ends every session. */
  async close(): Promise<void> {
    this.dropSessions();
    await Promise.all(this.#servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  #listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer({ noDelay: true }, (socket) =>
        this.accept(socket, socket.remoteAddress ?? ""),
      );
      this.#servers.push(server);
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address !== null ? address.port : 0);
      });
    });
  }
}

/**
 * Wraps an accepted stream in TLS, server side, with `head` (bytes already read from it) handed
 * back first; resolves once the handshake is done. The TLS socket and the accepted stream end together.
 */
function startTls(
  raw: Duplex,
  head: Buffer,
  context: SecureContext,
  sessions: Set<Duplex>,
): Promise<TLSSocket> {
  // Paused, the accepted stream keeps `head` buffered for the TLS socket to read first.
  raw.pause();
  if (head.length > 0) raw.unshift(head);
  const secure = new TLSSocket(raw, { isServer: true, secureContext: context, ALPNProtocols: [ALPN] });
  sessions.add(secure);
  secure.on("error", () => secure.destroy());
  secure.once("close", () => {
    sessions.delete(secure);
    raw.destroy();
  });
  raw.once("close", () => secure.destroy());
  return new Promise((resolve, reject) => {
    secure.once("secure", () => resolve(secure));
    secure.once("close", () => reject(new Error("connection closed during the TLS handshake")));
  });
}

/**
 * One client connection from `address`: TLS (unless its transport is secure), startup, password,
 * then a byte pipe to the branch's database.
 */
async function serve(
  raw: Duplex,
  address: string,
  transport: SessionTransport,
  endpointId: string,
  target: ProxyTarget,
  sessions: Set<Duplex>,
) {
  const transportSecure = transport.transportSecure ?? false;
  const tls = target.tls();
  let socket: Duplex = raw;
  let client = new MessageReader(raw);
  // Whether this proxy negotiated TLS on the stream.
  let encrypted = false;
  if ((await client.peek()) === TLS_HANDSHAKE) {
    if (transportSecure) {
      // The service takes it for a protocol violation: it has no TLS to offer there.
      raw.end(fatalError("08P01", "TLS is not offered inside a WebSocket"));
      return;
    }
    const direct = await startTls(raw, client.detach(), tls.context, sessions);
    if (direct.alpnProtocol !== ALPN) {
      direct.end(
        fatalError(
          "08P01",
          "received direct SSL connection request without ALPN protocol negotiation extension",
        ),
      );
      return;
    }
    socket = direct;
    client = new MessageReader(direct);
    encrypted = true;
  }
  let packet = await client.untyped();
  let startup = parseStartup(packet);
  while (startup.code === SSL_REQUEST || startup.code === GSSENC_REQUEST) {
    if (encrypted) {
      socket.end(fatalError("08P01", "encryption requested again inside an encrypted connection"));
      return;
    }
    if (startup.code === GSSENC_REQUEST || transportSecure) {
      // No GSSAPI encryption, as the service; and no TLS inside a WebSocket, as the service's
      // WebSocket endpoint: the client asks for TLS next, or starts in clear.
      socket.write("N");
    } else {
      // Bytes sent before the answer would pass for bytes sent over TLS: refused, as Postgres does.
      if (client.detach().length > 0) {
        raw.end(fatalError("08P01", "received unencrypted data after SSL request"));
        return;
      }
      raw.write("S");
      socket = await startTls(raw, Buffer.alloc(0), tls.context, sessions);
      client = new MessageReader(socket);
      encrypted = true;
    }
    packet = await client.untyped();
    startup = parseStartup(packet);
  }
  const { port } = target.upstream();
  if (startup.code === CANCEL_REQUEST) {
    // Clients send cancel requests on a connection of their own, in clear or over TLS. The key in
    // one is Postgres's own (from BackendKeyData): pass it on as it is.
    const length = Buffer.alloc(4);
    length.writeInt32BE(packet.length + 4, 0);
    const cancel = connect(port, "127.0.0.1", () => cancel.end(Buffer.concat([length, packet])));
    cancel.on("error", () => cancel.destroy());
    socket.destroy();
    return;
  }
  if (startup.code >> 16 !== 3) {
    socket.end(
      fatalError("08P01", `unsupported frontend protocol ${startup.code >> 16}.${startup.code & 0xffff}`),
    );
    return;
  }
  if (!encrypted && !transportSecure && !tls.allowPlain) {
    // The service's own answer: an ERROR with the internal-error SQLSTATE, then the connection ends.
    socket.end(errorResponse("ERROR", "XX000", INSECURE_CONNECTION));
    return;
  }
  const user = startup.params.get("user") ?? "";
  const database = startup.params.get("database") || user;
  socket.write(cleartextPasswordRequest());
  const answer = await client.typed();
  if (answer.type !== "p") {
    socket.destroy();
    return;
  }
  await target.sync();
  const admitted = await target.admit(endpointId, user, database, passwordOf(answer.body), address);
  if ("sqlstate" in admitted) {
    socket.end(fatalError(admitted.sqlstate, admitted.message));
    return;
  }
  socket.once("close", target.inUse(admitted.database));
  const params = new Map([...startup.params].filter(([key]) => !key.startsWith("_pq_.")));
  params.set("user", user);
  params.set("database", admitted.database);
  // Bytes go on at once: a client that writes a query's messages one by one (the serverless driver
  // over WebSocket) would otherwise wait for Postgres's delayed acknowledgement (Nagle's algorithm).
  const upstream = connect({ port, host: "127.0.0.1", noDelay: true });
  sessions.add(upstream);
  upstream.once("close", () => {
    sessions.delete(upstream);
    socket.destroy();
  });
  socket.once("close", () => upstream.destroy());
  upstream.on("error", () => upstream.destroy());
  upstream.write(startupMessage(params));
  const server = new MessageReader(upstream);
  const first = await server.typed();
  if (first.type === "R" && authCode(first.body) === 3) {
    upstream.write(passwordMessage(admitted.password));
  } else {
    // An error (no such database, too many connections): the client sees Postgres's own words.
    socket.end(typed(first.type, first.body));
    upstream.destroy();
    return;
  }
  // The client learns of each commit only once the clock has a reading that holds it.
  const gate = new CommitGate(() => target.noteCommit());
  gate.write(server.detach());
  const early = client.detach();
  if (early.length > 0) upstream.write(early);
  socket.pipe(upstream);
  upstream.pipe(gate).pipe(socket);
}
