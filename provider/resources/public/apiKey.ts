/**
 * The public part of {@link ApiKey}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../apiKey.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, enumOf, INTEGER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf, ValueOf } from "./shapes";

/** The kind of an API key: `personal`, `organization` or `project`-scoped. */
const API_KEY_KIND = enumOf("ApiKeyKind", ["personal", "organization", "project"]);

/** Which of the three kinds of key this is. */
export type ApiKeyKind = ValueOf<typeof API_KEY_KIND>;

/** An API key, declared. Keys cannot be edited: every input picks the object, so any change creates a new key first. */
export const API_KEY = declareResource({
  type: "ApiKey",
  noun: "API key",
  family: "apiKeys",
  inputs: {
    /** Descriptive name, 1 to 64 characters. Changing it rotates the key (keys cannot be edited). */
    name: { type: STRING, required: true, change: "replace" },
    /** Organization id: with it the key is an organization key (admins only), or project-scoped with `projectId`. */
    orgId: { type: STRING, change: "replace" },
    /** Organization-owned project the key is limited to (member-level access). Requires `orgId`. */
    projectId: { type: STRING, change: "replace" },
    /** Any string; changing it rotates the key: a new key is created first, then the old one revoked. */
    rotationTrigger: { type: STRING, change: "replace" },
  },
  outputs: {
    /** The key's numeric id (used to revoke it). */
    keyId: { type: INTEGER },
    /** The token, `napi_...`: a Pulumi secret. */
    key: { type: STRING, secret: true },
    /** The name given at creation. */
    name: { type: STRING },
    /** `personal`, `organization` or `project`. */
    kind: { type: API_KEY_KIND },
    /** The organization of an organization or project-scoped key. */
    orgId: { type: STRING, optional: true },
    /** The project of a project-scoped key. */
    projectId: { type: STRING, optional: true },
    /** The value that last rotated the key. */
    rotationTrigger: { type: STRING, optional: true },
    /** Creation time, ISO 8601 UTC. */
    createdAt: { type: STRING, nullable: true },
    /** The user who created the key. */
    createdBy: { type: STRING, nullable: true },
    /** Last use, as of the last create or refresh. */
    lastUsedAt: { type: STRING, nullable: true },
    /** Address of the last use, as of the last create or refresh. */
    lastUsedFromAddr: { type: STRING, nullable: true },
    /** Whether the key is revoked (a revoked key leaves the state on refresh). */
    revoked: { type: BOOLEAN },
  },
});

/** Inputs of an {@link ApiKey}. */
export interface ApiKeyArgs extends ArgsOf<typeof API_KEY> {}

/** The plain inputs as the provider sees them. The kind follows from them: no `orgId` is a personal key. */
export interface ApiKeyInputs extends InputsOf<typeof API_KEY> {}

/** Everything the state records of a key (inputs included). `key` is a Pulumi secret. */
export interface ApiKeyOutputs extends StateOf<typeof API_KEY> {}

/** The dynamic provider of {@link ApiKey}: it loads the kind's methods when called (see `lazyProvider`). */
export const apiKeyProvider: pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs> = lazyProvider(
  API_KEY.type,
);

// The class's fields: one Output per declared output.
export interface ApiKey extends OutputFields<typeof API_KEY> {}

/**
 * An API key of the Cloud Database Control API: personal (no `orgId`), organization (`orgId`) or
 * project-scoped (`orgId` + `projectId`). Deleting it revokes it. The token is returned once by
 * the API and kept in the state as a secret (`key`).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class ApiKey extends DynamicResource {
  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(API_KEY, name, args, opts);
  }
}
