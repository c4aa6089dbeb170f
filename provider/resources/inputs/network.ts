/**
 * A project's network access inputs (`docs/api-rules.md` §8): an allow-list entry is
 * an IP address, a CIDR block or a `first-last` range, IPv4 or IPv6. Checked at preview, so a typo
 * fails before anything is sent, saying which entry and what the three forms look like.
 */
import { isIP } from "node:net";
import { z } from "zod";

/** An address as one number, to order two addresses of one family. */
function addressValue(address: string): bigint {
  if (isIP(address) === 4) return address.split(".").reduce((n, part) => n * 256n + BigInt(part), 0n);
  // IPv6: expand `::` to the missing groups, and a trailing IPv4 part to two groups.
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4 !== undefined) {
    const n = addressValue(v4);
    text = `${text.slice(0, -v4.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const missing = 8 - groups(head).length - (tail === undefined ? 0 : groups(tail).length);
  const all = [
    ...groups(head),
    ...(tail === undefined ? [] : Array(missing).fill("0")),
    ...groups(tail ?? ""),
  ];
  return all.reduce((n, group) => n * 65536n + BigInt(`0x${group}`), 0n);
}

/** The first and last address of a `first-last` range entry, trimmed; undefined for another form. */
function rangeEnds(entry: string): [string, string] | undefined {
  if (entry.includes("/")) return undefined;
  const dash = entry.indexOf("-");
  return dash < 0 ? undefined : [entry.slice(0, dash).trim(), entry.slice(dash + 1).trim()];
}

/** Whether `entry` is a `first-last` range whose last address comes before its first. */
export function isReversedRange(entry: string): boolean {
  const ends = rangeEnds(entry);
  if (ends === undefined || isIP(ends[0]) === 0 || isIP(ends[0]) !== isIP(ends[1])) return false;
  return addressValue(ends[0]) > addressValue(ends[1]);
}

/** Whether `entry` is an IP address, a CIDR block or a range of two addresses of one family. */
export function isAllowedIpEntry(entry: string): boolean {
  const slash = entry.indexOf("/");
  if (slash >= 0) {
    const [address, bits] = [entry.slice(0, slash), entry.slice(slash + 1)];
    const kind = isIP(address);
    return kind !== 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128);
  }
  const dash = entry.indexOf("-");
  if (dash >= 0) {
    const [first, last] = [entry.slice(0, dash).trim(), entry.slice(dash + 1).trim()];
    return isIP(first) !== 0 && isIP(first) === isIP(last);
  }
  return isIP(entry) !== 0;
}

/** One entry of `allowedIps`. */
export const AllowedIpInput = z
  .string({ error: "each allowedIps entry must be a string" })
  .refine(isAllowedIpEntry, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not an IP address, a CIDR block (203.0.113.0/24) ` +
      "or a range (203.0.113.10-203.0.113.20)",
  })
  .refine((entry) => !isReversedRange(entry), {
    error: (issue) => {
      const [first, last] = rangeEnds(String(issue.input)) ?? ["", ""];
      return `${JSON.stringify(issue.input)} is a range whose last address comes before its first: write it ${first === "" ? "first-last" : `${last}-${first}`}`;
    },
  });
