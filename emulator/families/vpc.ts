import type { EmulatorContext } from "../context";
import { REGIONS } from "../defaults";
import { badRequest, HttpError, notFound } from "../errors";
import type { OrgRecord, ProjectRecord, VpcEndpointRecord } from "../records";
import type { Store } from "../state";

// VPC endpoints: assigned to an organization in a region (with a label), and projects of the
// organization restricted to one of them (docs/api-rules.md §10).

/** Emulated time from an assignment until the service accepts the endpoint's connection (`new` -> `accepted`). */
export const VPC_ACCEPTANCE_MS = 1000;

/** Refuses (400) a region the service does not have, or one where it offers no VPC endpoints (Azure). */
export function checkVpcRegion(regionId: string): void {
  if (!REGIONS.some((r) => r.region_id === regionId))
    throw badRequest(`region ${JSON.stringify(regionId)} is not a known region`);
  if (regionId.startsWith("azure-"))
    throw badRequest(`VPC endpoints are not supported in Azure regions (${regionId}): use an AWS region`);
}

/** The organization's endpoints in `regionId`, or in every region without it. */
export function orgVpcEndpoints(org: OrgRecord, regionId?: string): VpcEndpointRecord[] {
  return (org.vpc_endpoints ?? []).filter((e) => regionId === undefined || e.region_id === regionId);
}

/** The organization's endpoint `id` in `regionId`; 404 when it is not assigned there. */
export function orgVpcEndpoint(org: OrgRecord, regionId: string, id: string): VpcEndpointRecord {
  const endpoint = orgVpcEndpoints(org, regionId).find((e) => e.vpc_endpoint_id === id);
  if (!endpoint)
    throw notFound(`VPC endpoint ${id} is not assigned to organization ${org.id} in ${regionId}`);
  return endpoint;
}

/**
 * Assigns endpoint `id` to the organization in `regionId`, or sets the label of its assignment. An
 * endpoint once removed from the organization is refused (409): the service never takes it back.
 */
export function assignVpcEndpoint(
  ctx: EmulatorContext,
  org: OrgRecord,
  regionId: string,
  id: string,
  label: string,
): void {
  checkVpcRegion(regionId);
  const existing = orgVpcEndpoints(org, regionId).find((e) => e.vpc_endpoint_id === id);
  if (existing) {
    existing.label = label;
  } else {
    if ((org.removed_vpc_endpoints ?? []).includes(id)) {
      throw new HttpError(
        409,
        `VPC endpoint ${id} was removed from organization ${org.id} and cannot be assigned to it again: create a new VPC endpoint`,
      );
    }
    org.vpc_endpoints ??= [];
    org.vpc_endpoints.push({
      vpc_endpoint_id: id,
      region_id: regionId,
      label,
      assigned_at_ms: ctx.clock.now(),
    });
  }
  ctx.changed();
}

/** Removes the endpoint from the organization for good, and the restrictions of its projects to it. */
export function removeVpcEndpoint(ctx: EmulatorContext, org: OrgRecord, endpoint: VpcEndpointRecord): void {
  org.vpc_endpoints = (org.vpc_endpoints ?? []).filter((e) => e !== endpoint);
  org.removed_vpc_endpoints = [...(org.removed_vpc_endpoints ?? []), endpoint.vpc_endpoint_id];
  for (const project of restrictedProjects(ctx.store, org, endpoint)) {
    project.vpc_restrictions = (project.vpc_restrictions ?? []).filter(
      (r) => r.vpc_endpoint_id !== endpoint.vpc_endpoint_id,
    );
  }
  ctx.changed();
}

/** The organization's live projects restricted to the endpoint (in its region). */
export function restrictedProjects(
  store: Store,
  org: OrgRecord,
  endpoint: VpcEndpointRecord,
): ProjectRecord[] {
  return [...store.projects.values()].filter(
    (p) =>
      p.org_id === org.id &&
      p.deleted_at_ms === undefined &&
      p.region_id === endpoint.region_id &&
      (p.vpc_restrictions ?? []).some((r) => r.vpc_endpoint_id === endpoint.vpc_endpoint_id),
  );
}

/** `new` until the service has accepted the endpoint's connection, `accepted` after. */
export function vpcEndpointState(endpoint: VpcEndpointRecord, nowMs: number): "new" | "accepted" {
  return nowMs - endpoint.assigned_at_ms >= VPC_ACCEPTANCE_MS ? "accepted" : "new";
}

/**
 * Restricts the project to endpoint `id`, or sets the restriction's label. The endpoint must be
 * assigned to the project's organization (404) in the project's region (400); a personal project
 * has no organization to take endpoints from (403 is the caller's check, `checkOrgAdmin`).
 */
export function restrictProject(
  ctx: EmulatorContext,
  org: OrgRecord,
  project: ProjectRecord,
  id: string,
  label: string,
): void {
  const assigned = orgVpcEndpoints(org).filter((e) => e.vpc_endpoint_id === id);
  if (assigned.length === 0) {
    throw notFound(
      `VPC endpoint ${id} is not assigned to organization ${org.id}: assign it to the organization in ${project.region_id} first`,
    );
  }
  if (!assigned.some((e) => e.region_id === project.region_id)) {
    throw badRequest(
      `VPC endpoint ${id} is assigned to organization ${org.id} in ${assigned.map((e) => e.region_id).join(", ")}, ` +
        `not in ${project.region_id}, the region of project ${project.id}`,
    );
  }
  const existing = (project.vpc_restrictions ?? []).find((r) => r.vpc_endpoint_id === id);
  if (existing) existing.label = label;
  else project.vpc_restrictions = [...(project.vpc_restrictions ?? []), { vpc_endpoint_id: id, label }];
  ctx.changed();
}

/** Lifts the project's restriction to endpoint `id`; 404 when the project has none. */
export function unrestrictProject(ctx: EmulatorContext, project: ProjectRecord, id: string): void {
  const restrictions = project.vpc_restrictions ?? [];
  if (!restrictions.some((r) => r.vpc_endpoint_id === id))
    throw notFound(`project ${project.id} is not restricted to VPC endpoint ${id}`);
  project.vpc_restrictions = restrictions.filter((r) => r.vpc_endpoint_id !== id);
  ctx.changed();
}
