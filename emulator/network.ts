/**
 * A project's network access, as the service applies it: the IP allow list
 * (`settings.allowed_ips`: addresses, CIDR blocks and `first-last` ranges, IPv4 or IPv6; optionally
 * on protected branches only) and `settings.block_public_connections`. The routes refuse a list entry
 * that is none of these; the data plane's proxies refuse a connection the settings do not let in.
 */
import { BlockList, isIP } from "node:net";
import { badRequest } from "./errors";
import type { BranchRecord, ProjectRecord } from "./records";

/** The family `BlockList` wants for an address of `isIP` kind 4 or 6. */
const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** Adds `entry` to `list`; false when it is not an address, a CIDR block or a range. */
function addEntry(list: BlockList, entry: string): boolean {
  const text = entry.trim();
  const slash = text.indexOf("/");
  if (slash >= 0) {
    const [address, bits] = [text.slice(0, slash), text.slice(slash + 1)];
    const prefix = Number(bits);
    const kind = isIP(address);
    if (kind === 0 || !/^\d{1,3}$/.test(bits) || prefix > (kind === 4 ? 32 : 128)) return false;
    list.addSubnet(address, prefix, family(address));
    return true;
  }
  const dash = text.indexOf("-");
  if (dash >= 0) {
    const [first, last] = [text.slice(0, dash).trim(), text.slice(dash + 1).trim()];
    if (isIP(first) === 0 || isIP(first) !== isIP(last)) return false;
    try {
      list.addRange(first, last, family(first));
    } catch {
      return false; // the range runs backwards
    }
    return true;
  }
  if (isIP(text) === 0) return false;
  list.addAddress(text, family(text));
  return true;
}

/** Refuses (400) an allow list holding an entry that is not an address, a CIDR block or a range. */
export function checkAllowedIps(settings: Record<string, unknown> | undefined, where: string): void {
  const allowed = settings?.allowed_ips as { ips?: unknown } | undefined;
  const ips = allowed?.ips;
  if (ips === undefined) return;
  if (!Array.isArray(ips)) throw badRequest(`${where}settings.allowed_ips.ips must be a list of strings`);
  const list = new BlockList();
  for (const entry of ips) {
    if (typeof entry !== "string" || !addEntry(list, entry)) {
      throw badRequest(
        `${where}settings.allowed_ips.ips: ${JSON.stringify(entry)} is not an IP address, a CIDR block ` +
          "(203.0.113.0/24) or a range (203.0.113.10-203.0.113.20)",
      );
    }
  }
}

/**
 * Why a connection from `address` to `branch` of `project` is refused by the project's network
 * settings, or undefined when they let it in. Every connection to the emulator comes over the
 * public internet's stand-in (loopback): none is a VPC connection.
 */
export function networkRefusal(
  project: ProjectRecord,
  branch: BranchRecord,
  address: string,
): string | undefined {
  const settings = project.settings ?? {};
  if (settings.block_public_connections === true) {
    return `connections from the public internet to project ${project.id} are blocked (block_public_connections)`;
  }
  const allowed = settings.allowed_ips as { ips?: string[]; protected_branches_only?: boolean } | undefined;
  const ips = allowed?.ips ?? [];
  if (ips.length === 0) return undefined;
  if (allowed?.protected_branches_only === true && branch.protected !== true) return undefined;
  const list = new BlockList();
  for (const entry of ips) addEntry(list, entry);
  const plain = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  if (isIP(plain) !== 0 && list.check(plain, family(plain))) return undefined;
  return `IP address ${plain} is not allowed to connect to project ${project.id}: add it to the project's IP allow list`;
}
