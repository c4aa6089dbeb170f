/**
 * A project's network access inputs (`docs/api-rules.md` §8): an allow-list entry is
 * an IP address, a CIDR block or a `first-last` range, IPv4 or IPv6. Checked at preview, so a typo
 * fails before anything is sent, saying which entry and what the three forms look like.
 */
import { isIP } from "node:net";
import { z } from "zod";

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
  });
