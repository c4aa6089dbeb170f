import { DEFAULT_REGION, REGIONS } from "./defaults";
import type { EndpointRecord } from "./records";
import type { Store } from "./state";

// The host names the API shows: a region's proxy host (a project's and an endpoint's
// `proxy_host`) and each endpoint's own host under it. A primitive, not a renderer: the families
// store URLs built on them (a Data API's) and the data plane's certificate covers them.

const HOST_SUFFIX = "clouddb.local";

/** The cloud platform of a region id: `aws-us-east-2` -> `aws` (`aws` when the id names none). */
export function platformOf(regionId: string): string {
  const dash = regionId.indexOf("-");
  return dash > 0 ? regionId.slice(0, dash) : "aws";
}

/** `aws-us-east-2` -> `us-east-2.aws.clouddb.local`. */
export function proxyHost(regionId: string): string {
  const dash = regionId.indexOf("-");
  const region = dash > 0 ? regionId.slice(dash + 1) : regionId;
  return `${region}.${platformOf(regionId)}.${HOST_SUFFIX}`;
}

/** The endpoint's host name; `pooled` puts `-pooler` at the end of the first label. */
export function endpointHost(e: EndpointRecord, store: Store, pooled = false): string {
  const regionId = store.projects.get(e.project_id)?.region_id ?? DEFAULT_REGION;
  return `${e.id}${pooled ? "-pooler" : ""}.${proxyHost(regionId)}`;
}

/**
 * The names a certificate for every endpoint host must cover: one wildcard per region (an endpoint
 * host is one label under its region's proxy host), for the regions the emulator lists and those
 * of `regionIds`.
 */
export function endpointHostWildcards(regionIds: Iterable<string>): string[] {
  const regions = new Set([...REGIONS.map((r) => r.region_id), ...regionIds]);
  return [...regions].map((regionId) => `*.${proxyHost(regionId)}`);
}
