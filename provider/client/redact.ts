/**
 * Scrubbing of secrets from text that may reach an error message or a log line.
 *
 * Messages are built from our own words plus server-supplied text (an error `message`, a gateway page).
 * The server could echo a header or a token back, so every server-supplied string goes through here.
 */

const REDACTED = "[REDACTED]";

/** Replace every occurrence of the given secrets, any `Bearer <token>` and any `napi_…` token in `text`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short strings would shred ordinary text; real keys are long.
    if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(/\bBearer\s+[^\s"',;]+/gi, `Bearer ${REDACTED}`)
    .replace(/\bnapi_[A-Za-z0-9]{8,}/g, `napi_${REDACTED}`);
}
