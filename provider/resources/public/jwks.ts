/**
 * The public part of {@link Jwks}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../jwks.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { arrayOf, declareResource, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** A JWKS URL a project trusts, declared. */
export const JWKS = declareResource({
  type: "Jwks",
  noun: "JWKS URL",
  family: "dataApi",
  importId: ["projectId", "jwksId"],
  inputs: {
    /** The project that trusts the key set. Changing it replaces the resource. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The HTTPS URL of the JSON Web Key Set. The API has no update: changing it replaces the resource. */
    jwksUrl: { type: STRING, required: true, change: "replace" },
    /** The authentication provider's name (Clerk, Auth0, Stytch, ...). Changing it replaces the resource. */
    providerName: { type: STRING, required: true, change: "replace" },
    /** The one branch the key set applies to; left out, every branch of the project. Changing it replaces the resource. */
    branchId: { type: STRING, change: "replace" },
    /** The `aud` claim the tokens must carry. Changing it replaces the resource. */
    jwtAudience: { type: STRING, change: "replace" },
    /** The roles the key set maps to (deprecated by the service, for its RLS only); left out, `authenticator`, `authenticated`, `anonymous`. Changing them replaces the resource. */
    roleNames: { type: arrayOf(STRING), change: "replace", computed: true },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The key set's id in the project. */
    jwksId: { type: STRING },
    /** The JWKS URL, as the API reports it. */
    jwksUrl: { type: STRING },
    /** The provider's name, as the API reports it. */
    providerName: { type: STRING },
    /** The roles the key set maps to. */
    roleNames: { type: arrayOf(STRING) },
    /** When the key set was added (ISO 8601). */
    createdAt: { type: STRING },
  },
});

/** Inputs of a {@link Jwks}. */
export interface JwksArgs extends ArgsOf<typeof JWKS> {}

/** The plain inputs as the provider sees them. */
export interface JwksInputs extends InputsOf<typeof JWKS> {}

/** Everything the state records of a JWKS URL. */
export interface JwksOutputs extends StateOf<typeof JWKS> {}

/** The dynamic provider of {@link Jwks}: it loads `../jwks` when called (see `lazyProvider`). */
export const jwksProvider: pulumi.dynamic.ResourceProvider<JwksInputs, JwksOutputs> = lazyProvider(JWKS.type);

// The class's fields: one Output per declared output.
export interface Jwks extends OutputFields<typeof JWKS> {}

/**
 * A JWKS URL a project trusts for the JWTs its endpoints and Data API accept: an authentication
 * provider's key set, for every branch or one. The API adds and removes key sets and changes none,
 * so every change replaces it. `pulumi import` takes `<projectId>/<jwksId>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Jwks extends DynamicResource {
  constructor(name: string, args: JwksArgs, opts?: pulumi.CustomResourceOptions) {
    super(JWKS, name, args, opts);
  }
}
