/**
 * The public part of {@link OrganizationInvitation}: its declaration, and the class and types derived
 * from it. The definition (inputs schema, API calls) is `../organizationInvitation.ts`, loaded only
 * in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, STRING } from "./declare";
import { MEMBER_ROLE } from "./organizationMember";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** An invitation to join an organization, declared. An invitation cannot be edited: every input replaces it. */
export const ORGANIZATION_INVITATION = declareResource({
  type: "OrganizationInvitation",
  noun: "organization invitation",
  family: "organizations",
  importId: ["orgId", "invitationId"],
  inputs: {
    /** The organization to join. Changing it sends a new invitation. */
    orgId: { type: STRING, required: true, change: "replace" },
    /** The email invited (compared without regard to case). Changing it sends a new invitation. */
    email: { type: STRING, required: true, change: "replace" },
    /** The role the user joins with, `admin` or `member`. Changing it sends a new invitation (to a user who has not joined yet). */
    role: { type: MEMBER_ROLE, required: true, change: "replace" },
    /** The id of an invitation already sent to `email` to take under management instead of sending another. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The organization id. */
    orgId: { type: STRING },
    /** The invitation's id. */
    invitationId: { type: STRING },
    /** The email invited, as the API recorded it. */
    email: { type: STRING },
    /** The role the user joins with (a string: the service has more roles than these two). */
    role: { type: STRING },
    /** The user id of who sent the invitation. */
    invitedBy: { type: STRING },
    /** When the invitation was sent, ISO 8601 UTC. */
    invitedAt: { type: STRING },
  },
});

/** Inputs of an {@link OrganizationInvitation}. */
export interface OrganizationInvitationArgs extends ArgsOf<typeof ORGANIZATION_INVITATION> {}

/** The plain inputs as the provider sees them. */
export interface OrganizationInvitationInputs extends InputsOf<typeof ORGANIZATION_INVITATION> {}

/** Everything the state records of an invitation. */
export interface OrganizationInvitationOutputs extends StateOf<typeof ORGANIZATION_INVITATION> {}

/** The dynamic provider of {@link OrganizationInvitation}: it loads `../organizationInvitation` when called (see `lazyProvider`). */
export const organizationInvitationProvider: pulumi.dynamic.ResourceProvider<
  OrganizationInvitationInputs,
  OrganizationInvitationOutputs
> = lazyProvider(ORGANIZATION_INVITATION.type);

// The class's fields: one Output per declared output.
export interface OrganizationInvitation extends OutputFields<typeof ORGANIZATION_INVITATION> {}

/**
 * An invitation to join an organization with a role, sent to an email. A user who has an account
 * joins at once; one who has not is asked to make one. The API has no way to withdraw an
 * invitation: destroying the resource only forgets it (the run's output says so), and a member who
 * joined through it stays (an `OrganizationMember` given its `invitationId` removes them). Only the organization's admins or
 * its own API key invite. `pulumi import` takes `<orgId>/<invitationId>` or `<orgId>/<email>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class OrganizationInvitation extends DynamicResource {
  constructor(name: string, args: OrganizationInvitationArgs, opts?: pulumi.CustomResourceOptions) {
    super(ORGANIZATION_INVITATION, name, args, opts);
  }
}
