import { z } from "zod";
import type { CloudDbClient, VpcEndpointDetails } from "../client";
import { isNotFound } from "../client/errors";
import { regionFind } from "./finds";
import { adoptInput, DeleteProtectionInput, idInput, LabelInput } from "./inputs/common";
import { regionInput } from "./inputs/regions";
import { type Assignment, assignmentMethods } from "./lifecycle/assignment";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { defineResource, type ResourceDefinition, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { VPC_ENDPOINT, type VpcEndpointInputs, type VpcEndpointOutputs } from "./public/vpcEndpoint";

export type { VpcEndpointInputs, VpcEndpointOutputs } from "./public/vpcEndpoint";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const VpcEndpointInputsSchema = z.object({
  orgId: idInput("orgId", "organization", "the organization the endpoint is assigned to (org-...)"),
  regionId: regionInput("regionId", "the region of the endpoint").refine(
    (region) => !region.startsWith("azure-"),
    "regionId: VPC endpoints are not offered in Azure regions (docs/api-rules.md §10); use an AWS region",
  ),
  vpcEndpointId: idInput(
    "vpcEndpointId",
    "VPC endpoint",
    "the cloud provider's id of the VPC endpoint (vpce-...)",
  ),
  label: LabelInput,
  adoptExisting: adoptInput("VPC endpoint (its id, equal to vpcEndpointId)"),
  deleteProtection: DeleteProtectionInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof VpcEndpointInputsSchema>, VpcEndpointInputs>;

/** The inputs whose change replaces the assignment, and so removes the old one for good. */
const WHERE = ["orgId", "regionId", "vpcEndpointId"] as const;

// ---------------------------------------------------------------- API calls

/** A VPC endpoint assigned to an organization in a region (docs/api-rules.md §10). */
export const vpcEndpointDefinition = defineResource<VpcEndpointInputs, VpcEndpointOutputs>(VPC_ENDPOINT, {
  inputs: VpcEndpointInputsSchema,
  id: (outs) => `${outs.orgId}/${outs.regionId}/${outs.vpcEndpointId}`,
  finds: (inputs) => [regionFind("regionId", inputs.regionId, inputs.orgId)],

  noteAtCreate: (inputs) =>
    isUnknown(inputs.vpcEndpointId) || isUnknown(inputs.orgId)
      ? undefined
      : `once this stack removes VPC endpoint ${inputs.vpcEndpointId} from organization ${inputs.orgId} ` +
        "(`pulumi destroy`, dropping the VpcEndpoint from the program, or replacing it), the service never lets " +
        "the organization assign it again",
  /** A replacement removes the old assignment, which the service never takes back: the preview says so. */
  review(olds, news) {
    const moved = WHERE.filter((key) => !isUnknown(news[key]) && news[key] !== olds[key]);
    if (moved.length === 0) return undefined;
    return (
      `changing ${moved.join(", ")} removes VPC endpoint ${olds.vpcEndpointId} from organization ${olds.orgId} ` +
      `in ${olds.regionId}, and the service never lets the organization assign it again`
    );
  },

  ...assignmentMethods({
    definition: (): ResourceDefinition<VpcEndpointInputs, VpcEndpointOutputs> => vpcEndpointDefinition,
    assignment,
    outputsOf,
    existing,
  }),

  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const found = await client.getOrgVpcEndpoint(props.orgId, props.regionId, props.vpcEndpointId);
    return { ...props, label: found.label, state: found.state };
  },

  /** A new label is set with the same call that assigned the endpoint. */
  async update({ client }, _id, outs, olds) {
    if (outs.label === olds.label) return outs;
    await client.assignOrgVpcEndpoint(outs.orgId, outs.regionId, outs.vpcEndpointId, outs.label);
    const found = await client.getOrgVpcEndpoint(outs.orgId, outs.regionId, outs.vpcEndpointId);
    return { ...outs, label: found.label, state: found.state };
  },

  async remove({ client }, _id, props) {
    await client.removeOrgVpcEndpoint(props.orgId, props.regionId, props.vpcEndpointId);
  },
});

/** The create's assignment: the organization's endpoint in the region, with the declared label. */
function assignment(client: CloudDbClient, inputs: VpcEndpointInputs): Assignment<VpcEndpointDetails> {
  const { orgId, regionId, vpcEndpointId } = inputs;
  const label = inputs.label ?? "";
  return {
    what: `VPC endpoint ${vpcEndpointId} of organization ${orgId} in ${regionId}`,
    label,
    id: vpcEndpointId,
    idInput: "vpcEndpointId",
    current: () =>
      client.getOrgVpcEndpoint(orgId, regionId, vpcEndpointId).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      }),
    labelOf: (found) => found.label,
    assign: () => client.assignOrgVpcEndpoint(orgId, regionId, vpcEndpointId, label),
  };
}

/** The organization's endpoint `id` in the region as it is now, as the state would record it. */
async function existing(
  client: CloudDbClient,
  inputs: VpcEndpointInputs,
  id: string,
): Promise<VpcEndpointOutputs> {
  return outputsOf(inputs, await client.getOrgVpcEndpoint(inputs.orgId, inputs.regionId, id));
}

function outputsOf(inputs: VpcEndpointInputs, found: VpcEndpointDetails): VpcEndpointOutputs {
  return {
    ...declaredInputs<VpcEndpointInputs>(VpcEndpointInputsSchema, inputs),
    vpcEndpointId: found.vpc_endpoint_id,
    label: found.label,
    state: found.state,
  };
}

export const { configure, check, diff, create, read, update, remove } =
  providerMethods(vpcEndpointDefinition);
