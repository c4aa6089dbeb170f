// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts: do not edit.

/**
 * Each route only @neon/sdk describes: its request parts as the client sends them (an optional
 * property may be `undefined`: it is not sent).
 */
export interface Requests {
  "POST /projects/{project_id}/branches/{branch_id}/auth/email_provider/test": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: SendNeonAuthEmailProviderTestRequest;
  };
  "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/reveal": {
    Params: {
      project_id: string;
      branch_id: string;
      token_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/credentials/{token_id}/rotate": {
    Params: {
      project_id: string;
      branch_id: string;
      token_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/custom-domains": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
    };
  };
  "POST /projects/{project_id}/branches/{branch_id}/custom-domains": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: CustomDomainRegisterRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/custom-domains/{domain}": {
    Params: {
      project_id: string;
      branch_id: string;
      domain: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/logs/fields": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/logs/fields/{field_name}/values": {
    Params: {
      project_id: string;
      branch_id: string;
      field_name: string;
    };
    Querystring: {
      since?: ProjectBranchLogDuration | undefined;
      start_time?: string | undefined;
      end_time?: string | undefined;
      source?: ProjectBranchLogSource | undefined;
      limit?: number | undefined;
    };
  };
  "POST /projects/{project_id}/branches/{branch_id}/logs/query": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: ProjectBranchLogsQueryRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/triggers": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/triggers": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: TriggerCreateRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      trigger_id: TriggerId;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      trigger_id: TriggerId;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/triggers/{trigger_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      trigger_id: TriggerId;
    };
    Querystring: Record<string, unknown>;
    Body: TriggerUpdateRequest;
  };
  "GET /projects/{project_id}/members": {
    Params: {
      project_id: string;
    };
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
    };
  };
  "DELETE /projects/{project_id}/members/{member_id}/role": {
    Params: {
      project_id: string;
      member_id: string;
    };
    Querystring: {
      confirm_self_lockout?: boolean | undefined;
    };
  };
  "PUT /projects/{project_id}/members/{member_id}/role": {
    Params: {
      project_id: string;
      member_id: string;
    };
    Querystring: {
      confirm_self_demotion?: boolean | undefined;
    };
    Body: SetProjectMemberRoleRequest;
  };
}

export type CredentialSecret = {
  token_id: string;
  api_token: string;
  s3_secret_access_key: string;
};
export type CursorPagination = {
  next?: string | undefined;
  sort_by?: string | undefined;
  sort_order?: string | undefined;
};
export type CursorPaginationResponse = {
  pagination?: CursorPagination | undefined;
};
export type CustomDomain = {
  domain: string;
  entity_type: string;
  entity_id: string;
  cname_target: string;
  status?: string | undefined;
  dns_status?: string | undefined;
  binding_status?: string | undefined;
  status_reason?: string | undefined;
};
export type CustomDomainRegisterRequest = {
  domain: string;
  entity_type: string;
  entity_id: string;
};
export type CustomDomainsListResponse = {
  custom_domains: Array<CustomDomain>;
};
export type ErrorCode = string;
export type FunctionTriggerSchedule = {
  cron: string;
};
export type FunctionTriggerStorageObjectCreated = {
  bucket_name: string;
  prefix?: string | undefined;
};
export type GeneralError = {
  request_id?: string | undefined;
  code: ErrorCode;
  message: string;
};
export type GrantedCredentialScope = "storage:read" | "storage:write" | "ai_gateway:invoke" | "telemetry:write" | "functions:invoke" | (string & {});
export type ProjectBranchLogDuration = string;
export type ProjectBranchLogFieldValuesResponse = {
  values: Array<string>;
  is_truncated: boolean;
};
export type ProjectBranchLogFieldsResponse = {
  fields: Array<string>;
};
export type ProjectBranchLogRecord = {
  timestamp: string;
  message: string;
  source?: ProjectBranchLogSource | undefined;
  entity_id?: string | undefined;
  service_name?: string | undefined;
  scope_name?: string | undefined;
  severity_number?: number | undefined;
  severity_text?: string | undefined;
  trace_id?: string | undefined;
  span_id?: string | undefined;
  attributes: Record<string, unknown>;
};
export type ProjectBranchLogSeverity = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | (string & {});
export type ProjectBranchLogSource = "function" | "storage" | "pg_endpoint" | (string & {});
export type ProjectBranchLogsInvalidQuery = {
  code: string;
  message: string;
  reason: "time_range_too_large" | "invalid_time_range" | "conflicting_time_range" | "invalid_cursor" | "unknown_field" | "invalid_logql" | "conflicting_filters" | (string & {});
};
export type ProjectBranchLogsNotAvailable = {
  code: string;
  message: string;
  reason: "branch_not_found" | "telemetry_not_enabled" | (string & {});
};
export type ProjectBranchLogsQueryRequest = {
  since?: ProjectBranchLogDuration | undefined;
  start_time?: string | undefined;
  end_time?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  sort_order?: "asc" | "desc" | (string & {}) | undefined;
  source?: ProjectBranchLogSource | undefined;
  service_name?: string | undefined;
  scope_name?: string | undefined;
  minimum_severity?: ProjectBranchLogSeverity | undefined;
  severity_text?: string | undefined;
  body_contains?: string | undefined;
  trace_id?: string | undefined;
  logql?: string | undefined;
};
export type ProjectBranchLogsQueryResponse = {
  logs: Array<ProjectBranchLogRecord>;
  next_cursor?: string | undefined;
  is_truncated: boolean;
};
export type ProjectMember = {
  member_id: string;
  user_id: string;
  email?: string | undefined;
  name?: string | undefined;
  org_role: ProjectMemberOrgRole;
  project_role?: ProjectRole | undefined;
  org_default_project_permission?: ProjectPermissionLevel | undefined;
  explicit_project_permission?: ProjectPermissionLevel | undefined;
  effective_project_permission?: ProjectPermissionLevel | undefined;
  grant_source?: ProjectMemberGrantSource | undefined;
};
export type ProjectMemberGrantSource = "explicit" | "org_role_default" | "org_admin_override" | "unassigned" | (string & {});
export type ProjectMemberOrgRole = "admin" | "member" | "editor" | "viewer" | "collaborator" | (string & {});
export type ProjectMemberRoleResponse = {
  project_id: string;
  member_id: string;
  user_id: string;
  email?: string | undefined;
  name?: string | undefined;
  org_role: ProjectMemberOrgRole;
  project_role?: ProjectRole | undefined;
  org_default_project_permission?: ProjectPermissionLevel | undefined;
  explicit_project_permission?: ProjectPermissionLevel | undefined;
  effective_project_permission?: ProjectPermissionLevel | undefined;
  credential_rotation_recommended?: boolean | undefined;
  org_api_key_rotation_recommended?: boolean | undefined;
};
export type ProjectMembers = {
  project_members: Array<ProjectMember>;
  pagination?: CursorPagination | undefined;
};
export type ProjectPermissionLevel = "VIEWER" | "EDITOR" | "ADMIN" | (string & {});
export type ProjectRole = "viewer" | "editor" | "admin" | (string & {});
export type RotateCredentialResponse = {
  token_id: string;
  token_id_short: string;
  name?: string | undefined;
  api_token: string;
  s3_secret_access_key: string;
  scopes: Array<GrantedCredentialScope>;
  branch_id: string;
  principal_type: "user" | (string & {});
  created_at: string;
  expires_at?: string | undefined;
};
export type ScheduleTrigger = {
  type: "schedule" | (string & {});
  trigger_id: TriggerId;
  function_slug: string;
  name: string;
  function_path: string;
  schedule: FunctionTriggerSchedule;
  enabled: boolean;
  version: number;
  next_run_at: (string | null);
  inherited: boolean;
};
export type ScheduleTriggerCreateRequest = {
  type: "schedule" | (string & {});
  function_slug: string;
  name: string;
  function_path?: string | undefined;
  schedule: FunctionTriggerSchedule;
  enabled?: boolean | undefined;
};
export type ScheduleTriggerUpdateRequest = {
  type: "schedule" | (string & {});
  function_slug?: string | undefined;
  name?: string | undefined;
  function_path?: string | undefined;
  schedule?: FunctionTriggerSchedule | undefined;
  enabled?: boolean | undefined;
};
export type SendNeonAuthEmailProviderTestRequest = {
  recipient_email: string;
};
export type SendNeonAuthTestEmailResponse = {
  success: boolean;
  error_message?: string | undefined;
};
export type SetProjectMemberRoleRequest = {
  role: ProjectRole;
};
export type StorageObjectCreatedTrigger = {
  type: "storage_object_created" | (string & {});
  trigger_id: TriggerId;
  function_slug: string;
  name: string;
  function_path: string;
  storage_object_created: FunctionTriggerStorageObjectCreated;
  enabled: boolean;
  version: number;
  inherited: boolean;
};
export type StorageObjectCreatedTriggerCreateRequest = {
  type: "storage_object_created" | (string & {});
  function_slug: string;
  name: string;
  function_path?: string | undefined;
  storage_object_created: FunctionTriggerStorageObjectCreated;
  enabled?: boolean | undefined;
};
export type StorageObjectCreatedTriggerUpdateRequest = {
  type: "storage_object_created" | (string & {});
  function_slug?: string | undefined;
  name?: string | undefined;
  function_path?: string | undefined;
  storage_object_created?: FunctionTriggerStorageObjectCreated | undefined;
  enabled?: boolean | undefined;
};
export type Trigger = ({
  type: "schedule" | (string & {});
} & ScheduleTrigger | {
  type: "storage_object_created" | (string & {});
} & StorageObjectCreatedTrigger);
export type TriggerCreateRequest = ({
  type: "schedule" | (string & {});
} & ScheduleTriggerCreateRequest | {
  type: "storage_object_created" | (string & {});
} & StorageObjectCreatedTriggerCreateRequest);
export type TriggerId = string;
export type TriggerResponse = {
  trigger: Trigger;
};
export type TriggerUpdateRequest = ({
  type: "schedule" | (string & {});
} & ScheduleTriggerUpdateRequest | {
  type: "storage_object_created" | (string & {});
} & StorageObjectCreatedTriggerUpdateRequest);
export type TriggersListResponse = {
  triggers: Array<Trigger>;
};
