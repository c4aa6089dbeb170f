/** The Data API on a branch's database and a project's JWKS URLs (docs/api-rules.md §24). */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";
import { OperationSchema } from "./operations";

/** The Data API's settings; every field optional, as the document has them (unset ones read as its defaults). */
export const DataApiSettingsSchema = z.looseObject({
  db_aggregates_enabled: maybe(z.boolean()),
  db_anon_role: maybe(z.string()),
  db_extra_search_path: maybe(z.string()),
  db_max_rows: maybe(z.number()),
  db_schemas: maybe(z.array(z.string())),
  jwt_role_claim_key: maybe(z.string()),
  jwt_cache_max_lifetime: maybe(z.number()),
  openapi_mode: maybe(z.string()),
  server_cors_allowed_origins: maybe(z.string()),
  server_timing_enabled: maybe(z.boolean()),
});
DOCUMENTED.add(DataApiSettingsSchema, { as: "DataAPISettings" });
/** The Data API's settings. */
export type DataApiSettings = z.infer<typeof DataApiSettingsSchema>;

/** `POST .../data-api/{database_name}` (201): where the new Data API answers. */
export const DataApiCreatedSchema = z.looseObject({ url: z.string() });
DOCUMENTED.add(DataApiCreatedSchema, { as: "DataAPICreateResponse" });

/** `GET .../data-api/{database_name}`: the Data API, its status and settings. */
export const DataApiSchema = z.looseObject({
  url: z.string(),
  status: z.string(),
  settings: maybe(DataApiSettingsSchema),
  available_schemas: maybe(z.array(z.string())),
});
DOCUMENTED.add(DataApiSchema, { as: "DataAPIReponse" });
/** The Data API on a database. */
export type DataApi = z.infer<typeof DataApiSchema>;

/** One JWKS URL a project trusts. */
export const JwksSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  branch_id: maybe(z.string()),
  jwks_url: z.string(),
  provider_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  jwt_audience: maybe(z.string()),
  role_names: maybe(z.array(z.string())),
});
DOCUMENTED.add(JwksSchema, { as: "JWKS" });
/** A project's JWKS URL. */
export type Jwks = z.infer<typeof JwksSchema>;

/** `GET /projects/{project_id}/jwks`: every JWKS URL of the project. */
export const ProjectJwksSchema = z.looseObject({ jwks: z.array(JwksSchema) });
DOCUMENTED.add(ProjectJwksSchema, { as: "ProjectJWKSResponse" });

/** `POST /projects/{project_id}/jwks` (201): the JWKS URL added and the operations that apply it. */
export const JwksCreationSchema = z.looseObject({
  jwks: JwksSchema,
  operations: z.array(OperationSchema),
});
DOCUMENTED.add(JwksCreationSchema, { as: "JWKSCreationOperation" });
