/**
 * The public part of {@link DataApi}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../dataApi.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { arrayOf, BOOLEAN, declareResource, enumOf, INTEGER, objectType, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf } from "./shapes";

/** Who signs the tokens the Data API accepts: the branch's own Auth, or an external provider's JWKS URL. */
export const DATA_API_AUTH_PROVIDER = enumOf("DataApiAuthProvider", ["neon_auth", "external"]);

/** The Data API's settings; a setting left out reads as the service's default. */
export const DATA_API_SETTINGS = objectType("DataApiSettings", {
  /** Whether aggregate functions may be used in queries (default true). */
  dbAggregatesEnabled: { type: BOOLEAN, optional: true },
  /** The database role anonymous requests run as (default `anonymous`). */
  dbAnonRole: { type: STRING, optional: true },
  /** Schemas added to the search path. */
  dbExtraSearchPath: { type: STRING, optional: true },
  /** The most rows one request returns. */
  dbMaxRows: { type: INTEGER, optional: true },
  /** The schemas exposed (default `["public"]`). */
  dbSchemas: { type: arrayOf(STRING), optional: true },
  /** The JWT claim the role is read from (default `.role`). */
  jwtRoleClaimKey: { type: STRING, optional: true },
  /** How long a checked JWT is cached, in seconds. */
  jwtCacheMaxLifetime: { type: INTEGER, optional: true },
  /** The OpenAPI description it serves: `disabled` (default) or `ignore-privileges`. */
  openapiMode: { type: STRING, optional: true },
  /** The origins CORS allows. */
  serverCorsAllowedOrigins: { type: STRING, optional: true },
  /** Whether responses carry Server-Timing headers. */
  serverTimingEnabled: { type: BOOLEAN, optional: true },
});

/** The Data API's settings, in the inputs' names. */
export interface DataApiSettings extends ObjectOf<typeof DATA_API_SETTINGS.properties> {}

/** The Data API on one database of a branch, declared. */
export const DATA_API = declareResource({
  type: "DataApi",
  noun: "Data API",
  family: "dataApi",
  importId: ["projectId", "branchId", "databaseName"],
  inputs: {
    /** The project of the branch. Changing it replaces the resource. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch; it needs a read-write compute for the Data API to answer on. Changing it replaces the resource. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The database the Data API serves. Changing it replaces the resource. */
    databaseName: { type: STRING, required: true, change: "replace" },
    /** `neon_auth` (the branch's Auth) or `external` (a provider's `jwksUrl`); left out, `external` with a `jwksUrl` and `neon_auth` without. Changing it replaces the resource. */
    authProvider: { type: DATA_API_AUTH_PROVIDER, change: "replace", computed: true },
    /** The HTTPS URL of the external provider's JSON Web Key Set. Changing it replaces the resource. */
    jwksUrl: { type: STRING, change: "replace" },
    /** The external provider's name (Clerk, Auth0, ...). Changing it replaces the resource. */
    providerName: { type: STRING, change: "replace" },
    /** The `aud` claim tokens must carry (tokens without one are still accepted). Changing it replaces the resource. */
    jwtAudience: { type: STRING, change: "replace" },
    /** Grant authenticated users every permission on the public schema's tables when enabled. Changing it replaces the resource. */
    addDefaultGrants: { type: BOOLEAN, change: "replace" },
    /** Skip creating the `auth` schema and its RLS functions when enabled. Changing it replaces the resource. */
    skipAuthSchema: { type: BOOLEAN, change: "replace" },
    /** Its settings; changed in place (a setting removed goes back to its default). */
    settings: { type: DATA_API_SETTINGS, change: "update" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The database name. */
    databaseName: { type: STRING },
    /** The Data API's REST URL. */
    url: { type: STRING },
    /** Its deployment status, as the API reports it. */
    status: { type: STRING },
  },
});

/** Inputs of a {@link DataApi}. */
export interface DataApiArgs extends ArgsOf<typeof DATA_API> {}

/** The plain inputs as the provider sees them. */
export interface DataApiInputs extends InputsOf<typeof DATA_API> {}

/** Everything the state records of a Data API. */
export interface DataApiOutputs extends StateOf<typeof DATA_API> {}

/** The dynamic provider of {@link DataApi}: it loads `../dataApi` when called (see `lazyProvider`). */
export const dataApiProvider: pulumi.dynamic.ResourceProvider<DataApiInputs, DataApiOutputs> = lazyProvider(
  DATA_API.type,
);

// The class's fields: one Output per declared output.
export interface DataApi extends OutputFields<typeof DATA_API> {}

/**
 * The Data API on one database of a branch: a REST interface over it, at `url`, checking tokens
 * from the branch's Auth or an external provider's JWKS URL. Its settings change in place; its
 * authentication and the database it serves do not, so changing them replaces it. `pulumi import`
 * takes `<projectId>/<branchId>/<databaseName>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class DataApi extends DynamicResource {
  constructor(name: string, args: DataApiArgs, opts?: pulumi.CustomResourceOptions) {
    super(DATA_API, name, args, opts);
  }
}
