import type { EmulatorContext } from "../context";
import { badRequest, HttpError, notFound } from "../errors";
import type { BranchRecord, CustomDomainRecord } from "../records";
import { holdOnBranch } from "./branch-data";

// Custom domains on a branch (docs/api-rules.md §25): a domain name routed to an entity of the
// branch, today only a function (by its slug). A domain belongs to one entity across the whole
// service: registering it for another is a conflict, for the same one changes nothing.

declare module "../records" {
  interface BranchData {
    /** The custom domains registered on the branch. */
    custom_domains?: CustomDomainRecord[];
  }
}

// A domain is registered on one branch: a child starts without any; a branch preserved by a restore keeps a copy.
holdOnBranch({ field: "custom_domains", toChild: false, preserved: true });

/** The entity types a domain may target. */
const ENTITY_TYPES = new Set(["function"]);

/** A host name: dot-separated labels of letters, digits and inner hyphens, with at least two labels. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The domain as the service keeps it (lowercase, no trailing dot); 400 when it is no host name. */
export function normalizeDomain(domain: string): string {
  const normal = domain.trim().toLowerCase().replace(/\.$/, "");
  if (!HOST.test(normal))
    throw badRequest(`domain ${JSON.stringify(domain)} is not a host name such as app.example.com`);
  return normal;
}

/** Registers `domain` for the entity on the branch; the same registration again is a no-op. */
export function registerDomain(
  ctx: EmulatorContext,
  branch: BranchRecord,
  fields: { domain: string; entity_type: string; entity_id: string },
): CustomDomainRecord {
  if (!ENTITY_TYPES.has(fields.entity_type))
    throw badRequest(`entity_type ${JSON.stringify(fields.entity_type)} is not supported: use "function"`);
  if (fields.entity_id.trim() === "") throw badRequest("entity_id must name the target (a function's slug)");
  const domain = normalizeDomain(fields.domain);
  for (const other of ctx.store.branches.values()) {
    // A deleted branch (or one of a deleted project) routes nothing: its domains are free.
    if (
      other.deleted_at_ms !== undefined ||
      ctx.store.projects.get(other.project_id)?.deleted_at_ms !== undefined
    )
      continue;
    const held = other.custom_domains?.find((d) => d.domain === domain);
    if (!held) continue;
    if (other === branch && held.entity_type === fields.entity_type && held.entity_id === fields.entity_id)
      return held;
    throw new HttpError(409, `domain ${domain} is already registered to another resource`);
  }
  const record: CustomDomainRecord = {
    domain,
    entity_type: fields.entity_type,
    entity_id: fields.entity_id,
    created_at_ms: ctx.clock.now(),
  };
  branch.custom_domains ??= [];
  branch.custom_domains.push(record);
  ctx.changed();
  return record;
}

/** Removes `domain` from the branch; 404 when the branch has no such domain. */
export function removeDomain(ctx: EmulatorContext, branch: BranchRecord, domain: string): void {
  const normal = domain.trim().toLowerCase().replace(/\.$/, "");
  const at = branch.custom_domains?.findIndex((d) => d.domain === normal) ?? -1;
  if (at < 0) throw notFound(`custom domain ${domain} not found on branch ${branch.id}`);
  branch.custom_domains?.splice(at, 1);
  ctx.changed();
}
