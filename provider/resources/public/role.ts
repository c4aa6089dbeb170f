/**
 * The public part of {@link Role}: what a program declares and reads. The definition (inputs
 * schema, change table, API calls) is `../role.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";
import type { LifecycleInputs } from "./common";
/** The plain inputs as the provider sees them. */
export interface RoleInputs extends LifecycleInputs {
  projectId: string;
  branchId: string;
  /** Left out, `check` generates one from the resource's name and create key. */
  name?: string | undefined;
  passwordResetTrigger?: string | undefined;
}

/** Everything the state records of a role. `password` is a Pulumi secret. */
export interface RoleOutputs extends RoleInputs {
  name: string;
  /** The password, as last set by a create or reset; empty until one is received. */
  password: string;
  protected: boolean;
  createdAt: string | null;
  operationIds: string[];
  pendingOperationIds: string[];
}

/** Outputs kept as Pulumi secrets. */
export const ROLE_SECRETS = ["password"] as const satisfies readonly (keyof RoleOutputs)[];

/** Inputs of a {@link Role}. */
export interface RoleArgs {
  /** The project of the branch. Changing it replaces the role. */
  projectId: pulumi.Input<string>;
  /** The branch the role belongs to. Changing it replaces the role. */
  branchId: pulumi.Input<string>;
  /**
   * The Postgres role name (at most 63 bytes). Omit it for a generated one (the resource's name and
   * a short mark, shown by the preview), which a run after a killed one finds again. Changing it replaces the role.
   */
  name?: pulumi.Input<string>;
  /** Any string; changing it resets the password in place. */
  passwordResetTrigger?: pulumi.Input<string>;
  /** The name of an existing role on the branch to take under management (it must equal `name`). */
  adoptExisting?: pulumi.Input<string>;
  /** When true, deleting the role fails until it is set back to false. */
  deleteProtection?: pulumi.Input<boolean>;
  /** Bounds on operation waits, in seconds. */
  timeouts?: pulumi.Input<{ create?: number; update?: number; delete?: number }>;
}

const ROLE_METHODS = moduleRef(require.resolve("../roleMethods"));

/** The dynamic provider of {@link Role}: it loads `roleMethods` when called (see `lazyProvider`). */
export const roleProvider: pulumi.dynamic.ResourceProvider<RoleInputs, RoleOutputs> =
  lazyProvider(ROLE_METHODS);

const ROLE: ResourceKind = {
  type: "Role",
  methods: ROLE_METHODS,
  outputs: [
    "projectId",
    "branchId",
    "name",
    "password",
    "protected",
    "createdAt",
    "operationIds",
    "pendingOperationIds",
  ] satisfies (keyof RoleOutputs)[],
  secrets: ROLE_SECRETS,
};

/** A Postgres role on a branch; its password is a Pulumi secret, rotated by `passwordResetTrigger`. */
export class Role extends DynamicResource {
  /** The project id. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch id. */
  declare readonly branchId: pulumi.Output<string>;
  /** The role name. */
  declare readonly name: pulumi.Output<string>;
  /** The password: a Pulumi secret. */
  declare readonly password: pulumi.Output<string>;
  /** Whether the platform protects the role. */
  declare readonly protected: pulumi.Output<boolean>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(ROLE, name, args, opts);
  }
}
