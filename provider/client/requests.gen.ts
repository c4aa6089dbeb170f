// Derived from the official document by scripts/derive-openapi.ts: do not edit.

/**
 * Each documented route's request parts as the client sends them: a query parameter with a
 * default may be left out, and an optional property may be `undefined` (it is not sent).
 */
export interface Requests {
  "GET /api_keys": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
  };
  "POST /api_keys": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: ApiKeyCreateRequest;
  };
  "DELETE /api_keys/{key_id}": {
    Params: {
      key_id: number;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /auth": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
  };
  "GET /consumption_history/projects": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
      project_ids?: Array<string> | undefined;
      from: string;
      to: string;
      granularity: ConsumptionHistoryGranularity;
      org_id?: string | undefined;
      include_v1_metrics?: boolean | undefined;
      metrics?: ConsumptionHistoryQueryMetrics | undefined;
    };
  };
  "GET /consumption_history/v2/branches": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
      project_ids: Array<string>;
      branch_ids?: Array<string> | undefined;
      from: string;
      to: string;
      granularity: ConsumptionHistoryGranularity;
      org_id: string;
      metrics: ConsumptionHistoryQueryMetrics;
    };
  };
  "GET /consumption_history/v2/projects": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
      project_ids?: Array<string> | undefined;
      from: string;
      to: string;
      granularity: ConsumptionHistoryGranularity;
      org_id: string;
      metrics: ConsumptionHistoryQueryMetrics;
    };
  };
  "GET /organizations/{org_id}": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/api_keys": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /organizations/{org_id}/api_keys": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: OrgApiKeyCreateRequest;
  };
  "DELETE /organizations/{org_id}/api_keys/{key_id}": {
    Params: {
      org_id: string;
      key_id: number;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/billing/spending_limit": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PUT /organizations/{org_id}/billing/spending_limit": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: SpendingLimitUpdateRequest;
  };
  "DELETE /organizations/{org_id}/billing/spending_limit": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/invitations": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /organizations/{org_id}/invitations": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: OrganizationInvitesCreateRequest;
  };
  "GET /organizations/{org_id}/members": {
    Params: {
      org_id: string;
    };
    Querystring: {
      sort_by?: "email" | "role" | "joined_at" | (string & {}) | undefined;
      cursor?: string | undefined;
      sort_order?: "asc" | "desc" | (string & {}) | undefined;
      limit?: number | undefined;
    };
  };
  "GET /organizations/{org_id}/members/{member_id}": {
    Params: {
      org_id: string;
      member_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /organizations/{org_id}/members/{member_id}": {
    Params: {
      org_id: string;
      member_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: OrganizationMemberUpdateRequest;
  };
  "DELETE /organizations/{org_id}/members/{member_id}": {
    Params: {
      org_id: string;
      member_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints": {
    Params: {
      org_id: string;
      region_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}": {
    Params: {
      org_id: string;
      region_id: string;
      vpc_endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}": {
    Params: {
      org_id: string;
      region_id: string;
      vpc_endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: VPCEndpointAssignment;
  };
  "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}": {
    Params: {
      org_id: string;
      region_id: string;
      vpc_endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /organizations/{org_id}/vpc/vpc_endpoints": {
    Params: {
      org_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /organizations/{source_org_id}/projects/transfer": {
    Params: {
      source_org_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: TransferProjectsToOrganizationRequest;
  };
  "GET /projects": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
      search?: string | undefined;
      org_id?: string | undefined;
      timeout?: number | undefined;
      recoverable?: boolean | undefined;
    };
  };
  "POST /projects": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: ProjectCreateRequest;
  };
  "POST /projects/auth/create": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: NeonAuthCreateIntegrationRequest;
  };
  "POST /projects/auth/keys": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: NeonAuthCreateAuthProviderSDKKeysRequest;
  };
  "POST /projects/auth/transfer_ownership": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: NeonAuthTransferAuthProviderProjectRequest;
  };
  "POST /projects/auth/user": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: NeonAuthCreateNewUserRequest;
  };
  "GET /projects/shared": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
      search?: string | undefined;
      timeout?: number | undefined;
    };
  };
  "GET /projects/{project_id}": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: ProjectUpdateRequest;
  };
  "DELETE /projects/{project_id}": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/advisors": {
    Params: {
      project_id: string;
    };
    Querystring: {
      branch_id?: string | undefined;
      database_name?: string | undefined;
      category?: AdvisorCategory | undefined;
      min_severity?: "INFO" | "WARN" | "ERROR" | (string & {}) | undefined;
    };
  };
  "GET /projects/{project_id}/auth/domains": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/auth/domains": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthAddDomainToRedirectURIWhitelistRequest;
  };
  "DELETE /projects/{project_id}/auth/domains": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthDeleteDomainFromRedirectURIWhitelistRequest;
  };
  "GET /projects/{project_id}/auth/email_server": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/auth/email_server": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthEmailServerConfig;
  };
  "DELETE /projects/{project_id}/auth/integration/{auth_provider}": {
    Params: {
      project_id: string;
      auth_provider: NeonAuthSupportedAuthProvider;
    };
    Querystring: Record<string, unknown>;
    Body: {
      delete_data?: boolean | undefined;
    } | null | undefined;
  };
  "GET /projects/{project_id}/auth/integrations": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/auth/oauth_providers": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/auth/oauth_providers": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthAddOAuthProviderRequest;
  };
  "PATCH /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}": {
    Params: {
      project_id: string;
      oauth_provider_id: NeonAuthOauthProviderId;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthUpdateOAuthProviderRequest;
  };
  "DELETE /projects/{project_id}/auth/oauth_providers/{oauth_provider_id}": {
    Params: {
      project_id: string;
      oauth_provider_id: NeonAuthOauthProviderId;
    };
    Querystring: Record<string, unknown>;
  };
  "DELETE /projects/{project_id}/auth/users/{auth_user_id}": {
    Params: {
      project_id: string;
      auth_user_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/available_preload_libraries": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branch_anonymized": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: BranchAnonymizedCreateRequest;
  };
  "GET /projects/{project_id}/branches": {
    Params: {
      project_id: string;
    };
    Querystring: {
      search?: string | undefined;
      sort_by?: "name" | "created_at" | "updated_at" | (string & {}) | undefined;
      cursor?: string | undefined;
      sort_order?: "asc" | "desc" | (string & {}) | undefined;
      limit?: number | undefined;
      include_deleted?: boolean | undefined;
    };
  };
  "POST /projects/{project_id}/branches": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: (BranchCreateRequest & AnnotationCreateValueRequest) | null | undefined;
  };
  "GET /projects/{project_id}/branches/count": {
    Params: {
      project_id: string;
    };
    Querystring: {
      search?: string | undefined;
    };
  };
  "GET /projects/{project_id}/branches/{branch_id}": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: BranchUpdateRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      hard_delete?: boolean | undefined;
    };
  };
  "GET /projects/{project_id}/branches/{branch_id}/ai_gateway": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/anonymize": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/anonymized_status": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/auth": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: EnableNeonAuthIntegrationRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/auth": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      delete_data?: boolean | undefined;
    } | null | undefined;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: UpdateNeonAuthAllowLocalhostRequest;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/config": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthConfigUpdate;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/domains": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/auth/domains": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthAddDomainToRedirectURIWhitelistRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthDeleteDomainFromRedirectURIWhitelistRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthEmailAndPasswordConfigUpdate;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/email_provider": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_provider": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthEmailServerConfig;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthAddOAuthProviderRequest;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      oauth_provider_id: NeonAuthOauthProviderId;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthUpdateOAuthProviderRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      oauth_provider_id: NeonAuthOauthProviderId;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/plugins": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/magic-link": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthMagicLinkConfigUpdate;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/organization": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthOrganizationConfigUpdate;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/plugins/phone-number": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthPhoneNumberConfigUpdate;
  };
  "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: SendNeonAuthTestEmailRequest;
  };
  "POST /projects/{project_id}/branches/{branch_id}/auth/users": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: CreateBranchNeonAuthNewUserRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      auth_user_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PUT /projects/{project_id}/branches/{branch_id}/auth/users/{auth_user_id}/role": {
    Params: {
      project_id: string;
      branch_id: string;
      auth_user_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: UpdateNeonAuthUserRoleRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/auth/webhooks": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PUT /projects/{project_id}/branches/{branch_id}/auth/webhooks": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonAuthWebhookConfig;
  };
  "GET /projects/{project_id}/branches/{branch_id}/backup_schedule": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: BackupSchedule;
  };
  "GET /projects/{project_id}/branches/{branch_id}/buckets": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/buckets": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: BucketCreateRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
    };
    Querystring: {
      prefix?: string | undefined;
      delimiter?: string | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    };
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
    };
    Querystring: {
      prefix: string;
    };
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
      object_key: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/download": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
      object_key: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign": {
    Params: {
      project_id: string;
      branch_id: string;
      bucket_name: string;
      object_key: string;
    };
    Querystring: Record<string, unknown>;
    Body: PresignRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/compare_schema": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      base_branch_id?: string | undefined;
      db_name: string;
      lsn?: string | undefined;
      timestamp?: string | undefined;
      base_lsn?: string | undefined;
      base_timestamp?: string | undefined;
    };
  };
  "GET /projects/{project_id}/branches/{branch_id}/credentials": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/credentials": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: CreateCredentialRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}": {
    Params: {
      project_id: string;
      branch_id: string;
      token_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
    Body: DataAPICreateRequest | null | undefined;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
    Body: DataAPIUpdateRequest | null | undefined;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/databases": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/databases": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: DatabaseCreateRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
    Body: DatabaseUpdateRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      database_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/endpoints": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/finalize_restore": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      name?: string | undefined;
    } | null | undefined;
  };
  "GET /projects/{project_id}/branches/{branch_id}/functions": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
    };
  };
  "GET /projects/{project_id}/branches/{branch_id}/functions/{slug}": {
    Params: {
      project_id: string;
      branch_id: string;
      slug: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/functions/{slug}": {
    Params: {
      project_id: string;
      branch_id: string;
      slug: string;
    };
    Querystring: Record<string, unknown>;
    Body: NeonFunctionUpdateRequest;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/functions/{slug}": {
    Params: {
      project_id: string;
      branch_id: string;
      slug: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments": {
    Params: {
      project_id: string;
      branch_id: string;
      slug: string;
    };
    Querystring: Record<string, unknown>;
    Body: unknown;
  };
  "GET /projects/{project_id}/branches/{branch_id}/masking_rules": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: MaskingRulesUpdateRequest;
  };
  "POST /projects/{project_id}/branches/{branch_id}/recover": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/restore": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: BranchRestoreRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/roles": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/roles": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: RoleCreateRequest;
  };
  "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      role_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}": {
    Params: {
      project_id: string;
      branch_id: string;
      role_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password": {
    Params: {
      project_id: string;
      branch_id: string;
      role_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password": {
    Params: {
      project_id: string;
      branch_id: string;
      role_name: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/branches/{branch_id}/schema": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      db_name: string;
      lsn?: string | undefined;
      timestamp?: string | undefined;
      format?: string | undefined;
    };
  };
  "POST /projects/{project_id}/branches/{branch_id}/set_as_default": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/branches/{branch_id}/snapshot": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      lsn?: string | undefined;
      timestamp?: string | undefined;
      name?: string | undefined;
      expires_at?: string | undefined;
    };
  };
  "GET /projects/{project_id}/branches/{branch_id}/storage": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/connection_uri": {
    Params: {
      project_id: string;
    };
    Querystring: {
      branch_id?: string | undefined;
      endpoint_id?: string | undefined;
      database_name: string;
      role_name: string;
      pooled?: boolean | undefined;
    };
  };
  "GET /projects/{project_id}/endpoints": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/endpoints": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: EndpointCreateRequest;
  };
  "GET /projects/{project_id}/endpoints/{endpoint_id}": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/endpoints/{endpoint_id}": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: EndpointUpdateRequest;
  };
  "DELETE /projects/{project_id}/endpoints/{endpoint_id}": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/endpoints/{endpoint_id}/restart": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/endpoints/{endpoint_id}/start": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/endpoints/{endpoint_id}/suspend": {
    Params: {
      project_id: string;
      endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/jwks": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/jwks": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: AddProjectJWKSRequest;
  };
  "DELETE /projects/{project_id}/jwks/{jwks_id}": {
    Params: {
      project_id: string;
      jwks_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/operations": {
    Params: {
      project_id: string;
    };
    Querystring: {
      cursor?: string | undefined;
      limit?: number | undefined;
    };
  };
  "GET /projects/{project_id}/operations/{operation_id}": {
    Params: {
      project_id: string;
      operation_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/permissions": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/permissions": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: GrantPermissionToProjectRequest;
  };
  "DELETE /projects/{project_id}/permissions/{permission_id}": {
    Params: {
      project_id: string;
      permission_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/recover": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /projects/{project_id}/snapshots": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "PATCH /projects/{project_id}/snapshots/{snapshot_id}": {
    Params: {
      project_id: string;
      snapshot_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: SnapshotUpdateRequest;
  };
  "DELETE /projects/{project_id}/snapshots/{snapshot_id}": {
    Params: {
      project_id: string;
      snapshot_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/snapshots/{snapshot_id}/restore": {
    Params: {
      project_id: string;
      snapshot_id: string;
    };
    Querystring: {
      name?: string | undefined;
    };
    Body: {
      name?: string | undefined;
      target_branch_id?: string | undefined;
      finalize_restore?: boolean | undefined;
    } | null | undefined;
  };
  "POST /projects/{project_id}/transfer_requests": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      ttl_seconds?: number | undefined;
    } | null | undefined;
  };
  "PUT /projects/{project_id}/transfer_requests/{request_id}": {
    Params: {
      project_id: string;
      request_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      org_id?: string | undefined;
    } | null | undefined;
  };
  "GET /projects/{project_id}/vpc_endpoints": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}": {
    Params: {
      project_id: string;
      vpc_endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: VPCEndpointAssignment;
  };
  "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}": {
    Params: {
      project_id: string;
      vpc_endpoint_id: string;
    };
    Querystring: Record<string, unknown>;
  };
  "GET /regions": {
    Params: Record<string, unknown>;
    Querystring: {
      org_id?: string | undefined;
    };
  };
  "GET /users/me": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
  };
  "GET /users/me/organizations": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
  };
  "POST /users/me/projects/transfer": {
    Params: Record<string, unknown>;
    Querystring: Record<string, unknown>;
    Body: TransferProjectsToOrganizationRequest;
  };
}

export type AddProjectJWKSRequest = {
  jwks_url: string;
  provider_name: string;
  branch_id?: string | undefined;
  jwt_audience?: string | undefined;
  role_names?: Array<string> | undefined;
  skip_role_creation?: boolean | undefined;
};
export type AdvisorCategory = "SECURITY" | "PERFORMANCE" | (string & {});
export type AllowedIps = {
  ips?: Array<string> | undefined;
  protected_branches_only?: boolean | undefined;
};
export type AnnotationCreateValueRequest = {
  annotation_value?: AnnotationValueData | undefined;
};
export type AnnotationValueData = Record<string, string>;
export type ApiKeyCreateRequest = {
  key_name: string;
};
export type BackupSchedule = {
  schedule: Array<BackupScheduleItem>;
};
export type BackupScheduleItem = {
  frequency: string;
  hour?: number | undefined;
  day?: number | undefined;
  month?: number | undefined;
  retention_seconds?: number | undefined;
};
export type BranchAnonymizedCreateRequest = AnnotationCreateValueRequest & {
  branch_create?: BranchCreateRequest | undefined;
  masking_rules?: Array<MaskingRule> | undefined;
  start_anonymization?: boolean | undefined;
};
export type BranchCreateRequest = {
  endpoints?: Array<BranchCreateRequestEndpointOptions> | undefined;
  branch?: {
    parent_id?: string | undefined;
    name?: string | undefined;
    parent_lsn?: string | undefined;
    parent_timestamp?: string | undefined;
    protected?: boolean | undefined;
    archived?: boolean | undefined;
    init_source?: string | undefined;
    expires_at?: string | undefined;
  } | undefined;
};
export type BranchCreateRequestEndpointOptions = {
  type: EndpointType;
  settings?: EndpointSettingsData | undefined;
  autoscaling_limit_min_cu?: ComputeUnit | undefined;
  autoscaling_limit_max_cu?: ComputeUnit | undefined;
  provisioner?: Provisioner | undefined;
  suspend_timeout_seconds?: SuspendTimeoutSeconds | undefined;
};
export type BranchRestoreRequest = {
  source_branch_id: string;
  source_lsn?: string | undefined;
  source_timestamp?: string | undefined;
  preserve_under_name?: string | undefined;
};
export type BranchUpdateRequest = {
  branch: {
    name?: string | undefined;
    protected?: boolean | undefined;
    expires_at?: string | null | undefined;
  };
};
export type BucketCreateRequest = {
  name: string;
  access_level?: "private" | "public_read" | (string & {}) | undefined;
};
export type ComputeUnit = number;
export type ConsumptionHistoryGranularity = "hourly" | "daily" | "monthly" | (string & {});
export type ConsumptionHistoryQueryMetrics = Array<string>;
export type CreateBranchNeonAuthNewUserRequest = {
  email: string;
  name?: string | undefined;
};
export type CreateCredentialRequest = {
  name?: string | undefined;
  scopes: Array<CredentialScope>;
  principal_type: "user" | (string & {});
};
export type CredentialScope = "storage:read" | "storage:write" | "ai_gateway:invoke" | "functions:invoke" | (string & {});
export type DataAPICreateRequest = {
  auth_provider?: "neon_auth" | "external" | (string & {}) | undefined;
  jwks_url?: string | undefined;
  provider_name?: string | undefined;
  jwt_audience?: string | undefined;
  add_default_grants?: boolean | undefined;
  skip_auth_schema?: boolean | undefined;
  settings?: DataAPISettings | undefined;
};
export type DataAPISettings = {
  db_aggregates_enabled?: boolean | undefined;
  db_anon_role?: string | undefined;
  db_extra_search_path?: string | undefined;
  db_max_rows?: number | undefined;
  db_schemas?: Array<string> | undefined;
  jwt_role_claim_key?: string | undefined;
  jwt_cache_max_lifetime?: number | undefined;
  openapi_mode?: string | undefined;
  server_cors_allowed_origins?: string | undefined;
  server_timing_enabled?: boolean | undefined;
};
export type DataAPIUpdateRequest = {
  settings?: DataAPISettings | undefined;
};
export type DatabaseCreateRequest = {
  database: {
    name: string;
    owner_name: string;
  };
};
export type DatabaseUpdateRequest = {
  database: {
    name?: string | undefined;
    owner_name?: string | undefined;
  };
};
export type DefaultEndpointSettings = {
  pg_settings?: PgSettingsData | undefined;
  pgbouncer_settings?: PgbouncerSettingsData | undefined;
  autoscaling_limit_min_cu?: ComputeUnit | undefined;
  autoscaling_limit_max_cu?: ComputeUnit | undefined;
  suspend_timeout_seconds?: SuspendTimeoutSeconds | undefined;
};
export type EnableNeonAuthIntegrationRequest = {
  auth_provider: NeonAuthSupportedAuthProvider;
  database_name?: string | undefined;
};
export type EndpointCreateRequest = {
  endpoint: {
    branch_id: string;
    region_id?: string | undefined;
    type: EndpointType;
    settings?: EndpointSettingsData | undefined;
    autoscaling_limit_min_cu?: ComputeUnit | undefined;
    autoscaling_limit_max_cu?: ComputeUnit | undefined;
    provisioner?: Provisioner | undefined;
    pooler_enabled?: boolean | undefined;
    pooler_mode?: EndpointPoolerMode | undefined;
    disabled?: boolean | undefined;
    passwordless_access?: boolean | undefined;
    suspend_timeout_seconds?: SuspendTimeoutSeconds | undefined;
    name?: string | undefined;
  };
};
export type EndpointPoolerMode = "transaction" | (string & {});
export type EndpointSettingsData = {
  pg_settings?: PgSettingsData | undefined;
  pgbouncer_settings?: PgbouncerSettingsData | undefined;
  preload_libraries?: PreloadLibraries | undefined;
};
export type EndpointType = "read_only" | "read_write" | (string & {});
export type EndpointUpdateRequest = {
  endpoint: {
    branch_id?: string | undefined;
    autoscaling_limit_min_cu?: ComputeUnit | undefined;
    autoscaling_limit_max_cu?: ComputeUnit | undefined;
    provisioner?: Provisioner | undefined;
    settings?: EndpointSettingsData | undefined;
    pooler_enabled?: boolean | undefined;
    pooler_mode?: EndpointPoolerMode | undefined;
    disabled?: boolean | undefined;
    passwordless_access?: boolean | undefined;
    suspend_timeout_seconds?: SuspendTimeoutSeconds | undefined;
    name?: string | undefined;
  };
};
export type GrantPermissionToProjectRequest = {
  email: string;
};
export type MaintenanceWindow = {
  weekdays: Array<number>;
  start_time: string;
  end_time: string;
};
export type MaskingRule = {
  database_name: string;
  schema_name: string;
  table_name: string;
  column_name: string;
  masking_function?: string | undefined;
  masking_value?: string | undefined;
};
export type MaskingRulesUpdateRequest = {
  masking_rules: Array<MaskingRule>;
};
export type MemberRole = "admin" | "member" | "editor" | "viewer" | "collaborator" | (string & {});
export type NeonAuthAddDomainToRedirectURIWhitelistRequest = {
  domain: string;
  auth_provider: NeonAuthSupportedAuthProvider;
};
export type NeonAuthAddOAuthProviderRequest = {
  id: NeonAuthOauthProviderId;
  client_id?: string | undefined;
  client_secret?: string | undefined;
  microsoft_tenant_id?: string | undefined;
};
export type NeonAuthConfigUpdate = {
  name: string;
};
export type NeonAuthCreateAuthProviderSDKKeysRequest = {
  project_id: string;
  auth_provider: NeonAuthSupportedAuthProvider;
};
export type NeonAuthCreateIntegrationRequest = {
  auth_provider: NeonAuthSupportedAuthProvider;
  project_id: string;
  branch_id: string;
  database_name?: string | undefined;
  role_name?: string | undefined;
};
export type NeonAuthCreateNewUserRequest = {
  project_id: string;
  auth_provider: NeonAuthSupportedAuthProvider;
  email: string;
  name?: string | undefined;
};
export type NeonAuthDeleteDomainFromRedirectURIWhitelistItem = {
  domain: string;
};
export type NeonAuthDeleteDomainFromRedirectURIWhitelistRequest = {
  auth_provider: NeonAuthSupportedAuthProvider;
  domains: Array<NeonAuthDeleteDomainFromRedirectURIWhitelistItem>;
};
export type NeonAuthEmailAndPasswordConfigUpdate = {
  enabled?: boolean | undefined;
  email_verification_method?: NeonAuthEmailVerificationMethod | undefined;
  require_email_verification?: boolean | undefined;
  auto_sign_in_after_verification?: boolean | undefined;
  send_verification_email_on_sign_up?: boolean | undefined;
  send_verification_email_on_sign_in?: boolean | undefined;
  disable_sign_up?: boolean | undefined;
};
export type NeonAuthEmailServerConfig = (StandardEmailServer & {
  type: "standard" | (string & {});
} | SharedEmailServer & {
  type: "shared" | (string & {});
}) & Record<string, unknown>;
export type NeonAuthEmailVerificationMethod = "link" | "otp" | (string & {});
export type NeonAuthMagicLinkConfigUpdate = {
  enabled?: boolean | undefined;
  expires_in?: number | undefined;
  disable_sign_up?: boolean | undefined;
};
export type NeonAuthOauthProviderId = "google" | "github" | "microsoft" | "vercel" | (string & {});
export type NeonAuthOrganizationConfigUpdate = {
  enabled?: boolean | undefined;
  organization_limit?: number | undefined;
  membership_limit?: number | undefined;
  creator_role?: "admin" | "owner" | (string & {}) | undefined;
  send_invitation_email?: boolean | undefined;
};
export type NeonAuthPhoneNumberConfigUpdate = {
  enabled?: boolean | undefined;
  otp_expires_in?: number | undefined;
};
export type NeonAuthSupportedAuthProvider = "mock" | "stack" | "better_auth" | (string & {});
export type NeonAuthTransferAuthProviderProjectRequest = {
  project_id: string;
  auth_provider: NeonAuthSupportedAuthProvider;
};
export type NeonAuthUpdateOAuthProviderRequest = {
  client_id?: string | undefined;
  client_secret?: string | undefined;
  microsoft_tenant_id?: string | undefined;
};
export type NeonAuthWebhookConfig = {
  enabled: boolean;
  webhook_url?: string | undefined;
  enabled_events?: Array<"user.before_create" | "user.created" | "send.otp" | "send.magic_link" | "organization.invitation.created" | "organization.invitation.accepted" | "phone_number.verified" | (string & {})> | undefined;
  timeout_seconds?: number | undefined;
};
export type NeonFunctionUpdateRequest = {
  name: string | null;
};
export type OrgApiKeyCreateRequest = ApiKeyCreateRequest & {
  project_id?: string | undefined;
};
export type OrganizationInviteCreateRequest = {
  email: string;
  role: MemberRole;
};
export type OrganizationInvitesCreateRequest = {
  invitations: Array<OrganizationInviteCreateRequest>;
};
export type OrganizationMemberUpdateRequest = {
  role: MemberRole;
};
export type PgSettingsData = Record<string, string>;
export type PgVersion = number;
export type PgbouncerSettingsData = Record<string, string>;
export type PreloadLibraries = {
  use_defaults?: boolean | undefined;
  enabled_libraries?: Array<string> | undefined;
};
export type PresignRequest = {
  operation: "upload" | "download" | (string & {});
  content_type?: string | undefined;
  expires_in_seconds?: number | undefined;
};
export type ProjectAuditLogLevel = "base" | "extended" | "full" | (string & {});
export type ProjectCreateRequest = {
  project: {
    settings?: ProjectSettingsData | undefined;
    name?: string | undefined;
    branch?: {
      name?: string | undefined;
      role_name?: string | undefined;
      database_name?: string | undefined;
      annotations?: AnnotationValueData | undefined;
    } | undefined;
    autoscaling_limit_min_cu?: ComputeUnit | undefined;
    autoscaling_limit_max_cu?: ComputeUnit | undefined;
    provisioner?: Provisioner | undefined;
    region_id?: string | undefined;
    default_endpoint_settings?: DefaultEndpointSettings | undefined;
    pg_version?: PgVersion | undefined;
    store_passwords?: boolean | undefined;
    history_retention_seconds?: number | undefined;
    org_id?: string | undefined;
  };
};
export type ProjectQuota = {
  active_time_seconds?: number | undefined;
  compute_time_seconds?: number | undefined;
  written_data_bytes?: number | undefined;
  data_transfer_bytes?: number | undefined;
  logical_size_bytes?: number | undefined;
};
export type ProjectSettingsData = {
  quota?: ProjectQuota | undefined;
  allowed_ips?: AllowedIps | undefined;
  enable_logical_replication?: boolean | undefined;
  maintenance_window?: MaintenanceWindow | undefined;
  block_public_connections?: boolean | undefined;
  block_vpc_connections?: boolean | undefined;
  audit_log_level?: ProjectAuditLogLevel | undefined;
  hipaa?: boolean | undefined;
  preload_libraries?: PreloadLibraries | undefined;
};
export type ProjectUpdateRequest = {
  project: {
    settings?: ProjectSettingsData | undefined;
    name?: string | undefined;
    default_endpoint_settings?: DefaultEndpointSettings | undefined;
    history_retention_seconds?: number | undefined;
  };
};
export type Provisioner = string;
export type RoleCreateRequest = {
  role: {
    name: string;
    no_login?: boolean | undefined;
  };
};
export type SendNeonAuthTestEmailRequest = StandardEmailServer & {
  recipient_email: string;
} & Record<string, unknown>;
export type SharedEmailServer = {
  sender_email?: string | undefined;
  sender_name?: string | undefined;
};
export type SnapshotUpdateRequest = {
  snapshot: {
    name?: string | undefined;
  };
};
export type SpendingLimitUpdateRequest = {
  spending_limit_cents: number;
};
export type StandardEmailServer = {
  host: string;
  port: number;
  username: string;
  password: string;
  sender_email: string;
  sender_name: string;
};
export type SuspendTimeoutSeconds = number;
export type TransferProjectsToOrganizationRequest = {
  destination_org_id: string;
  project_ids: Array<string>;
};
export type UpdateNeonAuthAllowLocalhostRequest = {
  allow_localhost: boolean;
};
export type UpdateNeonAuthUserRoleRequest = {
  roles: Array<string>;
};
export type VPCEndpointAssignment = {
  label: string;
};
