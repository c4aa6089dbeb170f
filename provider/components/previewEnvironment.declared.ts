/**
 * The declaration of {@link PreviewEnvironment} (a component: its class is in
 * `provider/resources/public/previewEnvironment.ts`, what it makes in `./previewEnvironment.ts`).
 */
import { MASKING_RULE } from "../resources/public/branch";
import { COMPUTE_SETTINGS_TYPE } from "../resources/public/common";
import { arrayOf, BOOLEAN, declareComponent, enumOf, objectType, STRING } from "../resources/public/declare";
import { APPLIED_MIGRATION } from "../resources/public/migrations";
import { ROLE_ACCESS } from "../resources/public/roleGrants";
import type { ArgsOf } from "../resources/public/shapes";

/** What a preview's branch holds of its parent's data. */
export const PREVIEW_DATA = enumOf("PreviewData", ["schema-only", "data", "anonymized"]);

/** The role an application runs as. */
export const PREVIEW_RUNTIME = objectType("PreviewRuntime", {
  /** The role's name; default `app`. */
  name: { type: STRING, optional: true },
  /** `read-write` (default) or `read-only` on the tables and sequences of `schemas`. */
  access: { type: ROLE_ACCESS, optional: true },
  /** The schemas its access covers; default `["public"]`. */
  schemas: { type: arrayOf(STRING), optional: true },
});

/** A pull request's database as one resource, declared. */
export const PREVIEW_ENVIRONMENT = declareComponent({
  type: "PreviewEnvironment",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch to copy: an id (`br-...`) or a name; default the project's default branch. */
    parentBranch: { type: STRING },
    /** The preview branch's name, e.g. `preview/pr-123`; default a generated one. */
    name: { type: STRING },
    /**
     * What the branch holds of the parent's data: `schema-only` (default: the schema, no rows), `data`
     * (the rows as they are; refused for a protected parent), or `anonymized` (the rows with
     * `maskingRules` applied).
     */
    data: { type: PREVIEW_DATA },
    /** The columns masked in an `anonymized` copy (the Branch's rules); only with `data: anonymized`. */
    maskingRules: { type: arrayOf(MASKING_RULE) },
    /**
     * Set to anything (a date, a build number); each later change resets the branch from its parent's
     * current data, and the same `up` runs again the migrations the reset undid and grants the runtime
     * role again. Only with `data: data` or `anonymized` (a schema-only copy has no parent data).
     */
    resetTrigger: { type: STRING },
    /**
     * The pull request the preview is for, such as `"123"`: recorded in its branch's annotation
     * (the Branch's `pullRequest`), which `clouddb sweep` reports.
     */
    pullRequest: { type: STRING },
    /** How long the preview lives, counted from its creation (`"72h"`, `"3d"`); default `"168h"`, at most 30 days. */
    ttl: { type: STRING },
    /** The preview's compute; default the smallest the project allows, suspended when idle. */
    compute: { type: COMPUTE_SETTINGS_TYPE },
    /**
     * A folder of `.sql` files applied in file-name order, each once, as the database's owner (a
     * `Migrations` child); the path is from the program's folder.
     */
    migrations: { type: STRING },
    /** The role the application runs as: it reads and writes rows and cannot change the schema. */
    runtime: { type: PREVIEW_RUNTIME },
    /** The database the application uses; default `app`. The parent's of that name is used when it has one. */
    databaseName: { type: STRING },
    /** Auth on the branch (a `BranchAuth` child, with the parent's settings). */
    auth: { type: BOOLEAN },
    /** The Data API on the database (a `DataApi` child, after Auth when both are on). */
    dataApi: { type: BOOLEAN },
  },
  outputs: {
    /** The preview branch's id. */
    branchId: { type: STRING },
    /** Its read-write compute's id. */
    endpointId: { type: STRING },
    /** Its compute's host. */
    host: { type: STRING },
    /** When the branch expires, ISO 8601 UTC. */
    expiresAt: { type: STRING, nullable: true },
    /** The database's name. */
    databaseName: { type: STRING },
    /** The role that owns the database and runs the migrations. */
    ownerName: { type: STRING },
    /** The runtime role's name. */
    runtimeRoleName: { type: STRING },
    /** A connection string of the database's owner (for migrations): a Pulumi secret. */
    migrationUri: { type: STRING, secret: true },
    /** A connection string of the runtime role through the pooler (for the application): a Pulumi secret. */
    runtimeUri: { type: STRING, secret: true },
    /** The migrations the database records as applied, in order (empty without `migrations`). */
    appliedMigrations: { type: arrayOf(APPLIED_MIGRATION) },
    /** The schema's diff against the parent's database of the same name (no credentials in it); empty when the parent has none or they are the same. */
    schemaDiff: { type: STRING },
    /** The Data API's URL, when `dataApi` is on. */
    dataApiUrl: { type: STRING, optional: true },
    /** Auth's base URL, when `auth` is on. */
    authBaseUrl: { type: STRING, optional: true },
  },
});

/** Inputs of a {@link PreviewEnvironment}. */
export interface PreviewEnvironmentArgs extends ArgsOf<typeof PREVIEW_ENVIRONMENT> {}
