import { connect, createServer, type Server } from "node:net";
import type { Duplex } from "node:stream";
import {
  authCode,
  CANCEL_REQUEST,
  cleartextPasswordRequest,
  fatalError,
  GSSENC_REQUEST,
  MessageReader,
  parseStartup,
  passwordMessage,
  passwordOf,
  SSL_REQUEST,
  startupMessage,
  typed,
} from "./wire";

// One compute endpoint's front door: a direct and a pooled listener on loopback ports of their
// own. A client speaks to it as to Postgres; the proxy asks for the password in clear (loopback
// only, no TLS), checks it against the emulator's state for the endpoint's branch, then opens the
// branch's copy of the database on the one Postgres server and copies bytes both ways. A session
// runs over any byte stream: a TCP socket of the listeners, or a WebSocket's (`websocket.ts`).

/** A refused login: the SQLSTATE and message the client sees. */
export interface Refusal {
  sqlstate: string;
  message: string;
}

/** What the proxies ask the data plane. */
export interface ProxyTarget {
  /** Brings Postgres up to the emulator's state, so a connection sees what the API last answered. */
  sync(): Promise<void>;
  /** The physical database a login from `address` opens, or why it is refused. */
  admit(
    endpointId: string,
    user: string,
    database: string,
    password: string,
    address: string,
  ): { database: string } | Refusal;
  /** Marks a physical database in use by a session; the function returned ends that use. */
  inUse(database: string): () => void;
  /** Postgres's port and the password every API role has inside it. */
  upstream(): { port: number; password: string };
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
   * TCP connection; it counts among the endpoint's sessions.
   */
  accept(stream: Duplex, address: string): void {
    this.#sessions.add(stream);
    stream.once("close", () => this.#sessions.delete(stream));
    stream.on("error", () => stream.destroy());
    serve(stream, address, this.#endpointId, this.#target, this.#sessions).catch(() => stream.destroy());
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

/** One client connection from `address`: startup, password, then a byte pipe to the branch's database. */
async function serve(
  socket: Duplex,
  address: string,
  endpointId: string,
  target: ProxyTarget,
  sessions: Set<Duplex>,
) {
  const client = new MessageReader(socket);
  let packet = await client.untyped();
  let startup = parseStartup(packet);
  // No TLS on loopback: answer "N" to SSL and GSS encryption requests, then read the real startup.
  while (startup.code === SSL_REQUEST || startup.code === GSSENC_REQUEST) {
    socket.write("N");
    packet = await client.untyped();
    startup = parseStartup(packet);
  }
  const { port, password: upstreamPassword } = target.upstream();
  if (startup.code === CANCEL_REQUEST) {
    // The key in a cancel request is Postgres's own (from BackendKeyData): pass it on as it is.
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
  const user = startup.params.get("user") ?? "";
  const database = startup.params.get("database") || user;
  socket.write(cleartextPasswordRequest());
  const answer = await client.typed();
  if (answer.type !== "p") {
    socket.destroy();
    return;
  }
  await target.sync();
  const admitted = target.admit(endpointId, user, database, passwordOf(answer.body), address);
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
    upstream.write(passwordMessage(upstreamPassword));
  } else {
    // An error (no such database, too many connections): the client sees Postgres's own words.
    socket.end(typed(first.type, first.body));
    upstream.destroy();
    return;
  }
  socket.write(server.detach());
  const early = client.detach();
  if (early.length > 0) upstream.write(early);
  socket.pipe(upstream);
  upstream.pipe(socket);
}
