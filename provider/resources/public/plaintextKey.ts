/**
 * A warning, once per program run, when the stack keeps `clouddb:apiKey` in plain text: set without
 * `--secret`, the key is written unencrypted to `Pulumi.<stack>.yaml`, which is usually committed.
 * Runs in the program's process, where the Pulumi CLI lists the secret config keys in
 * `PULUMI_CONFIG_SECRET_KEYS` (`[]` when there are none; absent when the CLI does not say, and then
 * nothing is claimed).
 */
import * as log from "@pulumi/pulumi/log";
import { getConfig } from "@pulumi/pulumi/runtime/config";

const KEY = "clouddb:apiKey";
const WARNED = Symbol.for("pulumi-clouddb.plaintextKeyWarned");
type Holder = { [WARNED]?: boolean };

/** The warning text, or undefined when the key is unset or kept as a secret (or that is unknown). */
export function plaintextKeyWarning(
  value: string | undefined,
  secretKeys: string | undefined,
): string | undefined {
  if (value === undefined || value === "" || secretKeys === undefined) return undefined;
  let secret: unknown;
  try {
    secret = JSON.parse(secretKeys);
  } catch {
    return undefined;
  }
  if (!Array.isArray(secret) || secret.includes(KEY)) return undefined;
  return (
    `${KEY} is stored in plain text in this stack's config file (Pulumi.<stack>.yaml), so anyone who can ` +
    "read the file or its repository has the key: run `pulumi config set --secret clouddb:apiKey <key>` " +
    "to encrypt it, and revoke the exposed key if the file was shared"
  );
}

/** Warns through the engine, once per process, when the stack's `clouddb:apiKey` is not a secret. */
export function warnPlaintextApiKey(): void {
  const holder = globalThis as Holder;
  if (holder[WARNED]) return;
  holder[WARNED] = true;
  const warning = plaintextKeyWarning(getConfig(KEY), process.env.PULUMI_CONFIG_SECRET_KEYS);
  if (warning !== undefined) void log.warn(warning);
}
