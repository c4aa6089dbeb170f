import type { DataApiCreateResponse, DataApiReponse, Jwks } from "@neon/sdk/raw";
import { DATA_API_DEFAULTS } from "../families/data-api";
import { isoSeconds } from "../ids";
import type { DataApiRecord, JwksRecord, ProjectRecord } from "../records";

// The Data API and a project's JWKS URLs, as the API shows them.

/** The Data API's url: all a create answers. */
export function renderDataApiCreated(api: DataApiRecord): DataApiCreateResponse {
  return { url: api.url };
}

/** The Data API with its settings, the documented defaults filling those never set. */
export function renderDataApi(api: DataApiRecord): DataApiReponse {
  return {
    url: api.url,
    status: "ready",
    settings: { ...DATA_API_DEFAULTS, ...api.settings },
    available_schemas: ["public"],
  };
}

/** One JWKS URL of the project. */
export function renderJwks(project: ProjectRecord, jwks: JwksRecord): Jwks {
  return {
    id: jwks.id,
    project_id: project.id,
    ...(jwks.branch_id !== undefined ? { branch_id: jwks.branch_id } : {}),
    jwks_url: jwks.jwks_url,
    provider_name: jwks.provider_name,
    created_at: isoSeconds(jwks.created_at_ms),
    updated_at: isoSeconds(jwks.updated_at_ms),
    ...(jwks.jwt_audience !== undefined ? { jwt_audience: jwks.jwt_audience } : {}),
    role_names: jwks.role_names,
  };
}
