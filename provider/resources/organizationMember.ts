import { z } from "zod";
import type { CloudDbClient, OrgMember } from "../client";
import { NotFoundError } from "../client/errors";
import { ResourceError } from "./errors";
import { governanceFind } from "./finds";
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
    invitationId: optionalId("invitationId must be the id of the invitation this stack sent the user"),
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
 * there is nothing to create: a create takes the membership of the user the inputs name, records the
 * role it found (`foundRole`), and sets the declared role with a PATCH when it differs, saying so. A
 * delete gives that role back and leaves the member; only a member who joined through this stack's
 * invitation (`invitationId`) is removed, which only a new invitation undoes. The preview says which.
 * None starts an operation.
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
  finds: (inputs) => [governanceFind("orgId", inputs.orgId, "change members' roles and remove members")],

  noteAtCreate: (inputs) => {
    const who = inputs.email ?? inputs.userId;
    if (isUnknown(who) || isUnknown(inputs.orgId)) return undefined;
    const giveBack =
      `gives back the role ${who} has in organization ${inputs.orgId} when this resource takes the membership, ` +
      "and they stay a member";
    const invitation = isUnknown(inputs.invitationId)
      ? "its invitation"
      : `invitation ${inputs.invitationId}`;
    return inputs.invitationId === undefined
      ? `destroying it (\`pulumi destroy\`, dropping it from the program, or replacing it) ${giveBack}`
      : `destroying it (\`pulumi destroy\`, dropping it from the program, or replacing it) removes ${who} from ` +
          `organization ${inputs.orgId} when they joined through ${invitation} (this stack's), ` +
          "and only a new invitation brings them back; otherwise it " +
          giveBack;
  },
  /** A replacement gives the old member's role back, or removes a member this stack invited: the preview says so. */
  review(olds, news) {
    const moved = WHO.filter(
      (key) => news[key] !== undefined && !isUnknown(news[key]) && !sameValue(news[key], olds[key]),
    );
    if (moved.length === 0) return undefined;
    return `changing ${moved.join(", ")} ${onDestroy(olds)}`;
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
    const joined = await joinedThrough(client, inputs, found);
    const who = found.user?.email ?? found.member.user_id;
    const since = found.member.joined_at === undefined ? "" : ` since ${found.member.joined_at}`;
    hostLine(
      joined
        ? `${who} joined organization ${inputs.orgId} through invitation ${inputs.invitationId}, this stack's: this ` +
            "resource takes the membership and removes the member when it is destroyed"
        : `${who} has been a member of organization ${inputs.orgId}${since} as ${found.member.role}: this resource ` +
            `takes the membership, and destroying it gives back the role ${found.member.role} (the member stays)`,
    );
    const outs = outputsOf(inputs, found, joined ? undefined : found.member.role);
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
    // An imported member was there before the stack: destroying it gives back the role it has now.
    return outputsOf(inputs, found, found.member.role);
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

  /**
   * Gives back the role found, leaving the member; removes only a member who joined through this
   * stack's invitation. A state recorded before roles were given back has neither: the member stays as is.
   */
  async remove({ client }, id, props) {
    if (props.foundRole !== undefined) {
      const member = await client.getOrgMember(props.orgId, id);
      if (member.role !== props.foundRole) await client.setOrgMemberRole(props.orgId, id, props.foundRole);
      hostLine(
        `${props.email} stays a member of organization ${props.orgId}, with the role ${props.foundRole} again`,
      );
      return;
    }
    if (props.invitationId === undefined) {
      hostLine(
        `${props.email} stays a member of organization ${props.orgId} as they are: the state does not record the role ` +
          "the resource found",
      );
      return;
    }
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

/** What destroying the resource does to the member, for the preview of a replacement. */
function onDestroy(olds: OrganizationMemberOutputs): string {
  return olds.foundRole !== undefined
    ? `gives ${olds.email} the role ${olds.foundRole} back in organization ${olds.orgId} (they stay a member)`
    : olds.invitationId !== undefined
      ? `removes ${olds.email} from organization ${olds.orgId}, who comes back only through a new invitation`
      : `leaves ${olds.email} in organization ${olds.orgId} as they are`;
}

/** Whether the member joined through the invitation `invitationId` names (the stack's): one for their email. */
async function joinedThrough(
  client: CloudDbClient,
  inputs: OrganizationMemberInputs,
  found: OrgMember,
): Promise<boolean> {
  if (inputs.invitationId === undefined) return false;
  const invitation = (await client.listOrgInvitations(inputs.orgId)).find(
    (i) => i.id === inputs.invitationId,
  );
  const email = found.user?.email;
  if (invitation === undefined || email === undefined || !sameEmail(invitation.email, email)) return false;
  // A member since before the invitation was sent did not join through it; one of unknown date is kept.
  const joined = found.member.joined_at === undefined ? Number.NaN : Date.parse(found.member.joined_at);
  return !Number.isNaN(joined) && joined >= Date.parse(invitation.invited_at);
}

function outputsOf(
  inputs: OrganizationMemberInputs,
  found: OrgMember,
  foundRole: string | undefined,
): OrganizationMemberOutputs {
  return {
    ...declaredInputs<OrganizationMemberInputs>(OrganizationMemberInputsSchema, inputs),
    orgId: inputs.orgId,
    memberId: found.member.id,
    userId: found.member.user_id,
    email: found.user?.email ?? inputs.email ?? "",
    role: found.member.role,
    ...(found.member.joined_at === undefined ? {} : { joinedAt: found.member.joined_at }),
    ...(foundRole === undefined ? {} : { foundRole }),
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(
  organizationMemberDefinition,
);
