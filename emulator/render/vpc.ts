import type { VpcEndpoint, VpcEndpointDetails, VpcEndpointWithRegion } from "@neon/sdk/raw";
import { restrictedProjects, vpcEndpointState } from "../families/vpc";
import type { OrgRecord, VpcEndpointRecord, VpcRestrictionRecord } from "../records";
import type { Store } from "../state";

// VPC endpoints as the API shows them: an organization's (in every region, in one, one in detail)
// and the ones a project is restricted to.

/** An endpoint of an organization's region, or one a project is restricted to: its id and label. */
export function renderVpcEndpoint(e: VpcEndpointRecord | VpcRestrictionRecord): VpcEndpoint {
  return { vpc_endpoint_id: e.vpc_endpoint_id, label: e.label };
}

/** An endpoint of the organization's listing over every region. */
export function renderVpcEndpointWithRegion(e: VpcEndpointRecord): VpcEndpointWithRegion {
  return { ...renderVpcEndpoint(e), region_id: e.region_id };
}

/** One endpoint in detail: its state, and the organization's live projects restricted to it (three at most by name). */
export function renderVpcEndpointDetails(
  e: VpcEndpointRecord,
  org: OrgRecord,
  store: Store,
  nowMs: number,
): VpcEndpointDetails {
  const restricted = restrictedProjects(store, org, e).map((p) => p.id);
  return {
    ...renderVpcEndpoint(e),
    state: vpcEndpointState(e, nowMs),
    num_restricted_projects: restricted.length,
    example_restricted_projects: restricted.slice(0, 3),
  };
}
