/**
 * A ttl in seconds, free of zod: the Branch's inputs (`expiry.ts`) and a `PreviewEnvironment`'s
 * preview checks, in the program's process, read it alike.
 */

/** The furthest ahead the service accepts an expiry, in seconds (its documentation: 30 days). */
export const MAX_EXPIRY_SECONDS = 30 * 86_400;

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** Seconds of a ttl: `"7d"`, `"12h"`, `"1d12h"`, `"90m"`, `"3600"`, `3600`; undefined when it is none of those. */
export function ttlSeconds(ttl: unknown): number | undefined {
  if (typeof ttl === "number") return Number.isFinite(ttl) ? ttl : undefined;
  if (typeof ttl !== "string") return undefined;
  const text = ttl.trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+[smhdw])+$/.test(text)) return undefined;
  let total = 0;
  for (const [, count, unit] of text.matchAll(/(\d+)([smhdw])/g)) {
    total += Number(count) * (UNIT_SECONDS[unit ?? ""] ?? Number.NaN);
  }
  return total;
}
