/**
 * The public part of {@link Role}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../role.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { TIMEOUTS_INPUT } from "./common";
import { arrayOf, BOOLEAN, declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A Postgres role, declared. */
export const ROLE = declareResource({
  type: "Role",
  noun: "role",
  family: "roles",
  importId: ["projectId", "branchId", "name"],
  inputs: {
    /** The project of the branch. Changing it replaces the role. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the role belongs to. Changing it replaces the role. */
    branchId: { type: STRING, required: true, change: "replace" },
    /**
     * The Postgres role name (at most 63 bytes). Omit it for a generated one (the resource's name and
     * a short mark, shown by the preview), which a run after a killed one finds again. Changing it replaces the role.
     */
    name: { type: STRING, change: "replace" },
    /** Any string; changing it resets the password in place. */
    passwordResetTrigger: { type: STRING, change: "update" },
    /** A role that cannot log in and has no password (one that owns objects, say). Changing it replaces the role. */
    noLogin: { type: BOOLEAN, change: "replace" },
    /** The name of an existing role on the branch to take under management (it must equal `name`). */
    adoptExisting: { type: STRING, change: "ignore" },
    /** When true, deleting the role fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
    /** Bounds on operation waits, in seconds; default `clouddb:operationTimeoutSeconds`, else 20 minutes. */
    timeouts: TIMEOUTS_INPUT,
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The role name. */
    name: { type: STRING },
    /** The password, as last set by a create or reset: a Pulumi secret; empty until one is received, and for a `noLogin` role. */
    password: { type: STRING, secret: true },
    /** Whether the role cannot log in. */
    noLogin: { type: BOOLEAN, optional: true },
    /** Whether the platform protects the role. */
    protected: { type: BOOLEAN },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING, nullable: true },
    /** Ids of the operations the create started. */
    operationIds: { type: arrayOf(STRING) },
    /** Operations an earlier run stopped waiting for; the next `up` waits for them. */
    pendingOperationIds: { type: arrayOf(STRING) },
  },
});

/** Inputs of a {@link Role}. */
export interface RoleArgs extends ArgsOf<typeof ROLE> {}

/** The plain inputs as the provider sees them. */
export interface RoleInputs extends InputsOf<typeof ROLE> {}

/** Everything the state records of a role. `password` is a Pulumi secret. */
export interface RoleOutputs extends StateOf<typeof ROLE> {}

/** The dynamic provider of {@link Role}: it loads the kind's methods when called (see `lazyProvider`). */
export const roleProvider: pulumi.dynamic.ResourceProvider<RoleInputs, RoleOutputs> = lazyProvider(ROLE.type);

// The class's fields: one Output per declared output.
export interface Role extends OutputFields<typeof ROLE> {}

/** A Postgres role on a branch; its password is a Pulumi secret, rotated by `passwordResetTrigger`. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Role extends DynamicResource {
  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(ROLE, name, args, opts);
  }
}
