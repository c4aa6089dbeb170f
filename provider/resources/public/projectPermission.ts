/**
 * The public part of {@link ProjectPermission}: its declaration, and the class and types derived
 * from it. The definition (inputs schema, API calls) is `../projectPermission.ts`, loaded only in the
 * provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A project shared with an email, declared. A grant has nothing to change in place: both inputs replace it. */
export const PROJECT_PERMISSION = declareResource({
  type: "ProjectPermission",
  noun: "project permission",
  family: "permissions",
  importId: ["projectId", "permissionId"],
  inputs: {
    /** The project to share. Changing it replaces the grant. */
    projectId: { type: STRING, required: true, change: "replace" },
    /**
     * The email of the account the project is shared with (compared without regard to case). Changing
     * it replaces the grant: the new email gets one, then the old one's is revoked.
     */
    email: { type: STRING, required: true, change: "replace" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The email the project is shared with, as the API recorded it. */
    email: { type: STRING },
    /** The grant's id, the one `DELETE /projects/{project_id}/permissions/{permission_id}` revokes. */
    permissionId: { type: STRING },
    /** When the project was shared with the email, ISO 8601 UTC. */
    grantedAt: { type: STRING },
  },
});

/** Inputs of a {@link ProjectPermission}. */
export interface ProjectPermissionArgs extends ArgsOf<typeof PROJECT_PERMISSION> {}

/** The plain inputs as the provider sees them. */
export interface ProjectPermissionInputs extends InputsOf<typeof PROJECT_PERMISSION> {}

/** Everything the state records of a grant. */
export interface ProjectPermissionOutputs extends StateOf<typeof PROJECT_PERMISSION> {}

/** The dynamic provider of {@link ProjectPermission}: it loads `projectPermission` when called (see `lazyProvider`). */
export const projectPermissionProvider: pulumi.dynamic.ResourceProvider<
  ProjectPermissionInputs,
  ProjectPermissionOutputs
> = lazyProvider(PROJECT_PERMISSION.type);

// The class's fields: one Output per declared output.
export interface ProjectPermission extends OutputFields<typeof PROJECT_PERMISSION> {}

/**
 * A project shared with an email: the account of that email can then use the project (all but
 * deleting it) and finds it among the projects shared with it. A project has one grant per email:
 * one that already exists when the resource is created is taken as the resource's (a run after a
 * killed one finds its grant so), and destroying the resource revokes it. `pulumi import` takes
 * `<projectId>/<permissionId>` or `<projectId>/<email>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class ProjectPermission extends DynamicResource {
  constructor(name: string, args: ProjectPermissionArgs, opts?: pulumi.CustomResourceOptions) {
    super(PROJECT_PERMISSION, name, args, opts);
  }
}
