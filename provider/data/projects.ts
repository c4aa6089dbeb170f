import * as pulumi from "@pulumi/pulumi";
import { dataSourceClient } from "./credentials";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getProjects}. */
export interface GetProjectsArgs {
  /** Only projects whose name or id contains this text. */
  search?: string;
  /** Only the projects of this organization. */
  orgId?: string;
  /** Page size, 1-400 (default 400: fewest requests). */
  limit?: number;
}

/** A project as listed, with the API's fields in camelCase. */
export interface ProjectSummary {
  /** Project id. */
  readonly id: string;
  /** Project name. */
  readonly name: string;
  /** Cloud platform id. */
  readonly platformId: string;
  /** Region id. */
  readonly regionId: string;
  /** Compute provisioner. */
  readonly provisioner: string;
  /** Postgres major version. */
  readonly pgVersion: number;
  /** Compute seconds used. */
  readonly cpuUsedSec: number;
  /** Whether the project is locked. */
  readonly locked: boolean;
  /** Creation time, ISO 8601 UTC. */
  readonly createdAt: string;
  /** Last update time, ISO 8601 UTC. */
  readonly updatedAt: string;
  /** Proxy host for connections. */
  readonly proxyHost: string;
  /** Branch logical size limit. */
  readonly branchLogicalSizeLimit: number;
  /** Owning organization, when the API reports it. */
  readonly orgId?: string;
}

/** Result of {@link getProjects}. */
export interface GetProjectsResult {
  /** Every project visible to the key, over all pages. */
  readonly projects: ProjectSummary[];
  /** Projects the API could not list right now: when non-empty, `projects` is partial. */
  readonly unavailableProjectIds: string[];
}

/** Lists every project the key can see (all pages). Throws the client's typed errors. */
export async function getProjects(
  args: GetProjectsArgs = {},
  opts: DataSourceOptions = {},
): Promise<GetProjectsResult> {
  const client = dataSourceClient(opts);
  const pages = client.listProjects({
    limit: args.limit ?? 400,
    ...(args.search !== undefined ? { search: args.search } : {}),
    ...(args.orgId !== undefined ? { orgId: args.orgId } : {}),
  });
  const projects: ProjectSummary[] = [];
  for await (const p of pages) {
    projects.push({
      id: p.id,
      name: p.name,
      platformId: p.platform_id,
      regionId: p.region_id,
      provisioner: p.provisioner,
      pgVersion: p.pg_version,
      cpuUsedSec: p.cpu_used_sec,
      locked: p.locked ?? false,
      createdAt: p.created_at,
      updatedAt: p.updated_at,
      proxyHost: p.proxy_host,
      branchLogicalSizeLimit: p.branch_logical_size_limit,
      ...(typeof p.org_id === "string" ? { orgId: p.org_id } : {}),
    });
  }
  return { projects, unavailableProjectIds: [...pages.unavailableProjectIds()] };
}

/** {@link getProjects} taking Inputs and returning an Output. */
export function getProjectsOutput(
  args: pulumi.Input<GetProjectsArgs> = {},
  opts: DataSourceOptions = {},
): pulumi.Output<GetProjectsResult> {
  return pulumi.output(args).apply((a) => getProjects(a as GetProjectsArgs, opts));
}
