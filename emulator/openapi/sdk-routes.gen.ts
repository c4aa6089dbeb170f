// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts, with sdk-routes.gen.json: do not edit.

/** Each route only @neon/sdk describes: its request parts, as fastify's route generics. */
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
      cursor?: string;
      limit?: number;
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
      since?: ProjectBranchLogDuration;
      start_time?: string;
      end_time?: string;
      source?: ProjectBranchLogSource;
      limit?: number;
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
      cursor?: string;
      limit?: number;
    };
  };
  "DELETE /projects/{project_id}/members/{member_id}/role": {
    Params: {
      project_id: string;
      member_id: string;
    };
    Querystring: {
      confirm_self_lockout?: boolean;
    };
  };
  "PUT /projects/{project_id}/members/{member_id}/role": {
    Params: {
      project_id: string;
      member_id: string;
    };
    Querystring: {
      confirm_self_demotion?: boolean;
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
  next?: string;
  sort_by?: string;
  sort_order?: string;
};
export type CursorPaginationResponse = {
  pagination?: CursorPagination;
};
export type CustomDomain = {
  domain: string;
  entity_type: string;
  entity_id: string;
  cname_target: string;
  status?: string;
  dns_status?: string;
  binding_status?: string;
  status_reason?: string;
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
  prefix?: string;
};
export type GeneralError = {
  request_id?: string;
  code: ErrorCode;
  message: string;
};
export type GrantedCredentialScope = "storage:read" | "storage:write" | "ai_gateway:invoke" | "telemetry:write" | "functions:invoke";
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
  source?: ProjectBranchLogSource;
  entity_id?: string;
  service_name?: string;
  scope_name?: string;
  severity_number?: number;
  severity_text?: string;
  trace_id?: string;
  span_id?: string;
  attributes: Record<string, unknown>;
};
export type ProjectBranchLogSeverity = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
export type ProjectBranchLogSource = "function" | "storage" | "pg_endpoint";
export type ProjectBranchLogsInvalidQuery = {
  code: string;
  message: string;
  reason: "time_range_too_large" | "invalid_time_range" | "conflicting_time_range" | "invalid_cursor" | "unknown_field" | "invalid_logql" | "conflicting_filters";
};
export type ProjectBranchLogsNotAvailable = {
  code: string;
  message: string;
  reason: "branch_not_found" | "telemetry_not_enabled";
};
export type ProjectBranchLogsQueryRequest = {
  since?: ProjectBranchLogDuration;
  start_time?: string;
  end_time?: string;
  limit?: number;
  cursor?: string;
  sort_order?: "asc" | "desc";
  source?: ProjectBranchLogSource;
  service_name?: string;
  scope_name?: string;
  minimum_severity?: ProjectBranchLogSeverity;
  severity_text?: string;
  body_contains?: string;
  trace_id?: string;
  logql?: string;
};
export type ProjectBranchLogsQueryResponse = {
  logs: Array<ProjectBranchLogRecord>;
  next_cursor?: string;
  is_truncated: boolean;
};
export type ProjectMember = {
  member_id: string;
  user_id: string;
  email?: string;
  name?: string;
  org_role: ProjectMemberOrgRole;
  project_role?: ProjectRole;
  org_default_project_permission?: ProjectPermissionLevel;
  explicit_project_permission?: ProjectPermissionLevel;
  effective_project_permission?: ProjectPermissionLevel;
  grant_source?: ProjectMemberGrantSource;
};
export type ProjectMemberGrantSource = "explicit" | "org_role_default" | "org_admin_override" | "unassigned";
export type ProjectMemberOrgRole = "admin" | "member" | "editor" | "viewer" | "collaborator";
export type ProjectMemberRoleResponse = {
  project_id: string;
  member_id: string;
  user_id: string;
  email?: string;
  name?: string;
  org_role: ProjectMemberOrgRole;
  project_role?: ProjectRole;
  org_default_project_permission?: ProjectPermissionLevel;
  explicit_project_permission?: ProjectPermissionLevel;
  effective_project_permission?: ProjectPermissionLevel;
  credential_rotation_recommended?: boolean;
  org_api_key_rotation_recommended?: boolean;
};
export type ProjectMembers = {
  project_members: Array<ProjectMember>;
  pagination?: CursorPagination;
};
export type ProjectPermissionLevel = "VIEWER" | "EDITOR" | "ADMIN";
export type ProjectRole = "viewer" | "editor" | "admin";
export type RotateCredentialResponse = {
  token_id: string;
  token_id_short: string;
  name?: string;
  api_token: string;
  s3_secret_access_key: string;
  scopes: Array<GrantedCredentialScope>;
  branch_id: string;
  principal_type: "user";
  created_at: string;
  expires_at?: string;
};
export type ScheduleTrigger = {
  type: "schedule";
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
  type: "schedule";
  function_slug: string;
  name: string;
  function_path?: string;
  schedule: FunctionTriggerSchedule;
  enabled?: boolean;
};
export type ScheduleTriggerUpdateRequest = {
  type: "schedule";
  function_slug?: string;
  name?: string;
  function_path?: string;
  schedule?: FunctionTriggerSchedule;
  enabled?: boolean;
};
export type SendNeonAuthEmailProviderTestRequest = {
  recipient_email: string;
};
export type SendNeonAuthTestEmailResponse = {
  success: boolean;
  error_message?: string;
};
export type SetProjectMemberRoleRequest = {
  role: ProjectRole;
};
export type StorageObjectCreatedTrigger = {
  type: "storage_object_created";
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
  type: "storage_object_created";
  function_slug: string;
  name: string;
  function_path?: string;
  storage_object_created: FunctionTriggerStorageObjectCreated;
  enabled?: boolean;
};
export type StorageObjectCreatedTriggerUpdateRequest = {
  type: "storage_object_created";
  function_slug?: string;
  name?: string;
  function_path?: string;
  storage_object_created?: FunctionTriggerStorageObjectCreated;
  enabled?: boolean;
};
export type Trigger = ({
  type: "schedule";
} & ScheduleTrigger | {
  type: "storage_object_created";
} & StorageObjectCreatedTrigger);
export type TriggerCreateRequest = ({
  type: "schedule";
} & ScheduleTriggerCreateRequest | {
  type: "storage_object_created";
} & StorageObjectCreatedTriggerCreateRequest);
export type TriggerId = string;
export type TriggerResponse = {
  trigger: Trigger;
};
export type TriggerUpdateRequest = ({
  type: "schedule";
} & ScheduleTriggerUpdateRequest | {
  type: "storage_object_created";
} & StorageObjectCreatedTriggerUpdateRequest);
export type TriggersListResponse = {
  triggers: Array<Trigger>;
};
