/** VPC endpoints: an organization's, by region, and the ones a project is restricted to. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** An item of the VPC endpoint lists (`GET .../vpc_endpoints`). */
export const VpcEndpointSchema = z.looseObject({ vpc_endpoint_id: z.string(), label: z.string() });
DOCUMENTED.add(VpcEndpointSchema, { as: "VPCEndpoint" });
/** A VPC endpoint and its label. */
export type VpcEndpoint = z.infer<typeof VpcEndpointSchema>;

/** `GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints`, `GET /projects/{project_id}/vpc_endpoints`. */
export const VpcEndpointsResponseSchema = z.looseObject({ endpoints: z.array(VpcEndpointSchema) });
DOCUMENTED.add(VpcEndpointsResponseSchema, { as: "VPCEndpointsResponse" });

/**
 * `GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`. `state` is
 * `new` (pending acceptance) or `accepted`; read as a string, the list may grow.
 */
export const VpcEndpointDetailsSchema = z.looseObject({
  vpc_endpoint_id: z.string(),
  label: z.string(),
  state: z.string(),
  num_restricted_projects: maybe(z.number()),
  example_restricted_projects: maybe(z.array(z.string())),
});
DOCUMENTED.add(VpcEndpointDetailsSchema, { as: "VPCEndpointDetails" });
/** An organization's VPC endpoint as it is now. */
export type VpcEndpointDetails = z.infer<typeof VpcEndpointDetailsSchema>;
