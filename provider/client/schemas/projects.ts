/** Projects: as listed, as one project, and the answers of the project routes. */
import { z } from "zod";
import { BranchSchema } from "./branches";
import { DOCUMENTED, maybe, PaginationSchema } from "./common";
import { ConnectionUriSchema } from "./connections";
import { DatabaseSchema } from "./databases";
import { EndpointSchema } from "./endpoints";
import { OperationSchema } from "./operations";
import { RoleSchema } from "./roles";

/** A project as listed (required where the official `ProjectListItem` requires them). */
export const ProjectSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  platform_id: z.string(),
  region_id: z.string(),
  provisioner: z.string(),
  pg_version: z.number(),
  cpu_used_sec: z.number(),
  locked: maybe(z.boolean()),
  created_at: z.string(),
  updated_at: z.string(),
  proxy_host: z.string(),
  branch_logical_size_limit: z.number(),
  org_id: maybe(z.string()),
});
DOCUMENTED.add(ProjectSchema, { as: "ProjectListItem" });
/** A listed project. */
export type Project = z.infer<typeof ProjectSchema>;

/** `GET /projects` */
export const ProjectsPageSchema = z.looseObject({
  projects: z.array(ProjectSchema),
  pagination: maybe(PaginationSchema),
  unavailable_project_ids: maybe(z.array(z.string())),
  applications: maybe(z.record(z.string(), z.unknown())),
  integrations: maybe(z.record(z.string(), z.unknown())),
});
DOCUMENTED.add(ProjectsPageSchema, { as: "GET /projects 200" });
/** One page of projects. */
export type ProjectsPage = z.infer<typeof ProjectsPageSchema>;

/** A project's `settings`: the network access ones, the maintenance window and the quotas are read; the rest pass through. */
export const ProjectSettingsSchema = z.looseObject({
  allowed_ips: maybe(
    z.looseObject({ ips: maybe(z.array(z.string())), protected_branches_only: maybe(z.boolean()) }),
  ),
  block_public_connections: maybe(z.boolean()),
  block_vpc_connections: maybe(z.boolean()),
  enable_logical_replication: maybe(z.boolean()),
  maintenance_window: maybe(
    z.looseObject({ weekdays: z.array(z.number()), start_time: z.string(), end_time: z.string() }),
  ),
  quota: maybe(z.record(z.string(), z.unknown())),
  hipaa: maybe(z.boolean()),
  // The service may add levels: any string is read.
  audit_log_level: maybe(z.string()),
});
DOCUMENTED.add(ProjectSettingsSchema, { as: "ProjectSettingsData" });

export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** A project as `GET /projects/{project_id}` and the project calls return it; the settings users set in code are read when sent. */
export const ProjectDetailSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  region_id: z.string(),
  pg_version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  platform_id: maybe(z.string()),
  provisioner: maybe(z.string()),
  proxy_host: maybe(z.string()),
  org_id: maybe(z.string()),
  owner_id: maybe(z.string()),
  hipaa_enabled_at: maybe(z.string()),
  store_passwords: maybe(z.boolean()),
  history_retention_seconds: maybe(z.number()),
  default_endpoint_settings: maybe(z.record(z.string(), z.unknown())),
  settings: maybe(ProjectSettingsSchema),
});
DOCUMENTED.add(ProjectDetailSchema, { as: "Project" });
/** One project. */
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

/** `GET /projects/{project_id}` and `DELETE /projects/{project_id}` (200). */
export const ProjectResponseSchema = z.looseObject({ project: ProjectDetailSchema });
DOCUMENTED.add(ProjectResponseSchema, { as: "ProjectResponse" });
/** Body of a project read or delete. */
export type ProjectResponse = z.infer<typeof ProjectResponseSchema>;

/** `POST /projects/{project_id}/recover`: the project brought back, with its branches. */
export const ProjectRecoverResponseSchema = z.looseObject({
  project: ProjectDetailSchema,
  branches: z.array(BranchSchema),
});
DOCUMENTED.add(ProjectRecoverResponseSchema, { as: "ProjectRecoverResponse" });
/** Body of a project recovery. */
export type ProjectRecoverResponse = z.infer<typeof ProjectRecoverResponseSchema>;

/** `POST /projects/{project_id}/transfer_requests` (201): a request to move the project, valid until `expires_at`. */
export const ProjectTransferRequestSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
DOCUMENTED.add(ProjectTransferRequestSchema, { as: "ProjectTransferRequestResponse" });
/** A project transfer request. */
export type ProjectTransferRequest = z.infer<typeof ProjectTransferRequestSchema>;

/** `PATCH /projects/{project_id}`. */
export const ProjectUpdateResponseSchema = z.looseObject({
  project: ProjectDetailSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(ProjectUpdateResponseSchema, { as: "PATCH /projects/{project_id} 200" });
/** Body of a project update. */
export type ProjectUpdateResponse = z.infer<typeof ProjectUpdateResponseSchema>;

/**
 * `POST /projects` (201): the project with its default branch, compute, role (its password in the
 * role and in `connection_uris`), database and the operations that start them.
 */
export const ProjectCreateResponseSchema = z.looseObject({
  project: ProjectDetailSchema,
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  roles: z.array(RoleSchema).default([]),
  databases: z.array(DatabaseSchema).default([]),
  operations: z.array(OperationSchema).default([]),
  connection_uris: maybe(z.array(ConnectionUriSchema)),
});
DOCUMENTED.add(ProjectCreateResponseSchema, { as: "POST /projects 201" });
/** Body of a project creation. */
export type ProjectCreateResponse = z.infer<typeof ProjectCreateResponseSchema>;

/** A region as `GET /regions` lists it. */
export const RegionSchema = z.looseObject({
  region_id: z.string(),
  name: z.string(),
  default: z.boolean(),
  geo_lat: maybe(z.string()),
  geo_long: maybe(z.string()),
});
DOCUMENTED.add(RegionSchema, { as: "RegionResponse" });

export type Region = z.infer<typeof RegionSchema>;

/** `GET /regions`. */
export const RegionsResponseSchema = z.looseObject({ regions: z.array(RegionSchema) });
DOCUMENTED.add(RegionsResponseSchema, { as: "ActiveRegionsResponse" });
