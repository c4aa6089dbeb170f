/**
 * A dynamic-provider process that outlives its engine ends itself.
 *
 * Pulumi starts the provider in a process group of its own, so a CI job killed with `kill -9` on
 * the CLI's group (or a cancelled run whose runner keeps orphans) leaves it behind: idle, holding
 * its memory for good, or worse, spinning. Its stdout and stderr are pipes to the dead engine: the
 * next progress line fails with EPIPE, and Pulumi's host logs that uncaught error to the same
 * broken stderr, which fails again, forever (a core busy and the heap growing by the second).
 *
 * So, in the host only: a write that fails with EPIPE ends the process, and every few seconds a
 * TCP connect to the engine's address (the host's last argument) checks that the engine still
 * listens; a refused connect ends the process. Nothing is left to report to, and the next run
 * finds whatever this one made (see `owner.ts`).
 *
 * This code runs only in a host that got a resource call (Pulumi loads a dynamic provider's code
 * from the resource's `__provider` input). The host Pulumi starts only to answer `CheckConfig` for
 * a program's default provider, while an earlier host from the state does the work, never loads
 * it and is out of its reach: a watched host carries {@link WATCHED_HOST_MARK} in its process
 * title, so a process listing tells the two apart.
 */
import * as net from "node:net";

/** How often the engine's address is probed. */
export const ENGINE_PROBE_MS = 3000;

/** The provider plugin's entry: its launcher, or the module it runs. */
const PLUGIN_MAIN = /[\\/](pulumi-resource-clouddb|provider[\\/]plugin[\\/]main\.[jt]s)$/;

/**
 * Whether this process is a provider host the engine started: Pulumi's dynamic-provider host or
 * this package's provider plugin (and not a program or a test).
 */
export function inProviderHost(): boolean {
  const main = require.main?.filename ?? "";
  return /[\\/]cmd[\\/]dynamic-provider[\\/]/.test(main) || PLUGIN_MAIN.test(main);
}

/** The start of a watched host's process title (`ps`, `/proc/<pid>/cmdline`). */
export const WATCHED_HOST_MARK = "pulumi-clouddb-engine-watch";

/**
 * The engine's address among a host's arguments: the last `host:port` one, since with `--logflow`
 * Pulumi passes its log flags (`--logtostderr -v=9`) before it.
 */
export function engineAddress(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  return argv.findLast((arg) => /^[^-].*:\d+$/.test(arg));
}

/**
 * In the provider host only: watches the engine (see {@link exitWhenEngineGone}) and marks the
 * process title with {@link WATCHED_HOST_MARK} and which host it is. Idempotent.
 */
export function watchEngineInHost(
  host: "dynamic-provider" | "pulumi-resource-clouddb" = "dynamic-provider",
): void {
  if (!inProviderHost() || watching) return;
  const address = engineAddress();
  exitWhenEngineGone(address);
  process.title = `${WATCHED_HOST_MARK} ${host} ${address ?? ""}`.trim();
}

let watching = false;

/**
 * Ends the process (through `exit`) when the engine at `address` (`host:port`) is gone: on EPIPE
 * from stdout or stderr, or when a probe's connect is refused. Idempotent; the probe's timer never
 * keeps the process alive by itself.
 */
export function exitWhenEngineGone(
  address: string | undefined = engineAddress(),
  exit: (code: number) => void = (code) => process.exit(code),
  every = ENGINE_PROBE_MS,
): () => void {
  if (watching) return () => {};
  watching = true;
  const onStreamError = (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") exit(1);
  };
  process.stdout.on("error", onStreamError);
  process.stderr.on("error", onStreamError);
  const match = /^(.+):(\d+)$/.exec(address ?? "");
  const timer =
    match === null
      ? undefined
      : setInterval(() => {
          const socket = net.connect({ host: match[1] as string, port: Number(match[2]) });
          socket.once("connect", () => socket.destroy());
          socket.once("error", (err: NodeJS.ErrnoException) => {
            socket.destroy();
            if (err.code === "ECONNREFUSED") exit(1);
          });
        }, every).unref();
  return () => {
    if (timer !== undefined) clearInterval(timer);
    process.stdout.off("error", onStreamError);
    process.stderr.off("error", onStreamError);
    watching = false;
  };
}
