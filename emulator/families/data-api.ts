import type { EmulatorContext } from "../context";
import { badRequest, HttpError, notFound } from "../errors";
import { endpointHost } from "../hosts";
import { newUuid } from "../ids";
import type { AddProjectJWKSRequest, DataAPICreateRequest, DataAPISettings } from "../openapi/requests.gen";
import type { BranchRecord, DataApiRecord, DatabaseRecord, JwksRecord, ProjectRecord } from "../records";
import { holdOnBranch } from "./branch-data";

// The Data API on a branch's database and the JWKS URLs a project trusts (docs/api-rules.md §24).
// The Data API's record lives on its branch, so a branch's delete, recovery and restore carry it;
// the key sets live on the project.

declare module "../records" {
  interface BranchData {
    /** The Data API on the branch's databases, one per database it serves (docs/api-rules.md §24). */
    data_apis?: DataApiRecord[];
  }
}

// A child starts without a Data API; a branch preserved by a restore keeps a copy.
holdOnBranch({ field: "data_apis", toChild: false, preserved: true });

/** The documented defaults of the Data API's settings: what a setting left out reads as. */
export const DATA_API_DEFAULTS: DataAPISettings = {
  db_aggregates_enabled: true,
  db_anon_role: "anonymous",
  db_schemas: ["public"],
  jwt_role_claim_key: ".role",
  openapi_mode: "disabled",
};

/** The roles a key set maps to when none are named (the document's default). */
export const DEFAULT_JWKS_ROLES = ["authenticator", "authenticated", "anonymous"];

/** The Data API on the database, if it is enabled. */
export function findDataApi(branch: BranchRecord, database: DatabaseRecord): DataApiRecord | undefined {
  return branch.data_apis?.find((d) => d.database_id === database.id);
}

/** The Data API on the database; 404 naming what to do when it is not enabled. */
export function dataApiOf(branch: BranchRecord, database: DatabaseRecord): DataApiRecord {
  const api = findDataApi(branch, database);
  if (!api)
    throw notFound(
      `the Data API is not enabled for database ${database.name} on branch ${branch.id}: enable it with POST first`,
    );
  return api;
}

/** Settings must name what they expose and limit with usable values. */
function checkSettings(settings: DataAPISettings | undefined, field: string): void {
  if (settings === undefined) return;
  if (settings.db_schemas !== undefined && settings.db_schemas.length === 0)
    throw badRequest(`${field}.db_schemas must name at least one schema (the default is ["public"])`);
  for (const key of ["db_max_rows", "jwt_cache_max_lifetime"] as const) {
    const value = settings[key];
    if (value !== undefined && value < 0)
      throw badRequest(`${field}.${key} must not be negative, not ${value}`);
  }
  if (
    settings.openapi_mode !== undefined &&
    !["ignore-privileges", "disabled"].includes(settings.openapi_mode)
  )
    throw badRequest(
      `${field}.openapi_mode must be "ignore-privileges" or "disabled", not ${JSON.stringify(settings.openapi_mode)}`,
    );
}

/** A JWKS URL must be HTTPS: the service fetches keys from it. */
function checkJwksUrl(url: string, field: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(
      `${field} ${JSON.stringify(url)} is not a URL: give the HTTPS URL of a JSON Web Key Set`,
    );
  }
  if (parsed.protocol !== "https:")
    throw badRequest(`${field} ${JSON.stringify(url)} must be an HTTPS URL of a JSON Web Key Set`);
}

/**
 * Enables the Data API on the database. It answers on the branch's read-write compute, so the
 * branch needs one; `external` authentication needs the JWKS URL its tokens are checked against.
 */
export function enableDataApi(
  ctx: EmulatorContext,
  branch: BranchRecord,
  database: DatabaseRecord,
  spec: DataAPICreateRequest,
): DataApiRecord {
  if (findDataApi(branch, database))
    throw new HttpError(
      409,
      `the Data API is already enabled for database ${database.name} on branch ${branch.id}: change its settings with PATCH`,
    );
  const provider = spec.auth_provider ?? (spec.jwks_url !== undefined ? "external" : "neon_auth");
  if (provider === "external" && spec.jwks_url === undefined)
    throw badRequest(
      "auth_provider external needs jwks_url: the HTTPS URL of the provider's JSON Web Key Set",
    );
  if (provider === "neon_auth" && spec.jwks_url !== undefined)
    throw badRequest("jwks_url is for auth_provider external; neon_auth uses the branch's own Auth keys");
  if (spec.jwks_url !== undefined) checkJwksUrl(spec.jwks_url, "jwks_url");
  checkSettings(spec.settings, "settings");
  const compute = ctx.store.branchEndpoints(branch.id).find((e) => e.type === "read_write");
  if (!compute)
    throw new HttpError(
      409,
      `branch ${branch.id} has no read-write compute for the Data API to answer on: create one, then enable it`,
    );
  const host = endpointHost(compute, ctx.store).replace(".", ".apirest.");
  const now = ctx.clock.now();
  const api: DataApiRecord = {
    database_id: database.id,
    url: `https://${host}/${encodeURIComponent(database.name)}/rest/v1`,
    auth_provider: provider,
    ...(spec.jwks_url !== undefined ? { jwks_url: spec.jwks_url } : {}),
    ...(spec.provider_name !== undefined ? { provider_name: spec.provider_name } : {}),
    ...(spec.jwt_audience !== undefined ? { jwt_audience: spec.jwt_audience } : {}),
    add_default_grants: spec.add_default_grants ?? false,
    skip_auth_schema: spec.skip_auth_schema ?? false,
    settings: spec.settings ?? {},
    created_at_ms: now,
    refreshed_at_ms: now,
  };
  branch.data_apis = [...(branch.data_apis ?? []), api];
  ctx.changed();
  return api;
}

/**
 * Changes the settings, replacing them as a whole (a setting left out reads as its default
 * again), and refreshes the schema cache; without settings it only refreshes the cache.
 */
export function updateDataApi(
  ctx: EmulatorContext,
  api: DataApiRecord,
  settings: DataAPISettings | undefined,
): void {
  checkSettings(settings, "settings");
  if (settings !== undefined) api.settings = settings;
  api.refreshed_at_ms = ctx.clock.now();
  ctx.changed();
}

/** Turns the Data API off for the database. */
export function disableDataApi(ctx: EmulatorContext, branch: BranchRecord, api: DataApiRecord): void {
  branch.data_apis = (branch.data_apis ?? []).filter((d) => d !== api);
  ctx.changed();
}

/** Adds a JWKS URL to the project, for every branch or the one it names (which must be live). */
export function addJwks(
  ctx: EmulatorContext,
  project: ProjectRecord,
  spec: AddProjectJWKSRequest,
): JwksRecord {
  checkJwksUrl(spec.jwks_url, "jwks_url");
  if (spec.provider_name.trim() === "")
    throw badRequest("provider_name must name the authentication provider (e.g. Clerk, Auth0)");
  if (spec.branch_id !== undefined && !ctx.store.liveBranch(project.id, spec.branch_id))
    throw notFound(
      `branch ${spec.branch_id} not found in project ${project.id}: scope the JWKS to a live branch`,
    );
  const same = (project.jwks ?? []).find(
    (j) => j.jwks_url === spec.jwks_url && j.branch_id === spec.branch_id,
  );
  if (same)
    throw new HttpError(
      409,
      `JWKS URL ${spec.jwks_url} is already added to project ${project.id}${spec.branch_id ? ` for branch ${spec.branch_id}` : ""} as ${same.id}`,
    );
  const now = ctx.clock.now();
  const jwks: JwksRecord = {
    id: newUuid(ctx.store.ids),
    jwks_url: spec.jwks_url,
    provider_name: spec.provider_name,
    ...(spec.branch_id !== undefined ? { branch_id: spec.branch_id } : {}),
    ...(spec.jwt_audience !== undefined ? { jwt_audience: spec.jwt_audience } : {}),
    role_names: spec.role_names ?? DEFAULT_JWKS_ROLES,
    created_at_ms: now,
    updated_at_ms: now,
  };
  project.jwks = [...(project.jwks ?? []), jwks];
  ctx.changed();
  return jwks;
}

/** Removes a JWKS URL from the project; 404 when it has none with that id. */
export function removeJwks(ctx: EmulatorContext, project: ProjectRecord, jwksId: string): JwksRecord {
  const jwks = (project.jwks ?? []).find((j) => j.id === jwksId);
  if (!jwks) throw notFound(`JWKS ${jwksId} not found in project ${project.id}`);
  project.jwks = (project.jwks ?? []).filter((j) => j !== jwks);
  ctx.changed();
  return jwks;
}
