import { z } from "zod";
import type { CloudDbClient, OrgMember } from "../client";
import { NotFoundError } from "../client/errors";
import { ResourceError } from "./errors";
import { hostLine } from "./host/progress";
import { DeleteProtectionInput, idInput, optionalId } from "./inputs/common";
import { emailInput, sameEmail } from "./inputs/email";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  MEMBER_ROLE,
  ORGANIZATION_MEMBER,
  type OrganizationMemberInputs,
  type OrganizationMemberOutputs,
} from "./public/organizationMember";

export type { OrganizationMemberInputs, OrganizationMemberOutputs } from "./public/organizationMember";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them: the member by email or by user id, one of the two. */
export const OrganizationMemberInputsSchema = z
  .object({
    orgId: idInput("orgId", "organization", "the organization the user is a member of (org-...)"),
    email: emailInput("email must be the member's email").optional(),
    userId: optionalId("userId must be the member's user id; or give email instead"),
    role: z.enum(MEMBER_ROLE.enum, { error: `role is one of ${MEMBER_ROLE.enum.join(", ")}` }),
    deleteProtection: DeleteProtectionInput,
  })
  .superRefine((inputs, ctx) => {
    if (inputs.email === undefined && inputs.userId === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["email"],
        message: "email or userId is required: the user whose membership this is",
      });
    }
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof OrganizationMemberInputsSchema>, OrganizationMemberInputs>;

/** The inputs whose change replaces the resource, and so removes the old member. */
const WHO = ["orgId", "email", "userId"] as const;

// ---------------------------------------------------------------- API calls

/**
 * A user's membership of an organization (docs/api-rules.md §17). Users join by invitation only, so
 * there is nothing to create: a create takes the membership of the user the inputs name and sets
 * the declared role with a PATCH when it differs, saying so. A delete removes the member, which
 * only a new invitation undoes: the preview says so. None starts an operation.
 */
export const organizationMemberDefinition = defineResource<
  OrganizationMemberInputs,
  OrganizationMemberOutputs
>(ORGANIZATION_MEMBER, {
  inputs: OrganizationMemberInputsSchema,
  same: {
    email: (news, olds) => news === undefined || (typeof olds === "string" && sameEmail(news, olds)),
  },
  id: (outs) => outs.memberId,
  finds: (inputs) => [
    {
      kind: "governance",
      property: "orgId",
      orgId: inputs.orgId,
      what: "change members' roles and remove members",
    },
  ],

  noteAtCreate: (inputs) => {
    const who = inputs.email ?? inputs.userId;
    return isUnknown(who) || isUnknown(inputs.orgId)
      ? undefined
      : `once this stack removes ${who} from organization ${inputs.orgId} (\`pulumi destroy\`, dropping the ` +
          "OrganizationMember from the program, or replacing it), they lose the organization's projects and " +
          "come back only through a new invitation";
  },
  /** A replacement removes the old member, whom only a new invitation brings back: the preview says so. */
  review(olds, news) {
    const moved = WHO.filter(
      (key) => news[key] !== undefined && !isUnknown(news[key]) && !sameValue(news[key], olds[key]),
    );
    if (moved.length === 0) return undefined;
    return (
      `changing ${moved.join(", ")} removes ${olds.email} from organization ${olds.orgId}, ` +
      "who comes back only through a new invitation"
    );
  },

  async create({ client }, inputs) {
    const found = await membership(client, inputs);
    if (found === undefined) {
      throw new ResourceError(
        "Missing",
        `${inputs.email ?? inputs.userId} is not a member of organization ${inputs.orgId}: users join by ` +
          "invitation; invite them (an OrganizationInvitation, or the console), and run `pulumi up` again once they have joined",
      );
    }
    hostLine(
      `${found.user?.email ?? found.member.user_id} has been a member of organization ${inputs.orgId}` +
        `${found.member.joined_at === undefined ? "" : ` since ${found.member.joined_at}`}: this resource takes ` +
        "the membership and removes the member when it is destroyed",
    );
    const outs = outputsOf(inputs, found);
    if (found.member.role === inputs.role) return outs;
    const changed = await client.setOrgMemberRole(inputs.orgId, found.member.id, inputs.role);
    return { ...outs, role: changed.role };
  },

  /** The organization's member `idOrWho`: a member id, an email or a user id. */
  async readExisting({ client }, inputs, idOrWho) {
    const members = await client.listOrgMembers(inputs.orgId);
    const found =
      members.find((m) => m.member.id === idOrWho) ??
      members.find((m) => m.member.user_id === idOrWho) ??
      members.find((m) => m.user !== undefined && sameEmail(m.user.email, idOrWho));
    if (found === undefined) {
      throw new NotFoundError(
        `organization ${inputs.orgId} has no member ${JSON.stringify(idOrWho)}: give a member id, a user id or ` +
          "the email of a member",
      );
    }
    return outputsOf(inputs, found);
  },

  /** The member by id; removed elsewhere, it is gone. */
  async read({ client }, id, props) {
    if (props === undefined) return undefined;
    const member = await client.getOrgMember(props.orgId, id);
    return { ...props, role: member.role, userId: member.user_id };
  },

  /** A new role is set in place; `deleteProtection` alone changes nothing in the API. */
  async update({ client }, id, outs, olds, news) {
    if (news.role === olds.role) return outs;
    const member = await client.setOrgMemberRole(outs.orgId, id, news.role);
    return { ...outs, role: member.role };
  },

  async remove({ client }, id, props) {
    await client.removeOrgMember(props.orgId, id);
  },

  /** The one removal the API refuses: its last admin's. */
  async refusal({ client }, id, props) {
    const members = await client.listOrgMembers(props.orgId);
    const admins = members.filter((m) => m.member.role === "admin");
    if (admins.length !== 1 || admins[0]?.member.id !== id) return undefined;
    return {
      why: `${props.email} is the last admin of organization ${props.orgId}, which must keep one`,
      next: "make another member admin first (role: admin on another OrganizationMember, or the console)",
    };
  },
});

/** Equal inputs, emails without regard to case. */
function sameValue(news: unknown, olds: unknown): boolean {
  return typeof news === "string" && typeof olds === "string" ? sameEmail(news, olds) : news === olds;
}

/** The organization's member the inputs name, by user id or email. */
async function membership(
  client: CloudDbClient,
  inputs: OrganizationMemberInputs,
): Promise<OrgMember | undefined> {
  const members = await client.listOrgMembers(inputs.orgId);
  return members.find((m) =>
    inputs.userId !== undefined
      ? m.member.user_id === inputs.userId
      : m.user !== undefined && inputs.email !== undefined && sameEmail(m.user.email, inputs.email),
  );
}

function outputsOf(inputs: OrganizationMemberInputs, found: OrgMember): OrganizationMemberOutputs {
  return {
    ...declaredInputs<OrganizationMemberInputs>(OrganizationMemberInputsSchema, inputs),
    orgId: inputs.orgId,
    memberId: found.member.id,
    userId: found.member.user_id,
    email: found.user?.email ?? inputs.email ?? "",
    role: found.member.role,
    ...(found.member.joined_at === undefined ? {} : { joinedAt: found.member.joined_at }),
  };
}

// The module an OrganizationMember provider stored in a stack's state requires by path: keep it stable.
export const { configure, check, diff, create, read, update, remove } = providerMethods(
  organizationMemberDefinition,
);
