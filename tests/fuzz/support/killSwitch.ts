// A run's way to the emulator, and its kill -9: every request of one engine run goes through its
// own proxy. Killed after the k-th request that may change something, the proxy lets the API act on
// that request, drops its answer and refuses every later request (the listener is closed), so
// nothing the killed run still had in flight reaches the API afterwards, as with a killed process.
import { startForwarding } from "../../support/forward";

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
  const { server, port } = await startForwarding(upstream, {
    send(req) {
      if (dead) req.socket.destroy();
      return !dead;
    },
    answer(req, res, answer) {
      const isWrite = req.method !== "GET" && req.method !== "HEAD";
      if (isWrite) writes += 1;
      if (dead || (isWrite && killAfterWrite !== undefined && writes >= killAfterWrite)) {
        kill();
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    },
  });
  const kill = () => {
    if (dead) return;
    dead = true;
    server.close();
    server.closeAllConnections();
    die();
  };
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
