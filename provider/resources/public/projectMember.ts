/**
 * The public part of {@link ProjectMember}: its declaration, and the class and types derived from
 * it. The definition (inputs schema, API calls) is `../projectMember.ts`, loaded only in the
 * provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, enumOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A member's explicit role on a project: `viewer`, `editor` or `admin`. */
export const PROJECT_ROLE = enumOf("ProjectRole", ["viewer", "editor", "admin"]);

/** An organization member's explicit role on one of its projects, declared. */
export const PROJECT_MEMBER = declareResource({
  type: "ProjectMember",
  noun: "project member role",
  family: "projectMembers",
  importId: ["projectId", "memberId"],
  inputs: {
    /** The project, owned by an organization. Changing it replaces the resource: the role on the old project is removed. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The organization member id (not the user id); give it or `email`. Changing it replaces the resource. */
    memberId: { type: STRING, change: "replace", computed: true },
    /** The member's email (compared without regard to case); give it or `memberId`. Changing it replaces the resource. */
    email: { type: STRING, change: "replace", computed: true },
    /** The member's explicit role on the project, `viewer`, `editor` or `admin`; changed in place. */
    role: { type: PROJECT_ROLE, required: true, change: "update" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The organization member id, the one the role routes take. */
    memberId: { type: STRING },
    /** The member's user id. */
    userId: { type: STRING },
    /** The member's email, as the API reports it. */
    email: { type: STRING },
    /** The explicit role, as the API last reported it. */
    role: { type: STRING },
    /** The member's role in the organization (`admin`, `member`, and more as the service adds them). */
    orgRole: { type: STRING },
    /** What the member holds on the project (`VIEWER`, `EDITOR`, `ADMIN`): an organization admin holds ADMIN whatever the role. */
    effectivePermission: { type: STRING, optional: true },
    /** The explicit role the member had when the resource took it, which destroying it sets back; absent when they had none, and destroying it removes the explicit role. */
    foundRole: { type: STRING, optional: true },
  },
});

/** Inputs of a {@link ProjectMember}. */
export interface ProjectMemberArgs extends ArgsOf<typeof PROJECT_MEMBER> {}

/** The plain inputs as the provider sees them. */
export interface ProjectMemberInputs extends InputsOf<typeof PROJECT_MEMBER> {}

/** Everything the state records of a member's project role. */
export interface ProjectMemberOutputs extends StateOf<typeof PROJECT_MEMBER> {}

/** The dynamic provider of {@link ProjectMember}: it loads `../projectMember` when called (see `lazyProvider`). */
export const projectMemberProvider: pulumi.dynamic.ResourceProvider<
  ProjectMemberInputs,
  ProjectMemberOutputs
> = lazyProvider(PROJECT_MEMBER.type);

// The class's fields: one Output per declared output.
export interface ProjectMember extends OutputFields<typeof PROJECT_MEMBER> {}

/**
 * An organization member's explicit role on one of the organization's projects. The member is
 * taken by member id or email (they join the organization by invitation); the role is set with one
 * PUT and changed in place. Destroying the resource gives back the explicit role the member had
 * when it was created (`foundRole`), or, when they had none, removes the explicit role, so the
 * member falls back to what their organization role gives by default. Only the organization's admins,
 * its own API key, or a member holding ADMIN on the project set roles. `pulumi import` takes
 * `<projectId>/<memberId>` or `<projectId>/<email>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class ProjectMember extends DynamicResource {
  constructor(name: string, args: ProjectMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(PROJECT_MEMBER, name, args, opts);
  }
}
