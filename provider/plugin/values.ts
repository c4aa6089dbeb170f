/**
 * Property values between the engine's wire form and the lifecycle's plain objects.
 *
 * The plugin tells the engine it accepts secrets, so a secret arrives wrapped (an object carrying
 * Pulumi's secret signature and its `value`) and leaves wrapped: the lifecycle works on plain
 * values, as it does in the dynamic provider, and the plugin wraps again every top-level property
 * that was a secret when it came in, and every output the declaration marks secret. Values not
 * known yet (preview) are the same sentinel string in both forms (`lifecycle/check.ts`), so they
 * pass through untouched.
 */

/** The key and value marking a wrapped value's kind, and the kind of a secret. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** `value` with every secret unwrapped, at any depth; `found` is set when there was one. */
function reveal(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return reveal(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => reveal(item, found));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reveal(item, found)]));
  }
  return value;
}

/** The engine's properties as plain values, and the top-level names that held a secret. */
export function unwrap(props: Props | undefined): { plain: Props; secrets: Set<string> } {
  const secrets = new Set<string>();
  const plain: Props = {};
  for (const [key, value] of Object.entries(props ?? {})) {
    const found = { secret: false };
    plain[key] = reveal(value, found);
    if (found.secret) secrets.add(key);
  }
  return { plain, secrets };
}

/** `props` with each property named in `secrets` wrapped as a secret (absent and null ones stay as they are). */
export function wrap(props: Props, secrets: Iterable<string>): Props {
  const wrapped: Props = { ...props };
  for (const key of new Set(secrets)) {
    const value = wrapped[key];
    if (value !== undefined && value !== null) wrapped[key] = { [SIG_KEY]: SECRET_SIG, value };
  }
  return wrapped;
}
