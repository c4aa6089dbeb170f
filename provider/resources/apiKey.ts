import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "./lazyProvider";
import { moduleRef } from "./moduleRef";

/** Inputs of an {@link ApiKey}. The kind follows the contract: no `orgId` is a personal key. */
export interface ApiKeyArgs {
  /** Descriptive name, 1 to 64 characters. Changing it rotates the key (keys cannot be edited). */
  name: pulumi.Input<string>;
  /** Organization id: with it the key is an organization key (admins only), or project-scoped with `projectId`. */
  orgId?: pulumi.Input<string>;
  /** Organization-owned project the key is limited to (member-level access). Requires `orgId`. */
  projectId?: pulumi.Input<string>;
  /** Any string; changing it rotates the key: a new key is created first, then the old one revoked. */
  rotationTrigger?: pulumi.Input<string>;
}

/** The plain inputs as the provider sees them. */
export interface ApiKeyInputs {
  name: string;
  orgId?: string;
  projectId?: string;
  rotationTrigger?: string;
}

/** Which of the contract's three kinds of key this is. */
export type ApiKeyKind = "personal" | "organization" | "project";

/** Everything the state records of a key (inputs included). `key` is a Pulumi secret. */
export interface ApiKeyOutputs extends ApiKeyInputs {
  keyId: number;
  key: string;
  kind: ApiKeyKind;
  createdAt: string | null;
  createdBy: string | null;
  lastUsedAt: string | null;
  lastUsedFromAddr: string | null;
  revoked: boolean;
}

/**
 * The dynamic provider of {@link ApiKey}: it loads `apiKeyMethods` when called (see `lazyProvider`).
 */
export const apiKeyProvider: pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs> = lazyProvider(
  moduleRef(require.resolve("./apiKeyMethods")),
);

/**
 * An API key of the Cloud Database Control API: personal (no `orgId`), organization (`orgId`) or
 * project-scoped (`orgId` + `projectId`). Deleting it revokes it. The token is returned once by
 * the API and kept in the state as a secret (`key`).
 */
export class ApiKey extends pulumi.dynamic.Resource {
  /** The key's numeric id (used to revoke it). */
  declare readonly keyId: pulumi.Output<number>;
  /** The token, `napi_...`: a Pulumi secret. */
  declare readonly key: pulumi.Output<string>;
  /** The name given at creation. */
  declare readonly name: pulumi.Output<string>;
  /** `personal`, `organization` or `project`. */
  declare readonly kind: pulumi.Output<ApiKeyKind>;
  /** The organization of an organization or project-scoped key. */
  declare readonly orgId: pulumi.Output<string | undefined>;
  /** The project of a project-scoped key. */
  declare readonly projectId: pulumi.Output<string | undefined>;
  /** The value that last rotated the key. */
  declare readonly rotationTrigger: pulumi.Output<string | undefined>;
  /** Creation time, ISO 8601 UTC. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The user who created the key. */
  declare readonly createdBy: pulumi.Output<string | null>;
  /** Last use, as of the last create or refresh. */
  declare readonly lastUsedAt: pulumi.Output<string | null>;
  /** Address of the last use, as of the last create or refresh. */
  declare readonly lastUsedFromAddr: pulumi.Output<string | null>;
  /** Whether the key is revoked (a revoked key leaves the state on refresh). */
  declare readonly revoked: pulumi.Output<boolean>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    // Every declared output is seeded (optional inputs included), so each is an Output on the object.
    const props = {
      ...args,
      orgId: args.orgId,
      projectId: args.projectId,
      rotationTrigger: args.rotationTrigger,
      keyId: undefined,
      key: undefined,
      kind: undefined,
      createdAt: undefined,
      createdBy: undefined,
      lastUsedAt: undefined,
      lastUsedFromAddr: undefined,
      revoked: undefined,
    };
    const secret = ["key", ...(opts?.additionalSecretOutputs ?? [])];
    super(apiKeyProvider, name, props, { ...opts, additionalSecretOutputs: secret }, "clouddb", "ApiKey");
  }
}
