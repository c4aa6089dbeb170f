/**
 * The public part of {@link OrganizationMember}: its declaration, and the class and types derived
 * from it. The definition (inputs schema, API calls) is `../organizationMember.ts`, loaded only in
 * the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, enumOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A member's role in an organization: `admin` or `member`. */
export const MEMBER_ROLE = enumOf("MemberRole", ["admin", "member"]);

/** A user's membership of an organization, declared. */
export const ORGANIZATION_MEMBER = declareResource({
  type: "OrganizationMember",
  noun: "organization member",
  family: "organizations",
  importId: ["orgId", "memberId"],
  inputs: {
    /** The organization. Changing it replaces the resource: the user leaves the old organization. */
    orgId: { type: STRING, required: true, change: "replace" },
    /** The member's email (compared without regard to case); give it or `userId`. Changing it replaces the resource. */
    email: { type: STRING, change: "replace", computed: true },
    /** The member's user id; give it or `email`. Changing it replaces the resource. */
    userId: { type: STRING, change: "replace", computed: true },
    /** The member's role, `admin` or `member`; changed in place. The organization's last admin cannot be demoted. */
    role: { type: MEMBER_ROLE, required: true, change: "update" },
    /** The invitation this stack sent the user (an `OrganizationInvitation`'s `invitationId`): a member who joined through it is removed when the resource is destroyed. Read when the resource is created. */
    invitationId: { type: STRING, change: "ignore" },
    /** When true, deleting the resource fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
  },
  outputs: {
    /** The organization id. */
    orgId: { type: STRING },
    /** The membership's id, the one the member routes take (not the user's id). */
    memberId: { type: STRING },
    /** The member's user id. */
    userId: { type: STRING },
    /** The member's email, as the API reports it. */
    email: { type: STRING },
    /** The member's role, as the API last reported it (a string: the service has more roles than these two). */
    role: { type: STRING },
    /** When the user joined the organization, ISO 8601 UTC. */
    joinedAt: { type: STRING, optional: true },
    /** The role the member had when the resource took the membership, which destroying it sets back (the member stays); absent for a member who joined through `invitationId`, whom destroying it removes. */
    foundRole: { type: STRING, optional: true },
  },
});

/** Inputs of an {@link OrganizationMember}. */
export interface OrganizationMemberArgs extends ArgsOf<typeof ORGANIZATION_MEMBER> {}

/** The plain inputs as the provider sees them. */
export interface OrganizationMemberInputs extends InputsOf<typeof ORGANIZATION_MEMBER> {}

/** Everything the state records of a membership. */
export interface OrganizationMemberOutputs extends StateOf<typeof ORGANIZATION_MEMBER> {}

/** The dynamic provider of {@link OrganizationMember}: it loads `../organizationMember` when called (see `lazyProvider`). */
export const organizationMemberProvider: pulumi.dynamic.ResourceProvider<
  OrganizationMemberInputs,
  OrganizationMemberOutputs
> = lazyProvider(ORGANIZATION_MEMBER.type);

// The class's fields: one Output per declared output.
export interface OrganizationMember extends OutputFields<typeof ORGANIZATION_MEMBER> {}

/**
 * A user's membership of an organization, and their role in it. Users join by invitation (an
 * `OrganizationInvitation`, or the console), so the resource takes the membership of a user who has
 * joined, by email or user id, and sets its role in place. Destroying it gives back the role the
 * member had when it took the membership (`foundRole`), and the member stays; only a member who
 * joined through this stack's invitation (`invitationId`) is removed, which only a new invitation
 * undoes. Only the organization's admins or its own API key change roles and remove members. `pulumi import` takes `<orgId>/<memberId>`, `<orgId>/<email>`
 * or `<orgId>/<userId>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class OrganizationMember extends DynamicResource {
  constructor(name: string, args: OrganizationMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(ORGANIZATION_MEMBER, name, args, opts);
  }
}
