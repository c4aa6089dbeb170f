/**
 * Resolution of the API key and API URL: explicit values first (stack config passed in by the
 * provider's `configure()`), else `CLOUDDB_API_KEY` / `CLOUDDB_API_URL` read at call time.
 */
import { ConfigError } from "./errors";

/** The API URL used when neither `clouddb:apiUrl` nor `CLOUDDB_API_URL` is set. */
export const DEFAULT_API_URL = "https://console.neon.tech/api/v2";
/** Environment variable holding the API key. */
export const API_KEY_ENV = "CLOUDDB_API_KEY";
/** Environment variable holding the API URL. */
export const API_URL_ENV = "CLOUDDB_API_URL";

/** What `resolveConfig` takes: explicit values win over the environment; empty strings count as unset. */
export interface ConfigInput {
  apiKey?: string | undefined;
  apiUrl?: string | undefined;
}

/** A usable pair: a trimmed key and a normalised URL ending in `/api/v2` (no trailing slash). */
export interface ResolvedConfig {
  apiKey: string;
  apiUrl: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Check and normalise an API URL; throws `ConfigError` unless it is http(s) and ends in `/api/v2`. */
export function normalizeApiUrl(raw: string): string {
  const fix = `Set clouddb:apiUrl (pulumi config set clouddb:apiUrl <url>) or ${API_URL_ENV} to a URL ending in /api/v2, e.g. ${DEFAULT_API_URL}.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`The API URL is not a valid URL. ${fix}`);
  }
  if (url.username || url.password) {
    // Never echo credentials embedded in a URL.
    throw new ConfigError(
      `The API URL must not contain credentials; pass the key as the API key instead. ${fix}`,
    );
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError(`The API URL "${shown}" must use http or https. ${fix}`);
  }
  if (url.search || url.hash) {
    throw new ConfigError(`The API URL "${shown}" must not have a query string or fragment. ${fix}`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (!path.endsWith("/api/v2")) {
    throw new ConfigError(`The API URL "${shown}" does not end in /api/v2. ${fix}`);
  }
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * Resolve key and URL from explicit values, else the environment (read now, not at import).
 * Throws `ConfigError` when no key is set or the URL is unusable; the message never echoes the key.
 */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const apiKey = nonEmpty(input.apiKey) ?? nonEmpty(env[API_KEY_ENV]);
  if (apiKey === undefined) {
    throw new ConfigError(
      `No API key for the Cloud Database API. Set one with \`pulumi config set --secret clouddb:apiKey <key>\` or the ${API_KEY_ENV} environment variable.`,
    );
  }
  // A Bearer token is printable ASCII without spaces; refuse anything else without echoing the key.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(
      `The API key contains spaces, control or non-ASCII characters. Set it again with \`pulumi config set --secret clouddb:apiKey <key>\` or ${API_KEY_ENV}.`,
    );
  }
  const apiUrl = normalizeApiUrl(nonEmpty(input.apiUrl) ?? nonEmpty(env[API_URL_ENV]) ?? DEFAULT_API_URL);
  return { apiKey, apiUrl };
}

/** Environment variable naming the shared limiter's server; unset means no shared limiter. */
export const LIMITER_URL_ENV = "CLOUDDB_LIMITER_URL";
/** Environment variable naming the account budget several keys share on the limiter server. */
export const LIMITER_ACCOUNT_ENV = "CLOUDDB_LIMITER_ACCOUNT";

/** The shared limiter to use, if any: its server URL and, optionally, a budget name shared by several keys. */
export interface LimiterConfig {
  url: string;
  account: string | undefined;
}

/**
 * The shared limiter from explicit values, else the environment; undefined when none is set.
 * Throws `ConfigError` for a URL that is not `redis://` or `rediss://` (never echoing a password).
 */
export function resolveLimiter(
  input: { limiterUrl?: string | undefined; limiterAccount?: string | undefined } = {},
  env: NodeJS.ProcessEnv = process.env,
): LimiterConfig | undefined {
  const raw = nonEmpty(input.limiterUrl) ?? nonEmpty(env[LIMITER_URL_ENV]);
  if (raw === undefined) return undefined;
  const fix = `Set clouddb:limiterUrl or ${LIMITER_URL_ENV} to the Redis or Valkey server every pipeline of the account shares, e.g. redis://limiter.internal:6379, or unset it.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`The shared limiter URL is not a valid URL. ${fix}`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigError(
      `The shared limiter URL must start with redis:// or rediss://, not ${url.protocol}//. ${fix}`,
    );
  }
  return { url: raw, account: nonEmpty(input.limiterAccount) ?? nonEmpty(env[LIMITER_ACCOUNT_ENV]) };
}
