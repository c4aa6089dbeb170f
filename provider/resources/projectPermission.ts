import { z } from "zod";
import type { ProjectPermission as ApiPermission, CloudDbClient } from "../client";
import { isConflict, NotFoundError } from "../client/errors";
import { hostLine } from "./host/progress";
import { requiredId } from "./inputs/common";
import { emailInput, sameEmail } from "./inputs/email";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  PROJECT_PERMISSION,
  type ProjectPermissionInputs,
  type ProjectPermissionOutputs,
} from "./public/projectPermission";

export type { ProjectPermissionInputs, ProjectPermissionOutputs } from "./public/projectPermission";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const ProjectPermissionInputsSchema = z.object({
  projectId: requiredId("projectId", "the project to share"),
  email: emailInput("email is required: the email of the account to share the project with"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ProjectPermissionInputsSchema>, ProjectPermissionInputs>;

// ---------------------------------------------------------------- API calls

/**
 * A project shared with an email. The API keeps one grant per email, holding nothing but the email,
 * so an existing grant for it is the very object the resource declares: a create that finds one
 * (the API answers 409, or the answer was lost) takes it and says so. Grants start no operation.
 */
export const projectPermissionDefinition = defineResource<ProjectPermissionInputs, ProjectPermissionOutputs>(
  PROJECT_PERMISSION,
  {
    inputs: ProjectPermissionInputsSchema,
    same: {
      email: (news, olds) => typeof olds === "string" && sameEmail(news, olds),
    },
    id: (outs) => outs.permissionId,

    async create({ client }, inputs) {
      try {
        return outputsOf(
          inputs.projectId,
          await client.grantProjectPermission(inputs.projectId, inputs.email),
        );
      } catch (err) {
        if (!isConflict(err)) throw err;
        const found = await grantFor(client, inputs.projectId, inputs.email);
        if (found === undefined) throw err;
        hostLine(
          `project ${inputs.projectId} was already shared with ${found.granted_to_email} (since ${found.granted_at}): ` +
            "this resource takes that grant and revokes it when it is destroyed",
        );
        return outputsOf(inputs.projectId, found);
      }
    },

    /** The grant for the email, whoever made it: a lost answer's grant is the only one it can be. */
    async findLost({ client }, inputs) {
      const found = await grantFor(client, inputs.projectId, inputs.email).catch(() => undefined);
      return found === undefined ? undefined : outputsOf(inputs.projectId, found);
    },

    /** The project's grant `idOrEmail`: a permission id, or the email it was granted to. */
    async readExisting({ client }, inputs, idOrEmail) {
      const grants = await client.listProjectPermissions(inputs.projectId);
      const found =
        grants.find((g) => g.id === idOrEmail) ??
        grants.find((g) => sameEmail(g.granted_to_email, idOrEmail));
      if (found === undefined) {
        throw new NotFoundError(
          `project ${inputs.projectId} has no grant ${JSON.stringify(idOrEmail)} in force: ` +
            "give a permission id or an email the project is shared with",
        );
      }
      return outputsOf(inputs.projectId, found);
    },

    /** The grant by id among the project's grants in force; revoked elsewhere, it is gone. */
    async read({ client }, id, props) {
      if (props === undefined) return undefined;
      const grants = await client.cached.listProjectPermissions(props.projectId);
      const found = grants.find((g) => g.id === id);
      return found === undefined ? undefined : { ...props, ...outputsOf(props.projectId, found) };
    },

    async remove({ client }, id, props) {
      await client.revokeProjectPermission(props.projectId, id);
    },
  },
);

/** The project's grant in force for `email`, if any. */
async function grantFor(
  client: CloudDbClient,
  projectId: string,
  email: string,
): Promise<ApiPermission | undefined> {
  const grants = await client.listProjectPermissions(projectId);
  return grants.find((g) => sameEmail(g.granted_to_email, email));
}

function outputsOf(projectId: string, grant: ApiPermission): ProjectPermissionOutputs {
  return {
    projectId,
    email: grant.granted_to_email,
    permissionId: grant.id,
    grantedAt: grant.granted_at,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } =
  providerMethods(projectPermissionDefinition);
