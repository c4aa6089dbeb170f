import { z } from "zod";
import type { Jwks as ApiJwks, CloudDbClient } from "../client";
import { ConflictError, NotFoundError } from "../client/errors";
import { hostLine } from "./host/progress";
import { optionalText, requiredId } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { JWKS, type JwksInputs, type JwksOutputs } from "./public/jwks";

export type { JwksInputs, JwksOutputs } from "./public/jwks";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const JwksInputsSchema = z.object({
  projectId: requiredId("projectId", "the project that trusts the key set"),
  jwksUrl: z
    .string({ error: "jwksUrl must be the HTTPS URL of a JSON Web Key Set" })
    .refine(
      (url) => /^https:\/\/[^\s/]+/.test(url),
      "jwksUrl must be an HTTPS URL: the service fetches keys from it",
    ),
  providerName: z
    .string({ error: "providerName must name the authentication provider (Clerk, Auth0, ...)" })
    .min(1, "providerName must name the authentication provider (Clerk, Auth0, ...)"),
  branchId: optionalText("branchId"),
  jwtAudience: optionalText("jwtAudience"),
  roleNames: z
    .array(z.string(), { error: "roleNames must be a list of role names" })
    .max(10, "roleNames takes at most 10 roles")
    .optional(),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof JwksInputsSchema>, JwksInputs>;

// ---------------------------------------------------------------- API calls

/**
 * A JWKS URL a project trusts (docs/api-rules.md §24). The API adds and removes key sets and changes
 * none, so every input replaces. A key set carries no mark of who added it: a create the service
 * refuses because the same URL is already there for the same branches (a run killed after its
 * create) takes that one, and says so.
 */
export const jwksDefinition = defineResource<JwksInputs, JwksOutputs>(JWKS, {
  inputs: JwksInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.jwksId}`,

  async create({ client }, inputs) {
    try {
      const added = await client.addJwks(inputs.projectId, {
        jwks_url: inputs.jwksUrl,
        provider_name: inputs.providerName,
        ...(inputs.branchId === undefined ? {} : { branch_id: inputs.branchId }),
        ...(inputs.jwtAudience === undefined ? {} : { jwt_audience: inputs.jwtAudience }),
        ...(inputs.roleNames === undefined ? {} : { role_names: inputs.roleNames }),
      });
      return outputsOf(inputs, added);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      const same = (await client.listJwks(inputs.projectId)).find((j) => isSame(j, inputs));
      if (same === undefined) throw err;
      hostLine(
        `project ${inputs.projectId} already trusts ${inputs.jwksUrl} (${same.id}): this resource takes it, and removes it when destroyed`,
      );
      return outputsOf(inputs, same);
    }
  },

  async readExisting({ client }, inputs, jwksId) {
    const found = await find(client, inputs.projectId, jwksId);
    if (found === undefined)
      throw new NotFoundError(`project ${inputs.projectId} has no JWKS ${jwksId} to import`);
    return outputsOf(inputsOf(inputs.projectId, found), found);
  },

  /** The key set as the project has it; removed elsewhere, it is gone. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const found = await find(client, props.projectId, props.jwksId);
    if (found === undefined) return undefined;
    return { ...props, ...outputsOf(inputsOf(props.projectId, found), found) };
  },

  async remove({ client }, _id, props) {
    await client.deleteJwks(props.projectId, props.jwksId);
  },
});

const find = async (client: CloudDbClient, projectId: string, jwksId: string) =>
  (await client.listJwks(projectId)).find((j) => j.id === jwksId);

/** Whether the project's key set is the one the inputs declare (same URL, same branches). */
const isSame = (j: ApiJwks, inputs: JwksInputs) =>
  j.jwks_url === inputs.jwksUrl && j.branch_id === inputs.branchId;

/** The inputs a key set stands for. */
function inputsOf(projectId: string, j: ApiJwks): JwksInputs {
  return {
    projectId,
    jwksUrl: j.jwks_url,
    providerName: j.provider_name,
    ...(j.branch_id === undefined ? {} : { branchId: j.branch_id }),
    ...(j.jwt_audience === undefined ? {} : { jwtAudience: j.jwt_audience }),
    ...(j.role_names === undefined ? {} : { roleNames: j.role_names }),
  };
}

function outputsOf(inputs: JwksInputs, j: ApiJwks): JwksOutputs {
  return {
    ...declaredInputs<JwksInputs>(JwksInputsSchema, inputs),
    projectId: inputs.projectId,
    jwksId: j.id,
    jwksUrl: j.jwks_url,
    providerName: j.provider_name,
    roleNames: j.role_names ?? [],
    createdAt: j.created_at,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(jwksDefinition);
