import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as engine from "@pulumi/pulumi/proto/engine_grpc_pb";
import { type LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import * as services from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";

// A provider plugin process started the way the engine starts one, and a gRPC client to it.

const ROOT = path.join(__dirname, "../..");
const MAIN = path.join(ROOT, "provider/plugin/main.ts");

/** The sentinel Pulumi sends for a value not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Whether `value` is a secret as the engine takes one. */
export const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && Object.values(value).includes(SECRET_SIG);

/** Whether `value` is a secret holding a connection string with a password. */
export const isSecretUri = (value: unknown) =>
  isSecret(value) && /^postgresql:\/\/[^:@]+:[^@]+@/.test(String((value as { value?: unknown }).value));

/** The error a call failed with; fails the test when it succeeded. */
export async function rejection(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  return promise.then(
    () => assert.fail("expected the call to fail"),
    (err: grpc.ServiceError) => err,
  );
}

/** A secret as it travels to and from a provider that accepts secrets. */
export const secret = (value: unknown) => ({
  "4dabf18193072939515e22adb298388d": SECRET_SIG,
  value,
});

/** A running plugin: its process, everything it wrote to stdout after the port, a client, and `stop`. */
export interface Plugin {
  readonly process: ChildProcess;
  readonly client: services.ResourceProviderClient;
  /** Lines written to stdout after the port (which the engine hides: lines for the user go to its Log). */
  readonly lines: string[];
  call<Req, Res>(method: string, request: Req): Promise<Res>;
  stop(): Promise<void>;
}

/** The engine's stand-in: its address, the messages the plugins logged to it, and `close`. */
export interface EngineStandIn {
  address: string;
  logs: string[];
  /** The warnings among them, with the resource each is about. */
  warnings: { urn: string; message: string }[];
  close(): Promise<void>;
}

/**
 * A gRPC `Engine` service standing in for the engine at the address the plugin gets: it collects
 * the messages the plugin logs (`logs`), and the plugin's engine watch probes it.
 */
export async function engineStandIn(): Promise<EngineStandIn> {
  const logs: string[] = [];
  const warnings: { urn: string; message: string }[] = [];
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, callback: (err: Partial<grpc.StatusObject>) => void) =>
    callback({ code: grpc.status.UNIMPLEMENTED });
  server.addService(engine.EngineService, {
    log: (call: { request: LogRequest }, callback: (err: null, value: Empty) => void) => {
      logs.push(call.request.getMessage());
      if (call.request.getSeverity() === LogSeverity.WARNING) {
        warnings.push({ urn: call.request.getUrn(), message: call.request.getMessage() });
      }
      callback(null, new Empty());
    },
    getRootResource: unimplemented,
    setRootResource: unimplemented,
    startDebugging: unimplemented,
    requirePulumiVersion: unimplemented,
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    warnings,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

/** The plugin from the sources, run by this Node.js through ts-node. */
const FROM_SOURCES: readonly string[] = [process.execPath, "-r", "ts-node/register/transpile-only", MAIN];

/**
 * Starts the plugin (from the sources, or the `command` given, e.g. a built binary) with the
 * engine's address as its argument and no `CLOUDDB_` credentials in its environment (only
 * `Configure` gives it a key), and connects to the port it prints. `env` is laid over the
 * environment (a `PATH` without Node.js, say).
 */
export async function startPlugin(
  engineAddress: string,
  command: readonly string[] = FROM_SOURCES,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Plugin> {
  const env: NodeJS.ProcessEnv = { ...process.env, CLOUDDB_POLL_INTERVAL_MS: "5,20", ...extraEnv };
  for (const key of Object.keys(env))
    if (key.startsWith("CLOUDDB_") && key !== "CLOUDDB_POLL_INTERVAL_MS") delete env[key];
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, [...args, engineAddress], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = "";
    let first: number | undefined;
    child.stdout?.on("data", (chunk) => {
      buffered += chunk;
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const line of parts) {
        if (first === undefined) {
          first = Number(line);
          resolve(first);
        } else lines.push(line);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`the plugin exited with ${code} before printing its port: ${stderr}`)),
    );
  });
  const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    process: child,
    client,
    lines,
    call: <Req, Res>(method: string, request: Req) =>
      new Promise<Res>((resolve, reject) => {
        type Unary = (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => void;
        const fn = (client as unknown as Record<string, Unary>)[method];
        if (fn === undefined) throw new Error(`the client has no method ${method}`);
        fn.call(client, request, (err, res) => (err === null ? resolve(res) : reject(err)));
      }),
    stop: async () => {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
    },
  };
}

/** A Struct of `props`. */
export const struct = (props: Record<string, unknown>) => Struct.fromJavaScript(props as never);

/** Configures `plugin` as a provider with `args` (an explicit provider's arguments). */
export function configure(plugin: Plugin, args: Record<string, unknown>): Promise<proto.ConfigureResponse> {
  const request = new proto.ConfigureRequest();
  request.setArgs(struct(args));
  request.setAcceptsecrets(true);
  return plugin.call("configure", request);
}

/** A resource request of `type` for the resource `name`, with its URN set. */
export function forResource<T extends { setUrn(urn: string): T; setType(type: string): T }>(
  request: T,
  type: string,
  name: string,
): T {
  return request.setUrn(`urn:pulumi:dev::app::${type}::${name}`).setType(type);
}

export { proto };

/** What {@link usePlugins} starts for a suite, filled in by its `before` hook. */
export interface PluginSuite {
  emulator: RunningEmulator;
  engine: EngineStandIn;
  /** One plugin per key given, in that order, each configured with it. */
  plugins: Plugin[];
}

/**
 * Starts, for the suite it is called in, an emulator (demo seed, `emulator` options), an engine
 * stand-in and one plugin process per key in `keys`, each configured as an explicit provider with
 * that key alone (the plugin gets no key any other way); stops them all after the suite.
 */
export function usePlugins(
  emulatorOptions: Omit<EmulatorOptions, "seed">,
  keys: readonly string[],
): PluginSuite {
  const suite = {} as PluginSuite;
  before(async () => {
    suite.emulator = await startEmulator({ seed: "demo", ...emulatorOptions });
    suite.engine = await engineStandIn();
    suite.plugins = await Promise.all(keys.map(() => startPlugin(suite.engine.address)));
    await Promise.all(
      suite.plugins.map((plugin, i) =>
        configure(plugin, { apiKey: secret(keys[i]), apiUrl: suite.emulator.url }),
      ),
    );
  });
  after(async () => {
    await Promise.all((suite.plugins ?? []).map((plugin) => plugin.stop()));
    await suite.engine?.close();
    await suite.emulator?.stop();
  });
  return suite;
}
