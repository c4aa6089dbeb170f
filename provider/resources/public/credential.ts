/**
 * The public part of {@link Credential}: its declaration, and the class and types derived from it.
 * The definition (inputs schema, API calls) is `../credential.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { arrayOf, declareResource, enumOf, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf, ValueOf } from "./shapes";

/** A capability a credential may exercise. */
export const CREDENTIAL_SCOPE = enumOf("CredentialScope", [
  "storage:read",
  "storage:write",
  "ai_gateway:invoke",
  "functions:invoke",
]);

/** One of a credential's capabilities. */
export type CredentialScope = ValueOf<typeof CREDENTIAL_SCOPE>;

/** A scoped service credential of a branch, declared. Credentials cannot be edited: every input picks the object. */
export const CREDENTIAL = declareResource({
  type: "Credential",
  noun: "credential",
  family: "credentials",
  importId: ["projectId", "branchId", "tokenId"],
  inputs: {
    /** The project of the branch. Changing it issues a new credential there and revokes this one. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the credential is anchored to (br-...). Changing it issues a new credential there and revokes this one. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** A label, at most 256 characters. Changing it issues a new credential (credentials cannot be edited). */
    name: { type: STRING, change: "replace" },
    /** What the credential may do: `storage:read`, `storage:write`, `ai_gateway:invoke`, `functions:invoke`. Changing them issues a new credential. */
    scopes: { type: arrayOf(CREDENTIAL_SCOPE), required: true, change: "replace" },
    /** Any string; changing it rotates the credential: a new one is issued first, then the old one revoked. */
    rotationTrigger: { type: STRING, change: "replace" },
    /** The token id (nak_live_...) of a live credential of the branch to take under management instead of issuing one. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The credential's id, `nak_live_<32 hex>`; also its S3 access key id. */
    tokenId: { type: STRING },
    /** The first 12 hex characters of the id, safe to log. */
    tokenIdShort: { type: STRING },
    /** The bearer token: a Pulumi secret. */
    apiToken: { type: STRING, secret: true },
    /** The S3 secret access key, `nsk_live_...`: a Pulumi secret. */
    s3SecretAccessKey: { type: STRING, secret: true },
    /** The label given. */
    name: { type: STRING, optional: true },
    /** The scopes granted. */
    scopes: { type: arrayOf(STRING) },
    /** The value that last rotated the credential. */
    rotationTrigger: { type: STRING, optional: true },
    /** Issue time, ISO 8601 UTC. */
    createdAt: { type: STRING },
    /** Last use, as of the last create or refresh. */
    lastUsedAt: { type: STRING, nullable: true },
  },
});

/** Inputs of a {@link Credential}. */
export interface CredentialArgs extends ArgsOf<typeof CREDENTIAL> {}

/** The plain inputs as the provider sees them. */
export interface CredentialInputs extends InputsOf<typeof CREDENTIAL> {}

/** Everything the state records of a credential (inputs included). `apiToken` and `s3SecretAccessKey` are Pulumi secrets. */
export interface CredentialOutputs extends StateOf<typeof CREDENTIAL> {}

/** The dynamic provider of {@link Credential}: it loads `../credential` when called (see `lazyProvider`). */
export const credentialProvider: pulumi.dynamic.ResourceProvider<CredentialInputs, CredentialOutputs> =
  lazyProvider(CREDENTIAL.type);

// The class's fields: one Output per declared output.
export interface Credential extends OutputFields<typeof CREDENTIAL> {}

/**
 * A scoped service credential of a branch: a bearer token and an S3 key pair that the branch's
 * storage, functions and AI gateway accept for the scopes granted, and the control API does not.
 * Deleting it revokes it. Changing `rotationTrigger` rotates it create-before-revoke: the new
 * credential exists before the old one stops working. `pulumi import` takes
 * `<projectId>/<branchId>/<tokenId>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Credential extends DynamicResource {
  constructor(name: string, args: CredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(CREDENTIAL, name, args, opts);
  }
}
