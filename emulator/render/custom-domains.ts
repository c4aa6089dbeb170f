import type { BranchAiGateway, CustomDomain } from "@neon/sdk/raw";
import { DEFAULT_REGION } from "../defaults";
import { proxyHost } from "../hosts";
import type { BranchRecord, CustomDomainRecord } from "../records";
import type { Store } from "../state";

// A branch's custom domains and its AI gateway endpoint as the API shows them. No DNS is checked
// offline, so a domain stays `pending` with the CNAME target it must point at.

/** The region host a branch's public services answer under. */
function branchHost(store: Store, branch: BranchRecord): string {
  return proxyHost(store.projects.get(branch.project_id)?.region_id ?? DEFAULT_REGION);
}

/** A registered domain with the record the customer must create and where its checks stand. */
export function renderCustomDomain(store: Store, branch: BranchRecord, d: CustomDomainRecord): CustomDomain {
  return {
    domain: d.domain,
    entity_type: d.entity_type,
    entity_id: d.entity_id,
    cname_target: `${branch.id}.domains.${branchHost(store, branch)}`,
    status: "pending",
    dns_status: "pending",
    binding_status: "pending",
    status_reason: `point a CNAME record for ${d.domain} at the cname_target`,
  };
}

/** The branch's AI gateway endpoint root (clients append the dialect's path). */
export function renderAiGateway(store: Store, branch: BranchRecord): BranchAiGateway {
  return { enabled: true, base_url: `https://${branch.id}-api.ai.${branchHost(store, branch)}` };
}
