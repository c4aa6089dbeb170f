/**
 * zod schemas for every response shape the client reads; the TypeScript types are `z.infer` of them.
 *
 * Tolerant by design: objects keep unknown fields (`z.looseObject`), enum-like strings (`action`,
 * `status`, endpoint `type`, branch state) accept values we have not seen, optional fields may be
 * absent or `null`. Only fields the library uses are required.
 */
import { z } from "zod";

/** An optional field that may also arrive as `null`; both read as `undefined`. */
function maybe<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

// ---------------------------------------------------------------- operations

/** Operation statuses the API documents. `status` still accepts any string. */
export const KNOWN_OPERATION_STATUSES = [
  "scheduling",
  "running",
  "finished",
  "failed",
  "error",
  "cancelling",
  "cancelled",
  "skipped",
] as const;
/** A documented operation status. */
export type KnownOperationStatus = (typeof KNOWN_OPERATION_STATUSES)[number];

/** One operation record (`action` has 30+ values and grows: any string is accepted). */
export const OperationSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  branch_id: maybe(z.string()),
  endpoint_id: maybe(z.string()),
  action: z.string(),
  status: z.string(),
  failures_count: z.number().int().default(0),
  created_at: z.string(),
  updated_at: z.string(),
  total_duration_ms: maybe(z.number()),
  error: maybe(z.string()),
  retry_at: maybe(z.string()),
});
/** An operation as returned by the API. */
export type Operation = z.infer<typeof OperationSchema>;

/** Cursor object of a listing page. */
export const PaginationSchema = z.looseObject({ cursor: maybe(z.string()) });
/** A pagination object. */
export type Pagination = z.infer<typeof PaginationSchema>;

/** `GET /projects/{project_id}/operations` */
export const OperationsPageSchema = z.looseObject({
  operations: z.array(OperationSchema),
  pagination: maybe(PaginationSchema),
});
/** One page of operations. */
export type OperationsPage = z.infer<typeof OperationsPageSchema>;

/** `GET /projects/{project_id}/operations/{operation_id}` */
export const OperationResponseSchema = z.looseObject({ operation: OperationSchema });
/** Body of a single-operation read. */
export type OperationResponse = z.infer<typeof OperationResponseSchema>;

// ---------------------------------------------------------------- API keys

/** `POST /api_keys` (200). Only `id` and `key` are promised (docs/api-rules.md §6); the rest are read when sent. */
export const ApiKeyCreatedSchema = z.looseObject({
  id: z.number().int(),
  key: z.string(),
  name: maybe(z.string()),
  created_at: maybe(z.string()),
  created_by: maybe(z.string()),
});
/** A new personal key, including its one-time secret `key`. */
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** `POST /organizations/{org_id}/api_keys`: the same plus `project_id` for project-scoped keys. */
export const OrgApiKeyCreatedSchema = ApiKeyCreatedSchema.extend({ project_id: maybe(z.string()) });
/** A new organization or project-scoped key, including its one-time secret `key`. */
export type OrgApiKeyCreated = z.infer<typeof OrgApiKeyCreatedSchema>;

/** `created_by` in list items: an object `{id, name, image}` (a bare string is tolerated). */
export const ApiKeyCreatorSchema = z.union([
  z.looseObject({ id: z.string(), name: maybe(z.string()), image: maybe(z.string()) }),
  z.string(),
]);
/** Who created a listed key. */
export type ApiKeyCreator = z.infer<typeof ApiKeyCreatorSchema>;

/** One item of `GET /api_keys` (a bare array; revoked keys are not listed). */
export const ApiKeyListItemSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  created_at: maybe(z.string()),
  created_by: maybe(ApiKeyCreatorSchema),
  last_used_at: maybe(z.string()),
  last_used_from_addr: maybe(z.string()),
});
/** A listed personal key (no secret). */
export type ApiKeyListItem = z.infer<typeof ApiKeyListItemSchema>;

/** `GET /api_keys` */
export const ApiKeyListSchema = z.array(ApiKeyListItemSchema);

/** One item of `GET /organizations/{org_id}/api_keys`; may carry `project_id`. */
export const OrgApiKeyListItemSchema = ApiKeyListItemSchema.extend({ project_id: maybe(z.string()) });
/** A listed organization or project-scoped key (no secret). */
export type OrgApiKeyListItem = z.infer<typeof OrgApiKeyListItemSchema>;

/** `GET /organizations/{org_id}/api_keys` */
export const OrgApiKeyListSchema = z.array(OrgApiKeyListItemSchema);

/** `DELETE /api_keys/{key_id}` and `DELETE /organizations/{org_id}/api_keys/{key_id}`. */
export const ApiKeyRevokedSchema = z.looseObject({
  id: z.number().int(),
  name: maybe(z.string()),
  created_at: maybe(z.string()),
  created_by: maybe(z.string()),
  last_used_at: maybe(z.string()),
  last_used_from_addr: maybe(z.string()),
  revoked: z.boolean(),
  project_id: maybe(z.string()),
});
/** A revoked key. */
export type ApiKeyRevoked = z.infer<typeof ApiKeyRevokedSchema>;

// ---------------------------------------------------------------- projects

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
/** One page of projects. */
export type ProjectsPage = z.infer<typeof ProjectsPageSchema>;

// ---------------------------------------------------------------- branches

/** A branch record (fields the library uses; the rest kept). */
export const BranchSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  parent_id: maybe(z.string()),
  name: z.string(),
  default: z.boolean().default(false),
  current_state: maybe(z.string()),
  pending_state: maybe(z.string()),
  protected: maybe(z.boolean()),
  /** When the service deletes the branch by itself (RFC 3339, seconds); absent when it never expires. */
  expires_at: maybe(z.string()),
  /** `parent-data` (the default) or `schema-only`; other strings accepted. */
  init_source: maybe(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A branch. */
export type Branch = z.infer<typeof BranchSchema>;

/** Compute endpoint types the API documents; `type` still accepts any string. */
export const ENDPOINT_TYPES = ["read_only", "read_write"] as const;
/** Compute endpoint states the API documents; `current_state` still accepts any string. */
export const ENDPOINT_STATES = ["init", "active", "idle"] as const;

/** A compute endpoint record (`type` is `read_write` / `read_only`, other strings accepted). */
export const EndpointSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  host: z.string(),
  current_state: maybe(z.string()),
  pending_state: maybe(z.string()),
  branch_id: z.string(),
  project_id: maybe(z.string()),
  region_id: maybe(z.string()),
  autoscaling_limit_min_cu: maybe(z.number()),
  autoscaling_limit_max_cu: maybe(z.number()),
  suspend_timeout_seconds: maybe(z.number()),
  pooler_enabled: maybe(z.boolean()),
  pooler_mode: maybe(z.string()),
  /** A free label (1-64 characters), absent when none was given. */
  name: maybe(z.string()),
  disabled: maybe(z.boolean()),
  provisioner: maybe(z.string()),
  proxy_host: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
/** A compute endpoint. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** A role. `password` is there only in create and reset answers: a secret, never put in a message. */
export const RoleSchema = z.looseObject({
  name: z.string(),
  branch_id: maybe(z.string()),
  password: maybe(z.string()),
  protected: maybe(z.boolean()),
  authentication_method: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
/** A role. */
export type Role = z.infer<typeof RoleSchema>;

/** A database of a branch, owned by a role. */
export const DatabaseSchema = z.looseObject({
  id: maybe(z.number()),
  name: z.string(),
  owner_name: maybe(z.string()),
  branch_id: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
/** A database. */
export type Database = z.infer<typeof DatabaseSchema>;

/** A connection URI returned on branch creation (contains a password). */
export const ConnectionUriSchema = z.looseObject({
  connection_uri: z.string(),
  connection_parameters: maybe(z.record(z.string(), z.unknown())),
});
/** A connection URI. */
export type ConnectionUri = z.infer<typeof ConnectionUriSchema>;

/** `POST /projects/{project_id}/branches` (201). */
export const BranchCreateResponseSchema = z.looseObject({
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  operations: z.array(OperationSchema).default([]),
  roles: z.array(RoleSchema).default([]),
  databases: z.array(DatabaseSchema).default([]),
  connection_uris: maybe(z.array(ConnectionUriSchema)),
});
/** Body of a branch creation. */
export type BranchCreateResponse = z.infer<typeof BranchCreateResponseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}` */
export const BranchGetResponseSchema = z.looseObject({
  branch: BranchSchema,
  annotation: z.unknown().optional(),
});
/** Body of a branch read. */
export type BranchGetResponse = z.infer<typeof BranchGetResponseSchema>;

/** `GET /projects/{project_id}/branches` */
export const BranchListResponseSchema = z.looseObject({
  branches: z.array(BranchSchema),
  /** Each annotated branch's annotation, by branch id; `value` holds the key/value pairs set on it. */
  annotations: z
    .record(z.string(), z.looseObject({ value: z.record(z.string(), z.string()).optional() }))
    .optional(),
});
/** Body of a project's branch list. */
export type BranchListResponse = z.infer<typeof BranchListResponseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/endpoints` */
export const BranchEndpointsResponseSchema = z.looseObject({ endpoints: z.array(EndpointSchema) });
/** Body of a branch's endpoint list. */
export type BranchEndpointsResponse = z.infer<typeof BranchEndpointsResponseSchema>;

/** `PATCH /projects/{project_id}/branches/{branch_id}` */
export const BranchUpdateResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a branch update. */
export type BranchUpdateResponse = z.infer<typeof BranchUpdateResponseSchema>;

/** `DELETE /projects/{project_id}/branches/{branch_id}` (200; a 204 has no body). */
export const BranchDeleteResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a branch deletion. */
export type BranchDeleteResponse = z.infer<typeof BranchDeleteResponseSchema>;

// ---------------------------------------------------------------- requests

/**
 * Body of `POST /projects/{project_id}/branches`, in the API's own snake_case shape; extra API
 * fields (`protected`, `init_source`, endpoint settings, …) pass through unchanged.
 */
export interface BranchCreateRequest {
  branch?:
    | {
        name?: string | undefined;
        parent_id?: string | undefined;
        [field: string]: unknown;
      }
    | undefined;
  endpoints?:
    | Array<{ type: "read_write" | "read_only" | (string & {}); [field: string]: unknown }>
    | undefined;
  [field: string]: unknown;
}

/** The fields `PATCH /projects/{project_id}/branches/{branch_id}` changes; `expires_at: null` removes the expiry. */
export interface BranchUpdateRequest {
  name?: string | undefined;
  protected?: boolean | undefined;
  expires_at?: string | null | undefined;
}

/** Body of `POST /projects/{project_id}/branches/{branch_id}/restore`: where the branch's data comes from. */
export interface BranchRestoreRequest {
  source_branch_id: string;
  source_lsn?: string | undefined;
  source_timestamp?: string | undefined;
  /** Keeps the branch's previous state as a new branch of this name (required when it has children). */
  preserve_under_name?: string | undefined;
}

/** Body of `POST /projects`, in the API's shape; other API fields pass through unchanged. */
export interface ProjectCreateRequest {
  project: {
    name?: string | undefined;
    region_id?: string | undefined;
    pg_version?: number | undefined;
    org_id?: string | undefined;
    history_retention_seconds?: number | undefined;
    default_endpoint_settings?: Record<string, unknown> | undefined;
    settings?: Record<string, unknown> | undefined;
    branch?:
      | {
          name?: string | undefined;
          role_name?: string | undefined;
          database_name?: string | undefined;
          /** Annotation key/value pairs set on the default branch. */
          annotations?: Record<string, string> | undefined;
        }
      | undefined;
    [field: string]: unknown;
  };
}

/** Body of `PATCH /projects/{project_id}`. */
export interface ProjectUpdateRequest {
  project: {
    name?: string | undefined;
    history_retention_seconds?: number | undefined;
    default_endpoint_settings?: Record<string, unknown> | undefined;
    settings?: Record<string, unknown> | undefined;
    [field: string]: unknown;
  };
}

/** Compute settings an endpoint takes at creation and in updates. */
export interface EndpointSettingsRequest {
  autoscaling_limit_min_cu?: number | undefined;
  autoscaling_limit_max_cu?: number | undefined;
  suspend_timeout_seconds?: number | undefined;
  pooler_enabled?: boolean | undefined;
  provisioner?: string | undefined;
  disabled?: boolean | undefined;
  name?: string | undefined;
  [field: string]: unknown;
}

/** Body of `POST /projects/{project_id}/endpoints`. */
export interface EndpointCreateRequest {
  endpoint: EndpointSettingsRequest & { branch_id: string; type: "read_write" | "read_only" | (string & {}) };
}

/** Body of `PATCH /projects/{project_id}/endpoints/{endpoint_id}`. */
export interface EndpointUpdateRequest {
  endpoint: EndpointSettingsRequest & { branch_id?: string | undefined };
}

/** Body of `POST .../roles`: a name of at most 63 bytes. */
export interface RoleCreateRequest {
  role: { name: string; no_login?: boolean | undefined };
}

/** Body of `POST .../databases`. */
export interface DatabaseCreateRequest {
  database: { name: string; owner_name: string };
}

/** Body of `PATCH .../databases/{database_name}`. */
export interface DatabaseUpdateRequest {
  database: { name?: string | undefined; owner_name?: string | undefined };
}

// ---------------------------------------------------------------- errors

/** An error body `{request_id?, code, message}`; every field tolerated missing. */
export const ErrorBodySchema = z.looseObject({
  request_id: maybe(z.string()),
  code: maybe(z.union([z.string(), z.number()])),
  message: maybe(z.string()),
});
/** A parsed error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

// ---------------------------------------------------------------- projects (one project)

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
  store_passwords: maybe(z.boolean()),
  history_retention_seconds: maybe(z.number()),
  default_endpoint_settings: maybe(z.record(z.string(), z.unknown())),
  settings: maybe(z.record(z.string(), z.unknown())),
});
/** One project. */
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

/** `GET /projects/{project_id}` and `DELETE /projects/{project_id}` (200). */
export const ProjectResponseSchema = z.looseObject({ project: ProjectDetailSchema });
/** Body of a project read or delete. */
export type ProjectResponse = z.infer<typeof ProjectResponseSchema>;

/** `PATCH /projects/{project_id}`. */
export const ProjectUpdateResponseSchema = z.looseObject({
  project: ProjectDetailSchema,
  operations: z.array(OperationSchema).default([]),
});
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
/** Body of a project creation. */
export type ProjectCreateResponse = z.infer<typeof ProjectCreateResponseSchema>;

/** `GET /projects/{project_id}/connection_uri`: a connection string, password included. */
export const ConnectionUriResponseSchema = z.looseObject({ uri: z.string() });
/** Body of a connection URI read. */
export type ConnectionUriResponse = z.infer<typeof ConnectionUriResponseSchema>;

// ---------------------------------------------------------------- compute endpoints

/** `GET /projects/{project_id}/endpoints/{endpoint_id}`. */
export const EndpointResponseSchema = z.looseObject({ endpoint: EndpointSchema });
/** Body of an endpoint read. */
export type EndpointResponse = z.infer<typeof EndpointResponseSchema>;

/** `POST`, `PATCH` and `DELETE` (200) of an endpoint: the endpoint and the operations started. */
export const EndpointOperationsSchema = z.looseObject({
  endpoint: EndpointSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of an endpoint change. */
export type EndpointOperations = z.infer<typeof EndpointOperationsSchema>;

// ---------------------------------------------------------------- roles

/** `GET /projects/{project_id}/branches/{branch_id}/roles`. */
export const RolesResponseSchema = z.looseObject({ roles: z.array(RoleSchema) });
/** Body of a branch's role list. */
export type RolesResponse = z.infer<typeof RolesResponseSchema>;

/** `GET .../roles/{role_name}`. */
export const RoleResponseSchema = z.looseObject({ role: RoleSchema });
/** Body of a role read. */
export type RoleResponse = z.infer<typeof RoleResponseSchema>;

/** Create, delete (200) and password reset of a role: the role (with `password` after create or reset) and its operations. */
export const RoleOperationsSchema = z.looseObject({
  role: RoleSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a role change. */
export type RoleOperations = z.infer<typeof RoleOperationsSchema>;

/** `GET .../roles/{role_name}/reveal_password`. */
export const RolePasswordResponseSchema = z.looseObject({ password: z.string() });
/** Body of a password reveal. */
export type RolePasswordResponse = z.infer<typeof RolePasswordResponseSchema>;

// ---------------------------------------------------------------- databases

/** `GET /projects/{project_id}/branches/{branch_id}/databases`. */
export const DatabasesResponseSchema = z.looseObject({ databases: z.array(DatabaseSchema) });
/** Body of a branch's database list. */
export type DatabasesResponse = z.infer<typeof DatabasesResponseSchema>;

/** `GET .../databases/{database_name}`. */
export const DatabaseResponseSchema = z.looseObject({ database: DatabaseSchema });
/** Body of a database read. */
export type DatabaseResponse = z.infer<typeof DatabaseResponseSchema>;

/** Create, update and delete (200) of a database: the database and its operations. */
export const DatabaseOperationsSchema = z.looseObject({
  database: DatabaseSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a database change. */
export type DatabaseOperations = z.infer<typeof DatabaseOperationsSchema>;

// ---------------------------------------------------------------- users and organizations

/** `GET /users/me`: the user the key belongs to. */
export const CurrentUserSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  login: maybe(z.string()),
  name: maybe(z.string()),
  last_name: maybe(z.string()),
  plan: maybe(z.string()),
  projects_limit: maybe(z.number()),
  branches_limit: maybe(z.number()),
  max_autoscaling_limit: maybe(z.number()),
});
/** The current user. */
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** `GET /organizations/{org_id}`, and the items of `GET /users/me/organizations`. */
export const OrganizationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  handle: maybe(z.string()),
  plan: maybe(z.string()),
  managed_by: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
/** An organization. */
export type Organization = z.infer<typeof OrganizationSchema>;

/** `GET /users/me/organizations`. */
export const OrganizationsResponseSchema = z.looseObject({ organizations: z.array(OrganizationSchema) });
/** Body of the current user's organization list. */
export type OrganizationsResponse = z.infer<typeof OrganizationsResponseSchema>;

/** An item of `GET /organizations/{org_id}/members`: the membership (its `role` is a string: the list grows). */
export const OrgMemberSchema = z.looseObject({
  member: z.looseObject({ id: z.string(), user_id: z.string(), org_id: maybe(z.string()), role: z.string() }),
});
/** A member of an organization. */
export type OrgMember = z.infer<typeof OrgMemberSchema>;

/** `GET /organizations/{org_id}/members`: one page, with the next page's cursor when there is one. */
export const OrgMembersResponseSchema = z.looseObject({
  members: z.array(OrgMemberSchema),
  pagination: maybe(z.looseObject({ next: maybe(z.string()) })),
});
