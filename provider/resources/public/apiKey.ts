/**
 * The public part of {@link ApiKey}: what a program declares and reads. The definition (inputs
 * schema, API calls) is `../apiKey.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { moduleRef } from "../lifecycle/moduleRef";
import { DynamicResource, type ResourceKind } from "../lifecycle/resource";

/** The plain inputs as the provider sees them. The kind follows from them: no `orgId` is a personal key. */
export interface ApiKeyInputs {
  name: string;
  orgId?: string | undefined;
  projectId?: string | undefined;
  rotationTrigger?: string | undefined;
}

/** Which of the three kinds of key this is. */
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

/** Outputs kept as Pulumi secrets: the token. */
export const API_KEY_SECRETS = ["key"] as const satisfies readonly (keyof ApiKeyOutputs)[];

/** Inputs of an {@link ApiKey}. */
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

const API_KEY_METHODS = moduleRef(require.resolve("../apiKeyMethods"));

/** The dynamic provider of {@link ApiKey}: it loads `apiKeyMethods` when called (see `lazyProvider`). */
export const apiKeyProvider: pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs> =
  lazyProvider(API_KEY_METHODS);

const API_KEY: ResourceKind = {
  type: "ApiKey",
  methods: API_KEY_METHODS,
  outputs: [
    "keyId",
    "key",
    "name",
    "kind",
    "orgId",
    "projectId",
    "rotationTrigger",
    "createdAt",
    "createdBy",
    "lastUsedAt",
    "lastUsedFromAddr",
    "revoked",
  ] satisfies (keyof ApiKeyOutputs)[],
  secrets: API_KEY_SECRETS,
};

/**
 * An API key of the Cloud Database Control API: personal (no `orgId`), organization (`orgId`) or
 * project-scoped (`orgId` + `projectId`). Deleting it revokes it. The token is returned once by
 * the API and kept in the state as a secret (`key`).
 */
export class ApiKey extends DynamicResource {
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
    super(API_KEY, name, args, opts);
  }
}
