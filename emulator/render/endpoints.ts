import type { ConnectionDetails, Endpoint } from "@neon/sdk/raw";
import {
  DEFAULT_COMPUTE,
  DEFAULT_DATABASE_NAME,
  DEFAULT_PROVISIONER,
  DEFAULT_REGION,
  DEFAULT_ROLE_NAME,
} from "../defaults";
import { computeState } from "../families/endpoints";
import { endpointHost, proxyHost } from "../hosts";
import { isoSeconds } from "../ids";
import type { BranchRecord, EndpointRecord, RoleRecord } from "../records";
import type { Store } from "../state";

// Compute endpoints as the API shows them, and the connection URIs that reach them: the service's
// host names, or a loopback port when the data plane serves the endpoint; TLS required either way.

/** A compute endpoint; its state follows its start/suspend operations. */
export function renderEndpoint(e: EndpointRecord, store: Store, nowMs: number): Endpoint {
  const project = store.projects.get(e.project_id);
  const regionId = project?.region_id ?? DEFAULT_REGION;
  const { current, pending } = computeState(e, store, nowMs);
  const compute = e.compute ?? project?.default_endpoint_settings ?? DEFAULT_COMPUTE;
  const out: Endpoint = {
    host: endpointHost(e, store),
    id: e.id,
    project_id: e.project_id,
    branch_id: e.branch_id,
    autoscaling_limit_min_cu: compute.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: compute.autoscaling_limit_max_cu,
    region_id: regionId,
    type: e.type,
    current_state: current,
    settings: { ...(e.settings ?? {}) },
    pooler_enabled: e.pooler_enabled ?? false,
    pooler_mode: "transaction",
    disabled: e.disabled ?? false,
    passwordless_access: e.passwordless_access ?? true,
    creation_source: e.creation_source,
    created_at: isoSeconds(e.created_at_ms),
    updated_at: isoSeconds(e.updated_at_ms),
    proxy_host: proxyHost(regionId),
    suspend_timeout_seconds: compute.suspend_timeout_seconds,
    provisioner: e.provisioner ?? DEFAULT_PROVISIONER,
  };
  if (e.name !== undefined) out["name"] = e.name;
  if (pending !== undefined && pending !== current) out["pending_state"] = pending;
  return out;
}

/** Where clients reach endpoints when a data plane serves them (a loopback host and port). */
export interface EndpointAddresses {
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined;
}

/**
 * A Postgres connection URI for a role and database on an endpoint (`pooled`: the pooler host),
 * with `sslmode=require` as the service's. With a data plane it points at the endpoint's loopback
 * port, which serves TLS, so it connects.
 */
export function connectionUri(
  e: EndpointRecord,
  store: Store,
  role: RoleRecord,
  database: string,
  pooled = false,
  served?: EndpointAddresses,
): string {
  const user = encodeURIComponent(role.name);
  const password = encodeURIComponent(role.password ?? "");
  const at = served?.address(e.id, pooled);
  if (at !== undefined) {
    return `postgresql://${user}:${password}@${at.host}:${at.port}/${encodeURIComponent(database)}?sslmode=require`;
  }
  return `postgresql://${user}:${password}@${endpointHost(e, store, pooled)}/${encodeURIComponent(database)}?sslmode=require`;
}

/** Connection details for a new read-write endpoint: the branch's first database and its owner. */
export function renderConnectionUri(
  e: EndpointRecord,
  b: BranchRecord,
  store: Store,
  served?: EndpointAddresses,
): ConnectionDetails {
  const db = b.databases[0];
  const role = b.roles.find((r) => r.name === db?.owner_name) ?? b.roles[0];
  const database = db?.name ?? DEFAULT_DATABASE_NAME;
  const roleName = role?.name ?? DEFAULT_ROLE_NAME;
  const password = role?.password ?? "";
  return {
    connection_uri: role === undefined ? "" : connectionUri(e, store, role, database, false, served),
    connection_parameters: {
      database,
      password,
      role: roleName,
      host: endpointHost(e, store),
      pooler_host: endpointHost(e, store, true),
    },
  };
}
