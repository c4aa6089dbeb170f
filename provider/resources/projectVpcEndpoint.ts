import { z } from "zod";
import type { CloudDbClient, VpcEndpoint } from "../client";
import { missingNamed, ResourceError } from "./errors";
import { adoptInput, idInput, LabelInput, requiredId } from "./inputs/common";
import { type Assignment, assignmentMethods } from "./lifecycle/assignment";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type ResourceDefinition, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  PROJECT_VPC_ENDPOINT,
  type ProjectVpcEndpointInputs,
  type ProjectVpcEndpointOutputs,
} from "./public/projectVpcEndpoint";

export type { ProjectVpcEndpointInputs, ProjectVpcEndpointOutputs } from "./public/projectVpcEndpoint";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const ProjectVpcEndpointInputsSchema = z.object({
  projectId: requiredId("projectId", "the project to restrict"),
  vpcEndpointId: idInput(
    "vpcEndpointId",
    "VPC endpoint",
    "a VPC endpoint of the project's organization (vpce-...)",
  ),
  label: LabelInput,
  adoptExisting: adoptInput("restriction (the VPC endpoint's id, equal to vpcEndpointId)"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ProjectVpcEndpointInputsSchema>, ProjectVpcEndpointInputs>;

// ---------------------------------------------------------------- API calls

/** A project restricted to a VPC endpoint of its organization (docs/api-rules.md §10). */
export const projectVpcEndpointDefinition = defineResource<
  ProjectVpcEndpointInputs,
  ProjectVpcEndpointOutputs
>(PROJECT_VPC_ENDPOINT, {
  inputs: ProjectVpcEndpointInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.vpcEndpointId}`,

  ...assignmentMethods({
    definition: (): ResourceDefinition<ProjectVpcEndpointInputs, ProjectVpcEndpointOutputs> =>
      projectVpcEndpointDefinition,
    assignment: restriction,
    outputsOf,
    existing,
  }),

  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const found = await restricted(client, props.projectId, props.vpcEndpointId);
    return found === undefined ? undefined : { ...props, label: found.label };
  },

  /** A new label is set with the same call that made the restriction. */
  async update({ client }, _id, outs, olds) {
    if (outs.label === olds.label) return outs;
    await client.restrictProjectVpcEndpoint(outs.projectId, outs.vpcEndpointId, outs.label);
    return outs;
  },

  async remove({ client }, _id, props) {
    await client.removeProjectVpcEndpoint(props.projectId, props.vpcEndpointId);
  },
});

/** The project's restriction to `vpcEndpointId`, if it has one. */
async function restricted(
  client: CloudDbClient,
  projectId: string,
  vpcEndpointId: string,
): Promise<VpcEndpoint | undefined> {
  return (await client.listProjectVpcEndpoints(projectId)).find((e) => e.vpc_endpoint_id === vpcEndpointId);
}

/** The create's assignment: the project's restriction to the endpoint, with the declared label. */
function restriction(client: CloudDbClient, inputs: ProjectVpcEndpointInputs): Assignment<VpcEndpoint> {
  const { projectId, vpcEndpointId } = inputs;
  const label = inputs.label ?? "";
  return {
    what: `the restriction of project ${projectId} to VPC endpoint ${vpcEndpointId}`,
    label,
    id: vpcEndpointId,
    idInput: "vpcEndpointId",
    current: () => restricted(client, projectId, vpcEndpointId),
    labelOf: (found) => found.label,
    assign: () =>
      client
        .restrictProjectVpcEndpoint(projectId, vpcEndpointId, label)
        .catch((err: unknown) =>
          Promise.reject(
            missingNamed(
              err,
              `VPC endpoint ${vpcEndpointId} is not assigned to the organization of project ${projectId} in the project's region`,
              "assign it there with a VpcEndpoint and pass that resource's vpcEndpointId output here (so the restriction " +
                "waits for the assignment), or check vpcEndpointId",
            ),
          ),
        ),
  };
}

/** The project's restriction `id` as it is now; the client's not-found error when it has none. */
async function existing(
  client: CloudDbClient,
  inputs: ProjectVpcEndpointInputs,
  id: string,
): Promise<ProjectVpcEndpointOutputs> {
  const found = await restricted(client, inputs.projectId, id);
  if (found === undefined) {
    throw new ResourceError(
      "NotAdoptable",
      `project ${inputs.projectId} is not restricted to VPC endpoint ${id}: check both ids`,
    );
  }
  return outputsOf(inputs, found);
}

function outputsOf(inputs: ProjectVpcEndpointInputs, found: VpcEndpoint): ProjectVpcEndpointOutputs {
  return {
    ...declaredInputs<ProjectVpcEndpointInputs>(ProjectVpcEndpointInputsSchema, inputs),
    vpcEndpointId: found.vpc_endpoint_id,
    label: found.label,
  };
}

export const { configure, check, diff, create, read, update, remove } = providerMethods(
  projectVpcEndpointDefinition,
);
