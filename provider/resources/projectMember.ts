import { z } from "zod";
import type { ProjectMember as ApiMember, CloudDbClient, ProjectMemberRole } from "../client";
import { NotFoundError } from "../client/errors";
import { ResourceError } from "./errors";
import { projectRolesFind } from "./finds";
import { hostLine } from "./host/progress";
import { optionalId, requiredId } from "./inputs/common";
import { emailInput, sameEmail } from "./inputs/email";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  PROJECT_MEMBER,
  PROJECT_ROLE,
  type ProjectMemberInputs,
  type ProjectMemberOutputs,
} from "./public/projectMember";

export type { ProjectMemberInputs, ProjectMemberOutputs } from "./public/projectMember";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them: the member by member id or by email, one of the two. */
export const ProjectMemberInputsSchema = z
  .object({
    projectId: requiredId("projectId", "the organization's project the role is on"),
    memberId: optionalId("memberId must be the organization member id; or give email instead"),
    email: emailInput("email must be the member's email").optional(),
    role: z.enum(PROJECT_ROLE.enum, { error: `role is one of ${PROJECT_ROLE.enum.join(", ")}` }),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.memberId === undefined && inputs.email === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["email"],
        message: "email or memberId is required: the organization member whose project role this is",
      });
    }
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof ProjectMemberInputsSchema>, ProjectMemberInputs>;

// ---------------------------------------------------------------- API calls

/**
 * An organization member's explicit role on a project (docs/api-rules.md §20). The member exists
 * already (users join the organization by invitation), so a create finds them and sets the role
 * with the PUT, recording an explicit role set before (`foundRole`) and saying so. The same PUT
 * changes it; a delete gives the role found back, or, when there was none, removes the explicit
 * role, and the member falls back to their organization role's default. None starts an operation.
 */
export const projectMemberDefinition = defineResource<ProjectMemberInputs, ProjectMemberOutputs>(
  PROJECT_MEMBER,
  {
    inputs: ProjectMemberInputsSchema,
    same: {
      email: (news, olds) => news === undefined || (typeof olds === "string" && sameEmail(news, olds)),
    },
    id: (outs) => `${outs.projectId}/${outs.memberId}`,
    finds: (inputs) => [projectRolesFind("projectId", inputs.projectId)],

    noteAtCreate: (inputs) => {
      const who = inputs.email ?? inputs.memberId;
      if (isUnknown(who) || isUnknown(inputs.projectId)) return undefined;
      return (
        `destroying it gives back the explicit role ${who} has on project ${inputs.projectId} when this resource ` +
        "takes it, or, when they have none, removes the explicit role, so they fall back to their organization role's default"
      );
    },

    async create({ client }, inputs) {
      const found = await memberOf(client, inputs.projectId, inputs);
      if (found === undefined) {
        throw new ResourceError(
          "Missing",
          `${inputs.email ?? inputs.memberId} is not a member of the organization of project ${inputs.projectId}: ` +
            "users join an organization by invitation; invite them (an OrganizationInvitation, or the console), and " +
            "run `pulumi up` again once they have joined",
        );
      }
      hostLine(
        found.project_role === undefined
          ? `${found.email ?? found.member_id} has no explicit role on project ${inputs.projectId}: this resource ` +
              `sets ${inputs.role}, and destroying it removes the explicit role`
          : `${found.email ?? found.member_id} already had the explicit role ${found.project_role} on project ` +
              `${inputs.projectId}: this resource takes it, sets ${inputs.role}, and gives back ` +
              `${found.project_role} when destroyed`,
      );
      const set = await client.setProjectMemberRole(inputs.projectId, found.member_id, inputs.role);
      return withFound(outputsOf(inputs, set), found.project_role);
    },

    /** The project's member `idOrEmail`: a member id or an email. */
    async readExisting({ client }, inputs, idOrEmail) {
      const members = await client.listProjectMembers(inputs.projectId);
      const found =
        members.find((m) => m.member_id === idOrEmail) ??
        members.find((m) => m.email !== undefined && sameEmail(m.email, idOrEmail));
      if (found?.project_role === undefined) {
        throw new NotFoundError(
          `project ${inputs.projectId} has no member ${JSON.stringify(idOrEmail)} with an explicit role: give the ` +
            "member id or the email of a member whose role is set on the project",
        );
      }
      // The import id's last part may be an email: the inputs recorded name the member by id.
      const role = found.project_role as ProjectMemberInputs["role"];
      // An imported role was there before the stack: destroying it gives that role back.
      return withFound(
        outputsOf({ projectId: inputs.projectId, memberId: found.member_id, role }, found),
        role,
      );
    },

    /** The member's explicit role; once it is removed elsewhere, or the member left, it is gone. */
    async read({ client }, _id, props) {
      if (props === undefined) return undefined;
      const members = await client.listProjectMembers(props.projectId);
      const found = members.find((m) => m.member_id === props.memberId);
      if (found?.project_role === undefined) return undefined;
      return withFound(
        { ...outputsOf(props as ProjectMemberInputs, found), role: found.project_role },
        props.foundRole,
      );
    },

    /** A new role is the same PUT. */
    async update({ client }, _id, outs, olds, news) {
      if (news.role === olds.role) return outs;
      const set = await client.setProjectMemberRole(outs.projectId, outs.memberId, news.role);
      return { ...outs, ...outputsOf({ ...news, projectId: outs.projectId }, set) };
    },

    /** Gives back the explicit role found; removes the explicit role when there was none. */
    async remove({ client }, _id, props) {
      if (props.foundRole === undefined) {
        await client.removeProjectMemberRole(props.projectId, props.memberId);
        return;
      }
      const role = props.foundRole as ProjectMemberInputs["role"];
      await client.setProjectMemberRole(props.projectId, props.memberId, role);
      hostLine(`${props.email} has the explicit role ${role} on project ${props.projectId} again`);
    },
  },
);

/** The project's member the inputs name, by member id or email. */
async function memberOf(
  client: CloudDbClient,
  projectId: string,
  inputs: ProjectMemberInputs,
): Promise<ApiMember | undefined> {
  const members = await client.listProjectMembers(projectId);
  return members.find((m) =>
    inputs.memberId !== undefined
      ? m.member_id === inputs.memberId
      : m.email !== undefined && inputs.email !== undefined && sameEmail(m.email, inputs.email),
  );
}

/** `outs` with the explicit role found at take-over, when there was one. */
function withFound(outs: ProjectMemberOutputs, foundRole: string | undefined): ProjectMemberOutputs {
  return foundRole === undefined ? outs : { ...outs, foundRole };
}

function outputsOf(inputs: ProjectMemberInputs, member: ApiMember | ProjectMemberRole): ProjectMemberOutputs {
  return {
    ...declaredInputs<ProjectMemberInputs>(ProjectMemberInputsSchema, inputs),
    projectId: inputs.projectId,
    memberId: member.member_id,
    userId: member.user_id,
    email: member.email ?? inputs.email ?? "",
    role: member.project_role ?? inputs.role,
    orgRole: member.org_role,
    ...(member.effective_project_permission === undefined
      ? {}
      : { effectivePermission: member.effective_project_permission }),
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } =
  providerMethods(projectMemberDefinition);
