import { z } from "zod";
import type { CloudDbClient, Invitation } from "../client";
import { isConflict, NotFoundError } from "../client/errors";
import { governanceFind } from "./finds";
import { hostLine } from "./host/progress";
import { adoptInput, idInput } from "./inputs/common";
import { emailInput, sameEmail } from "./inputs/email";
import { adoptLive } from "./lifecycle/adoption";
import { isUnknown } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  ORGANIZATION_INVITATION,
  type OrganizationInvitationInputs,
  type OrganizationInvitationOutputs,
} from "./public/organizationInvitation";
import { MEMBER_ROLE } from "./public/organizationMember";

export type {
  OrganizationInvitationInputs,
  OrganizationInvitationOutputs,
} from "./public/organizationInvitation";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const OrganizationInvitationInputsSchema = z.object({
  orgId: idInput("orgId", "organization", "the organization to invite to (org-...)"),
  email: emailInput("email is required: the email to invite"),
  role: z.enum(MEMBER_ROLE.enum, { error: `role is one of ${MEMBER_ROLE.enum.join(", ")}` }),
  adoptExisting: adoptInput("invitation (its id)"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof OrganizationInvitationInputsSchema>, OrganizationInvitationInputs>;

// ---------------------------------------------------------------- API calls

/**
 * An invitation to join an organization (docs/api-rules.md §17): sent with one POST, read from the
 * organization's list. The API has no route to withdraw one, so a delete changes nothing there and
 * says so; a replacement sends a new invitation. An email already a member's is refused (409): a
 * create that meets it takes the invitation for that email with the declared role when the list
 * has one (a killed run's, or a lost answer's, whose user joined at once), and otherwise fails
 * saying the user is a member.
 */
export const organizationInvitationDefinition = defineResource<
  OrganizationInvitationInputs,
  OrganizationInvitationOutputs
>(ORGANIZATION_INVITATION, {
  inputs: OrganizationInvitationInputsSchema,
  same: {
    email: (news, olds) => typeof olds === "string" && sameEmail(news, olds),
  },
  id: (outs) => outs.invitationId,
  finds: (inputs) => [governanceFind("orgId", inputs.orgId, "invite members")],

  noteAtCreate: (inputs) =>
    isUnknown(inputs.email) || isUnknown(inputs.orgId)
      ? undefined
      : `the API cannot withdraw an invitation: once sent, the invitation of ${inputs.email} to organization ` +
        `${inputs.orgId} stays when this stack destroys or replaces the resource, and so does their membership once ` +
        "they join (an OrganizationMember given this invitation's invitationId removes them)",

  /** A replacement sends a new invitation and cannot withdraw the old one: the preview says so. */
  review(olds, news) {
    const changed = (["orgId", "email", "role"] as const).filter(
      (key) =>
        !isUnknown(news[key]) &&
        !(key === "email" ? sameEmail(news.email, olds.email) : news[key] === olds[key]),
    );
    if (changed.length === 0) return undefined;
    return (
      `changing ${changed.join(", ")} sends a new invitation; the invitation of ${olds.email} to organization ` +
      `${olds.orgId} as ${olds.role} stays, since the API cannot withdraw one`
    );
  },

  async create({ client }, inputs) {
    try {
      const [made] = await client.inviteOrgMembers(inputs.orgId, [
        { email: inputs.email, role: inputs.role },
      ]);
      if (made === undefined) throw new Error(`the API answered the invitation of ${inputs.email} with none`);
      return outputsOf(made);
    } catch (err) {
      if (!isConflict(err)) throw err;
      const found = await invitationFor(client, inputs);
      if (found === undefined || found.role !== inputs.role) throw err;
      hostLine(
        `${found.email} was invited to organization ${inputs.orgId} as ${found.role} (at ${found.invited_at}) and has ` +
          "joined: this resource takes that invitation",
      );
      return outputsOf(found);
    }
  },

  /** The invitation the lost answer was about: the latest for the email, with the declared role. */
  async findLost({ client }, inputs) {
    const found = await invitationFor(client, inputs).catch(() => undefined);
    return found === undefined || found.role !== inputs.role ? undefined : outputsOf(found);
  },

  async adopt(step, inputs, id): Promise<OrganizationInvitationOutputs> {
    const live = await existing(step.client, inputs.orgId, id);
    return adoptLive(organizationInvitationDefinition, step, inputs, id, live);
  },

  /** The organization's invitation `idOrEmail`: an invitation id, or the email invited. */
  readExisting: ({ client }, inputs, idOrEmail) => existing(client, inputs.orgId, idOrEmail),

  /** The invitation by id; one a later invitation for the email replaced is gone. */
  async read({ client }, id, props) {
    if (props === undefined) return undefined;
    const found = (await client.listOrgInvitations(props.orgId)).find((i) => i.id === id);
    return found === undefined ? undefined : { ...props, ...outputsOf(found) };
  },

  /** No route withdraws an invitation: the resource is forgotten, the invitation stays. */
  async remove(_step, _id, props) {
    hostLine(
      `the invitation of ${props.email} to organization ${props.orgId} stays: the API cannot withdraw an invitation ` +
        "(an OrganizationMember given its invitationId removes a member who joined through it)",
    );
  },
});

/** The organization's latest invitation for the inputs' email, if any. */
async function invitationFor(
  client: CloudDbClient,
  inputs: OrganizationInvitationInputs,
): Promise<Invitation | undefined> {
  const invitations = await client.listOrgInvitations(inputs.orgId);
  return invitations.filter((i) => sameEmail(i.email, inputs.email)).at(-1);
}

/** The organization's invitation `idOrEmail` as the state would record it; 404 when there is none. */
async function existing(
  client: CloudDbClient,
  orgId: string,
  idOrEmail: string,
): Promise<OrganizationInvitationOutputs> {
  const invitations = await client.listOrgInvitations(orgId);
  const found =
    invitations.find((i) => i.id === idOrEmail) ??
    invitations.filter((i) => sameEmail(i.email, idOrEmail)).at(-1);
  if (found === undefined) {
    throw new NotFoundError(
      `organization ${orgId} has no invitation ${JSON.stringify(idOrEmail)}: give an invitation id or an invited email`,
    );
  }
  return outputsOf(found);
}

function outputsOf(found: Invitation): OrganizationInvitationOutputs {
  return {
    orgId: found.org_id,
    invitationId: found.id,
    email: found.email,
    role: found.role,
    invitedBy: found.invited_by,
    invitedAt: found.invited_at,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(
  organizationInvitationDefinition,
);
