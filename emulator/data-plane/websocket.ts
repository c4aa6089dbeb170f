import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { createWebSocketStream, WebSocketServer } from "ws";
import type { EndpointProxy } from "./proxy";
import { fatalError } from "./wire";

// The Postgres protocol over WebSocket, what the serverless driver's `Pool` and `Client` speak
// (docs/api-rules.md §15): each binary message carries bytes of one Postgres session, which runs
// as a TCP connection to the endpoint's proxy does (startup, the role's password checked against
// the emulator's state and the project's network rules, then bytes both ways), and counts among the
// endpoint's sessions, so a suspend ends it. The endpoint is the one the `address` parameter
// (`host:port`, which the driver's `wsProxy` appends) names, else the Host header's first label,
// as the service reads it.

/** What the WebSocket endpoint asks the data plane. */
export interface WebSocketTarget {
  sync(): Promise<void>;
  /** The endpoint a host and port name, or undefined when none does. */
  endpointAt(host: string, port: number | undefined): string | undefined;
  /** The front door of an endpoint, which runs the session. */
  proxyOf(endpointId: string): EndpointProxy | undefined;
}

/** `host:port` or `[v6]:port` split; the port undefined when absent or not a number. */
export function splitHostPort(value: string): { host: string; port: number | undefined } {
  const match = /^(?:\[([^\]]+)\]|([^:]*))(?::(\d+))?$/.exec(value);
  if (match === null) return { host: value, port: undefined };
  return { host: match[1] ?? match[2] ?? "", port: match[3] === undefined ? undefined : Number(match[3]) };
}

/** Accepts WebSocket upgrades and runs each as a Postgres session of the endpoint it names. */
export class WebSocketEndpoint {
  readonly #server = new WebSocketServer({ noServer: true });
  readonly #target: WebSocketTarget;

  constructor(target: WebSocketTarget) {
    this.#target = target;
  }

  /** Completes an upgrade the HTTP server received, then starts the session. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    this.#server.handleUpgrade(request, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on("error", () => stream.destroy());
      this.#start(request, stream).catch(() => stream.destroy());
    });
  }

  /** Closes every WebSocket still open. */
  close(): void {
    for (const ws of this.#server.clients) ws.terminate();
    this.#server.close();
  }

  async #start(request: IncomingMessage, stream: Duplex): Promise<void> {
    const address = new URL(request.url ?? "/", "http://emulator").searchParams.get("address");
    const named = splitHostPort(address ?? request.headers.host ?? "");
    // Endpoints and their proxies follow the state once the data plane has caught up with it.
    await this.#target.sync();
    const endpointId = this.#target.endpointAt(named.host, named.port);
    const proxy = endpointId === undefined ? undefined : this.#target.proxyOf(endpointId);
    if (proxy === undefined) {
      stream.end(
        fatalError(
          "08004",
          address === null
            ? "the WebSocket URL names no endpoint: add ?address=HOST:PORT, the connection string's host and port"
            : `no endpoint of the emulator is at ${address}: use a connection string the API returned`,
        ),
      );
      return;
    }
    // The service asks for no TLS inside a WebSocket (the driver sends none by default): the
    // session is let in without it, whatever the rule for TCP logins.
    proxy.accept(stream, request.socket.remoteAddress ?? "", { transportSecure: true });
  }
}
