import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import type { ClientOptions, CloudDbClient, PollInterval } from "../../client";
import { API_KEY_ENV, normalizeApiUrl, resolveConfig, resolveLimiter } from "../../client/config";
import { ConfigError } from "../../client/errors";
import { CONFIG, type ConfigSettings } from "../public/config";
import { watchEngineInHost } from "./engineWatch";
import { hostProgressListener } from "./progress";

/** Settings a dynamic provider process reads from the stack's `clouddb:` config in `configure()`: those `CONFIG` declares. */
export interface ProviderSettings extends ConfigSettings {}

/** Default bound on waiting for a resource's operations when neither config nor inputs set one. */
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 20 * 60;

const SETTINGS = Symbol.for("pulumi-clouddb.providerSettings");
type Holder = { [SETTINGS]?: ProviderSettings };

/**
 * The settings in a provider's config (`clouddb:apiKey`, ...). Throws a `ConfigError` for a bad
 * timeout.
 */
export function settingsFromConfig(config: Pick<pulumi.dynamic.Config, "get">): ProviderSettings {
  const settings: ProviderSettings = {};
  for (const name of Object.keys(CONFIG) as (keyof typeof CONFIG)[]) {
    const value = config.get(`clouddb:${name}`);
    if (value === undefined || value === "") continue;
    if (name === "operationTimeoutSeconds") settings[name] = positiveSeconds(value);
    else settings[name] = value;
  }
  return settings;
}

/** What makes each setting unusable: a check that throws a `ConfigError` saying why and how to fix it. */
const CHECKS: { readonly [K in keyof typeof CONFIG]?: (value: string) => unknown } = {
  apiKey: (apiKey) => resolveConfig({ apiKey }, {}),
  apiUrl: normalizeApiUrl,
  operationTimeoutSeconds: positiveSeconds,
  limiterUrl: (limiterUrl) => resolveLimiter({ limiterUrl }, {}),
};

/** The settings in a provider's config that cannot be used, each named with why; empty when all can. */
export function configFailures(
  config: Pick<pulumi.dynamic.Config, "get">,
): { property: keyof typeof CONFIG; reason: string }[] {
  const failures: { property: keyof typeof CONFIG; reason: string }[] = [];
  for (const name of Object.keys(CONFIG) as (keyof typeof CONFIG)[]) {
    const value = config.get(`clouddb:${name}`);
    if (value === undefined || value === "") continue;
    try {
      CHECKS[name]?.(value);
    } catch (err) {
      failures.push({ property: name, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return failures;
}

/**
 * Records the stack config for this process (throws a `ConfigError` for a bad timeout). Pulumi calls `configure` once per deserialized
 * provider; the settings live on `globalThis` so every copy of a provider in the process sees them
 * and nothing of them is ever serialized into the state.
 */
export function configureFromStack(config: pulumi.dynamic.Config): void {
  (globalThis as Holder)[SETTINGS] = settingsFromConfig(config);
}

/**
 * The settings of the provider instance a call runs for, when a process serves several (the
 * provider plugin: one explicit provider per account). Shared across module copies like the rest.
 */
const SCOPED = Symbol.for("pulumi-clouddb.scopedProviderSettings");
type ScopedHolder = { [SCOPED]?: AsyncLocalStorage<ProviderSettings> };
function scoped(): AsyncLocalStorage<ProviderSettings> {
  const holder = globalThis as ScopedHolder;
  holder[SCOPED] ??= new AsyncLocalStorage<ProviderSettings>();
  return holder[SCOPED];
}

/** Whether this call runs for one provider instance of several (inside {@link withSettings}). */
export function inProviderScope(): boolean {
  return scoped().getStore() !== undefined;
}

/** Runs `run` with `settings` as the provider settings of everything it calls, in place of the recorded ones. */
export function withSettings<T>(settings: ProviderSettings, run: () => T): T {
  return scoped().run(settings, run);
}

function positiveSeconds(timeout: string): number {
  const seconds = Number(timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigError(
      `clouddb:operationTimeoutSeconds must be a positive number of seconds, got ${JSON.stringify(timeout)}; ` +
        "fix it with `pulumi config set clouddb:operationTimeoutSeconds 600`",
    );
  }
  return seconds;
}

/**
 * A provider's `configure`: records the stack's `clouddb:` config for this process, and in the
 * provider host starts the engine watch. The host configures a provider before any other call to it,
 * so every process that checks, diffs or writes progress lines into the engine's pipes ends with a
 * killed engine.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  watchEngineInHost();
  configureFromStack(req.config);
}

/** The settings of the current `withSettings` scope, else those recorded by `configureFromStack`, or none (then the environment applies). */
export function providerSettings(): ProviderSettings {
  return scoped().getStore() ?? (globalThis as Holder)[SETTINGS] ?? {};
}

/**
 * Environment variable setting how fast operation waits poll: `FIRST` or `FIRST,MAX` in ms (the
 * client's default is 250 ms doubling to 5000 ms). Meant for tests and fast local emulators; read at
 * call time, so nothing of it is serialized into the state.
 */
export const POLL_INTERVAL_ENV = "CLOUDDB_POLL_INTERVAL_MS";

/** The poll interval set by {@link POLL_INTERVAL_ENV}, if any. Throws a `ConfigError` when the value is not `N` or `N,M` (ms > 0). */
export function pollIntervalFromEnv(env: NodeJS.ProcessEnv = process.env): PollInterval | undefined {
  const raw = env[POLL_INTERVAL_ENV]?.trim();
  if (!raw) return undefined;
  const parts = raw.split(",").map((part) => Number(part.trim()));
  const [first, max = first] = parts;
  if (parts.length > 2 || first === undefined || !parts.every((n) => Number.isFinite(n) && n > 0)) {
    throw new ConfigError(
      `${POLL_INTERVAL_ENV} must be FIRST or FIRST,MAX in milliseconds (e.g. 20,100), got ${JSON.stringify(raw)}; ` +
        "fix or unset it",
    );
  }
  return { first, max: Math.max(first, max ?? first) };
}

/**
 * A client from the recorded settings: `extra.apiKey` when given, else stack config first, then
 * `CLOUDDB_API_KEY` / `CLOUDDB_API_URL` read now (and `CLOUDDB_POLL_INTERVAL_MS`, `CLOUDDB_PROJECT_QUEUE=off` when set), each
 * call bounded by `extra.deadline`, else `clouddb:operationTimeoutSeconds`, else the client's default, reporting
 * operation progress in the dynamic-provider host (see `progress.ts`). Throws a configuration
 * error naming both ways when no key is set.
 */
export function clientFromSettings(extra: ClientOptions = {}): CloudDbClient {
  const settings = providerSettings();
  const options: ClientOptions = { ...extra };
  if (options.pollIntervalMs === undefined) {
    const poll = pollIntervalFromEnv();
    if (poll !== undefined) options.pollIntervalMs = poll;
  }
  // Only for measuring what the queue saves (bench/): parallel steps then collide on 423s.
  if (options.queue === undefined && process.env.CLOUDDB_PROJECT_QUEUE === "off") options.queue = false;
  if (options.onEvent === undefined) {
    const progress = hostProgressListener();
    if (progress !== undefined) options.onEvent = progress;
  }
  if (settings.apiKey !== undefined && options.apiKey === undefined) options.apiKey = settings.apiKey;
  if (settings.apiUrl !== undefined) options.apiUrl = settings.apiUrl;
  if (settings.limiterUrl !== undefined) options.limiterUrl = settings.limiterUrl;
  if (settings.limiterAccount !== undefined) options.limiterAccount = settings.limiterAccount;
  // Calls outside a resource step (the preflight reads) are bounded by the stack's timeout too.
  if (options.timeoutMs === undefined && settings.operationTimeoutSeconds !== undefined) {
    options.timeoutMs = settings.operationTimeoutSeconds * 1000;
  }
  // The client (its routes, schemas and transport) loads on the first call that needs one: checking
  // a provider's config, or a resource's inputs and diffs, never does.
  const { createClient } = require("../../client") as typeof import("../../client");
  return createClient(options);
}

/** The epoch-ms deadline for an operation wait: per-resource seconds, else stack config, else default. */
export function deadlineFrom(seconds: number | undefined, now = Date.now()): number {
  const chosen = seconds ?? providerSettings().operationTimeoutSeconds ?? DEFAULT_OPERATION_TIMEOUT_SECONDS;
  return now + chosen * 1000;
}

/**
 * The key in `CLOUDDB_API_KEY` now, when the stack config set another one: the key to try when the
 * configured one is refused (see `currentKey.ts`). Undefined when either is unset or both agree.
 */
export function otherEnvironmentKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = providerSettings().apiKey;
  const fromEnv = env[API_KEY_ENV]?.trim();
  return configured === undefined || !fromEnv || fromEnv === configured ? undefined : fromEnv;
}
