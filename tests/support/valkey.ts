/**
 * A real Valkey server process for tests and benchmarks: the binary from `tools/valkey/install.sh`
 * (fetched once into a cache), started on a free loopback port with persistence off.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../../emulator/free-port";

/** A running server. */
export interface ValkeyServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The server binary: `VALKEY_SERVER` if set, else the cached one (installed on first use). */
export function valkeyBinary(): string {
  const fromEnv = process.env.VALKEY_SERVER?.trim();
  if (fromEnv) return fromEnv;
  const script = join(__dirname, "..", "..", "tools", "valkey", "install.sh");
  return execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** Start a server; resolves once it accepts connections. */
export async function startValkey(): Promise<ValkeyServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    valkeyBinary(),
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--loglevel",
      "warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // Ready when the port answers a PING.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`valkey-server exited at start: ${output}`);
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`valkey-server did not answer within 10 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

async function answersPing(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.setTimeout(500);
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
