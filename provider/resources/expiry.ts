/**
 * A branch's expiry, given as a timestamp (`expiresAt`) or relative to its creation (`ttl`). A ttl
 * becomes a timestamp once, when the branch is created (or the ttl changes), and that timestamp is
 * kept: the same program previewed a day later asks for no change.
 */
import { z } from "zod";

export { MAX_EXPIRY_SECONDS, ttlSeconds } from "./public/ttl";

import { MAX_EXPIRY_SECONDS, ttlSeconds } from "./public/ttl";

const TTL_FORM = 'ttl is a duration such as "7d", "12h", "1d12h", "30m" or a number of seconds';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Whether two ttl values (either may be absent) stand for the same duration. */
export function sameTtl(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return ttlSeconds(a) === ttlSeconds(b);
}

/** `2025-06-09T18:02:16Z`: the precision the API takes and answers with. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Whether two timestamps (either may be absent) name the same second. */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return (a ?? null) === (b ?? null);
  return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
}

/** Whether `value` is an RFC 3339 timestamp with a time zone. */
export function isTimestamp(value: string): boolean {
  return RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}

/** The `ttl` input: positive, at most 30 days. */
export const TtlInput = z
  .union([z.number(), z.string()], { error: TTL_FORM })
  .superRefine((ttl, ctx) => {
    const seconds = ttlSeconds(ttl);
    if (seconds === undefined)
      ctx.addIssue({ code: "custom", message: `${TTL_FORM}, got ${JSON.stringify(ttl)}` });
    else if (seconds <= 0)
      ctx.addIssue({ code: "custom", message: 'ttl must be longer than zero: give a duration such as "7d"' });
    else if (seconds > MAX_EXPIRY_SECONDS) {
      ctx.addIssue({
        code: "custom",
        message: `ttl ${JSON.stringify(ttl)} is more than 30 days; the service expires branches at most 30 days ahead: shorten it`,
      });
    }
  })
  .optional();

/**
 * An `expiresAt` input of `nouns` the service expires (branches, snapshots): an RFC 3339 timestamp
 * later than now (checked against the clock at preview), and at most `maxSeconds` ahead when the
 * service bounds it. `instead` ends the message of a time in the past: what else to give.
 */
export function expiresAtInput(
  nouns: string,
  { maxSeconds, instead }: { maxSeconds?: number; instead: string },
) {
  return z
    .string({ error: "expiresAt must be an RFC 3339 timestamp such as 2025-06-09T18:02:16Z" })
    .superRefine((value, ctx) => {
      if (!isTimestamp(value)) {
        ctx.addIssue({
          code: "custom",
          message: `expiresAt must be an RFC 3339 timestamp such as 2025-06-09T18:02:16Z, got ${JSON.stringify(value)}`,
        });
        return;
      }
      const now = Date.now();
      const ms = Date.parse(value);
      if (ms <= now) {
        ctx.addIssue({
          code: "custom",
          message: `expiresAt ${value} is in the past (now is ${isoSeconds(now)}): ${instead}`,
        });
      } else if (maxSeconds !== undefined && ms > now + maxSeconds * 1000) {
        ctx.addIssue({
          code: "custom",
          message: `expiresAt ${value} is more than ${maxSeconds / 86_400} days ahead; the service expires ${nouns} at most ${maxSeconds / 86_400} days ahead: set an earlier time`,
        });
      }
    })
    .optional();
}

/** A branch's `expiresAt` input: in the next 30 days. */
export const ExpiresAtInput = expiresAtInput("branches", {
  maxSeconds: MAX_EXPIRY_SECONDS,
  instead:
    'set a later time, or use ttl (e.g. ttl: "7d") for an expiry counted from when the branch is created',
});

/** What the expiry inputs ask for. */
export interface ExpiryInputs {
  expiresAt?: string | undefined;
  ttl?: string | number | undefined;
}

/** What the state recorded: the ttl as declared and the expiry the API reported. */
export interface ExpiryState {
  ttl?: string | number | undefined;
  expiresAt?: string | null | undefined;
}

/**
 * The expiry `wanted` asks for, as the API takes it; null for none. A ttl that stands for the same
 * duration as the recorded one keeps the recorded expiry; otherwise it counts from `now`.
 */
export function wantedExpiry(
  wanted: ExpiryInputs,
  recorded: ExpiryState | undefined,
  now: number,
): string | null {
  if (wanted.expiresAt !== undefined) return isoSeconds(Date.parse(wanted.expiresAt));
  if (wanted.ttl === undefined) return null;
  const kept = recorded?.expiresAt;
  if (typeof kept === "string" && recorded?.ttl !== undefined && sameTtl(wanted.ttl, recorded.ttl))
    return kept;
  return isoSeconds(now + (ttlSeconds(wanted.ttl) ?? 0) * 1000);
}
