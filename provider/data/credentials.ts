import { getConfig } from "@pulumi/pulumi/runtime/config";
import type { CloudDbClient } from "../client";
import type { DataSourceOptions } from "./options";

/**
 * A client for data sources. In a Node.js program they run in the program process (dynamic
 * providers cannot serve invokes), with the provider plugin in the plugin, under the settings of
 * the provider they were invoked on. In the program: explicit options, then the stack's `clouddb:apiKey` / `clouddb:apiUrl` (and the shared
 * limiter's `clouddb:limiterUrl` / `clouddb:limiterAccount`), then the environment. Clients share the process-wide throttle.
 */
export function dataSourceClient(opts: DataSourceOptions = {}): CloudDbClient {
  if (opts.apiKey === undefined && opts.apiUrl === undefined) {
    // In the provider plugin, a function runs for the provider instance the program invoked it on.
    const host = require("../resources/host/settings") as typeof import("../resources/host/settings");
    if (host.inProviderScope()) return host.clientFromSettings();
  }
  const apiKey = opts.apiKey ?? stackConfig("clouddb:apiKey");
  const apiUrl = opts.apiUrl ?? stackConfig("clouddb:apiUrl");
  const limiterUrl = stackConfig("clouddb:limiterUrl");
  const limiterAccount = stackConfig("clouddb:limiterAccount");
  // Loaded on the first call: a program that only declares resources never loads the HTTP client.
  const { createClient } = require("../client") as typeof import("../client");
  return createClient({
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(limiterUrl !== undefined ? { limiterUrl } : {}),
    ...(limiterAccount !== undefined ? { limiterAccount } : {}),
  });
}

function stackConfig(key: string): string | undefined {
  // Raw lookup: `new pulumi.Config().get` warns on secrets; outside a Pulumi program this is empty.
  const value = getConfig(key);
  return value === undefined || value === "" ? undefined : value;
}
