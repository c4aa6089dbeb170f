import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { answerPreflight, type SqlTarget, serveSql } from "./sql-over-http";
import { WebSocketEndpoint, type WebSocketTarget } from "./websocket";

// The serverless driver's front door: one HTTP listener on a loopback port for every endpoint, as
// the service has one per region, serving SQL over HTTP (`POST /sql`) and the Postgres protocol
// over WebSocket (an upgrade on any path). The connection string (in a header, or the `address`
// of the WebSocket URL) says which endpoint a request is for.

/** What the driver's settings are for this emulator: the values of `neonConfig` to set. */
export interface ServerlessSettings {
  /** `neonConfig.fetchEndpoint`: the URL of SQL over HTTP. */
  fetchEndpoint: string;
  /** `neonConfig.wsProxy`: the WebSocket endpoint, host and path (the driver appends `?address=`). */
  wsProxy: string;
  /** `neonConfig.useSecureWebSocket`: the listener speaks plain `ws://`. */
  useSecureWebSocket: false;
}

/** The HTTP and WebSocket listener of the data plane. */
export class ServerlessListener {
  readonly #server: Server;
  readonly #websockets: WebSocketEndpoint;
  readonly port: number;

  private constructor(server: Server, websockets: WebSocketEndpoint, port: number) {
    this.#server = server;
    this.#websockets = websockets;
    this.port = port;
  }

  /** Listens on 127.0.0.1, on a free port. */
  static async open(target: SqlTarget & WebSocketTarget): Promise<ServerlessListener> {
    const websockets = new WebSocketEndpoint(target);
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://emulator").pathname;
      if (path === "/sql" && request.method === "POST") {
        serveSql(request, response, target).catch(() => response.destroy());
      } else if (path === "/sql" && request.method === "OPTIONS") {
        answerPreflight(response);
      } else {
        // The service's answer to any other request on its HTTP port.
        const text = JSON.stringify("query is not supported");
        response.writeHead(400, { "content-type": "application/json" });
        response.end(text);
      }
    });
    server.on("upgrade", (request, socket: Duplex, head: Buffer) =>
      websockets.upgrade(request, socket, head),
    );
    const port = await new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address !== null ? address.port : 0);
      });
    });
    return new ServerlessListener(server, websockets, port);
  }

  /** The driver's settings that reach this listener. */
  get settings(): ServerlessSettings {
    return {
      fetchEndpoint: `http://127.0.0.1:${this.port}/sql`,
      wsProxy: `127.0.0.1:${this.port}/v2`,
      useSecureWebSocket: false,
    };
  }

  /** Stops listening and closes every open request and WebSocket. */
  async close(): Promise<void> {
    this.#websockets.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
