// A run's way to the emulator, and its kill -9: every request of one engine run goes through its
// own proxy. Killed after the k-th request that may change something, the proxy lets the API act on
// that request, drops its answer and refuses every later request (the listener is closed), so
// nothing the killed run still had in flight reaches the API afterwards, as with a killed process.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** One run's proxy. */
export interface KillSwitch {
  /** The API URL the run uses. */
  readonly url: string;
  /** Resolves when the run is killed. */
  readonly killed: Promise<void>;
  /** Whether the run was killed. */
  readonly dead: boolean;
  /** Writes (non-GET requests) the API received through this proxy. */
  readonly writes: number;
  /** Closes the proxy (the run ended). */
  close(): Promise<void>;
}

/** Starts a run's proxy to the API at `apiUrl`; with `killAfterWrite` = k, the run dies after the k-th write. */
export async function startKillSwitch(apiUrl: string, killAfterWrite?: number): Promise<KillSwitch> {
  const upstream = new URL(apiUrl);
  let dead = false;
  let writes = 0;
  let die!: () => void;
  const killed = new Promise<void>((resolve) => {
    die = resolve;
  });
  const server = http.createServer((req, res) => {
    if (dead) {
      req.socket.destroy();
      return;
    }
    const isWrite = req.method !== "GET" && req.method !== "HEAD";
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (dead) {
        req.socket.destroy();
        return;
      }
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            if (isWrite) writes += 1;
            if (dead || (isWrite && killAfterWrite !== undefined && writes >= killAfterWrite)) {
              kill();
              return;
            }
            const headers = { ...answer.headers };
            delete headers.connection;
            res.writeHead(answer.statusCode ?? 502, headers).end(Buffer.concat(body));
          });
        },
      );
      forward.on("error", () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  const kill = () => {
    if (dead) return;
    dead = true;
    server.close();
    server.closeAllConnections();
    die();
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, "")}`,
    killed,
    get dead() {
      return dead;
    },
    get writes() {
      return writes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dead = true;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
