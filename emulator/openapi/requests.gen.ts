// Derived from the official document by scripts/derive-openapi.ts, with requests.gen.json: do not edit.

/** Each documented route's request parts, as fastify's route generics. */
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
      cursor?: string;
      limit: number;
      project_ids?: Array<string>;
      from: string;
      to: string;
      granularity: ConsumptionHistoryGranularity;
      org_id?: string;
      include_v1_metrics?: boolean;
      metrics?: ConsumptionHistoryQueryMetrics;
    };
  };
  "GET /consumption_history/v2/branches": {
    Params: Record<string, unknown>;
    Querystring: {
      cursor?: string;
      limit: number;
      project_ids: Array<string>;
      branch_ids?: Array<string>;
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
      cursor?: string;
      limit: number;
      project_ids?: Array<string>;
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
      sort_by: "email" | "role" | "joined_at";
      cursor?: string;
      sort_order: "asc" | "desc";
      limit?: number;
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
      cursor?: string;
      limit: number;
      search?: string;
      org_id?: string;
      timeout?: number;
      recoverable: boolean;
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
      cursor?: string;
      limit: number;
      search?: string;
      timeout?: number;
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
      branch_id?: string;
      database_name?: string;
      category?: AdvisorCategory;
      min_severity?: "INFO" | "WARN" | "ERROR";
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
      delete_data?: boolean;
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
      search?: string;
      sort_by: "name" | "created_at" | "updated_at";
      cursor?: string;
      sort_order: "asc" | "desc";
      limit?: number;
      include_deleted: boolean;
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
      search?: string;
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
      hard_delete: boolean;
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
      delete_data?: boolean;
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
      prefix?: string;
      delimiter?: string;
      cursor?: string;
      limit: number;
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
      base_branch_id?: string;
      db_name: string;
      lsn?: string;
      timestamp?: string;
      base_lsn?: string;
      base_timestamp?: string;
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
      name?: string;
    } | null | undefined;
  };
  "GET /projects/{project_id}/branches/{branch_id}/functions": {
    Params: {
      project_id: string;
      branch_id: string;
    };
    Querystring: {
      cursor?: string;
      limit?: number;
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
      lsn?: string;
      timestamp?: string;
      format?: string;
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
      lsn?: string;
      timestamp?: string;
      name?: string;
      expires_at?: string;
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
      branch_id?: string;
      endpoint_id?: string;
      database_name: string;
      role_name: string;
      pooled?: boolean;
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
      cursor?: string;
      limit?: number;
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
      name?: string;
    };
    Body: {
      name?: string;
      target_branch_id?: string;
      finalize_restore?: boolean;
    } | null | undefined;
  };
  "POST /projects/{project_id}/transfer_requests": {
    Params: {
      project_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      ttl_seconds?: number;
    } | null | undefined;
  };
  "PUT /projects/{project_id}/transfer_requests/{request_id}": {
    Params: {
      project_id: string;
      request_id: string;
    };
    Querystring: Record<string, unknown>;
    Body: {
      org_id?: string;
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
      org_id?: string;
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
  branch_id?: string;
  jwt_audience?: string;
  role_names?: Array<string>;
  skip_role_creation?: boolean;
};
export type AdvisorCategory = "SECURITY" | "PERFORMANCE";
export type AllowedIps = {
  ips?: Array<string>;
  protected_branches_only?: boolean;
};
export type AnnotationCreateValueRequest = {
  annotation_value?: AnnotationValueData;
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
  hour?: number;
  day?: number;
  month?: number;
  retention_seconds?: number;
};
export type BranchAnonymizedCreateRequest = AnnotationCreateValueRequest & {
  branch_create?: BranchCreateRequest;
  masking_rules?: Array<MaskingRule>;
  start_anonymization?: boolean;
};
export type BranchCreateRequest = {
  endpoints?: Array<BranchCreateRequestEndpointOptions>;
  branch?: {
    parent_id?: string;
    name?: string;
    parent_lsn?: string;
    parent_timestamp?: string;
    protected?: boolean;
    archived?: boolean;
    init_source?: string;
    expires_at?: string;
  };
};
export type BranchCreateRequestEndpointOptions = {
  type: EndpointType;
  settings?: EndpointSettingsData;
  autoscaling_limit_min_cu?: ComputeUnit;
  autoscaling_limit_max_cu?: ComputeUnit;
  provisioner?: Provisioner;
  suspend_timeout_seconds?: SuspendTimeoutSeconds;
};
export type BranchRestoreRequest = {
  source_branch_id: string;
  source_lsn?: string;
  source_timestamp?: string;
  preserve_under_name?: string;
};
export type BranchUpdateRequest = {
  branch: {
    name?: string;
    protected?: boolean;
    expires_at?: string | null;
  };
};
export type BucketCreateRequest = {
  name: string;
  access_level?: "private" | "public_read";
};
export type ComputeUnit = number;
export type ConsumptionHistoryGranularity = "hourly" | "daily" | "monthly";
export type ConsumptionHistoryQueryMetrics = Array<string>;
export type CreateBranchNeonAuthNewUserRequest = {
  email: string;
  name?: string;
};
export type CreateCredentialRequest = {
  name?: string;
  scopes: Array<CredentialScope>;
  principal_type: "user";
};
export type CredentialScope = "storage:read" | "storage:write" | "ai_gateway:invoke" | "functions:invoke";
export type DataAPICreateRequest = {
  auth_provider?: "neon_auth" | "external";
  jwks_url?: string;
  provider_name?: string;
  jwt_audience?: string;
  add_default_grants?: boolean;
  skip_auth_schema?: boolean;
  settings?: DataAPISettings;
};
export type DataAPISettings = {
  db_aggregates_enabled?: boolean;
  db_anon_role?: string;
  db_extra_search_path?: string;
  db_max_rows?: number;
  db_schemas?: Array<string>;
  jwt_role_claim_key?: string;
  jwt_cache_max_lifetime?: number;
  openapi_mode?: string;
  server_cors_allowed_origins?: string;
  server_timing_enabled?: boolean;
};
export type DataAPIUpdateRequest = {
  settings?: DataAPISettings;
};
export type DatabaseCreateRequest = {
  database: {
    name: string;
    owner_name: string;
  };
};
export type DatabaseUpdateRequest = {
  database: {
    name?: string;
    owner_name?: string;
  };
};
export type DefaultEndpointSettings = {
  pg_settings?: PgSettingsData;
  pgbouncer_settings?: PgbouncerSettingsData;
  autoscaling_limit_min_cu?: ComputeUnit;
  autoscaling_limit_max_cu?: ComputeUnit;
  suspend_timeout_seconds?: SuspendTimeoutSeconds;
};
export type EnableNeonAuthIntegrationRequest = {
  auth_provider: NeonAuthSupportedAuthProvider;
  database_name?: string;
};
export type EndpointCreateRequest = {
  endpoint: {
    branch_id: string;
    region_id?: string;
    type: EndpointType;
    settings?: EndpointSettingsData;
    autoscaling_limit_min_cu?: ComputeUnit;
    autoscaling_limit_max_cu?: ComputeUnit;
    provisioner?: Provisioner;
    pooler_enabled?: boolean;
    pooler_mode?: EndpointPoolerMode;
    disabled?: boolean;
    passwordless_access?: boolean;
    suspend_timeout_seconds?: SuspendTimeoutSeconds;
    name?: string;
  };
};
export type EndpointPoolerMode = "transaction";
export type EndpointSettingsData = {
  pg_settings?: PgSettingsData;
  pgbouncer_settings?: PgbouncerSettingsData;
  preload_libraries?: PreloadLibraries;
};
export type EndpointType = "read_only" | "read_write";
export type EndpointUpdateRequest = {
  endpoint: {
    branch_id?: string;
    autoscaling_limit_min_cu?: ComputeUnit;
    autoscaling_limit_max_cu?: ComputeUnit;
    provisioner?: Provisioner;
    settings?: EndpointSettingsData;
    pooler_enabled?: boolean;
    pooler_mode?: EndpointPoolerMode;
    disabled?: boolean;
    passwordless_access?: boolean;
    suspend_timeout_seconds?: SuspendTimeoutSeconds;
    name?: string;
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
  masking_function?: string;
  masking_value?: string;
};
export type MaskingRulesUpdateRequest = {
  masking_rules: Array<MaskingRule>;
};
export type MemberRole = "admin" | "member" | "editor" | "viewer" | "collaborator";
export type NeonAuthAddDomainToRedirectURIWhitelistRequest = {
  domain: string;
  auth_provider: NeonAuthSupportedAuthProvider;
};
export type NeonAuthAddOAuthProviderRequest = {
  id: NeonAuthOauthProviderId;
  client_id?: string;
  client_secret?: string;
  microsoft_tenant_id?: string;
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
  database_name?: string;
  role_name?: string;
};
export type NeonAuthCreateNewUserRequest = {
  project_id: string;
  auth_provider: NeonAuthSupportedAuthProvider;
  email: string;
  name?: string;
};
export type NeonAuthDeleteDomainFromRedirectURIWhitelistItem = {
  domain: string;
};
export type NeonAuthDeleteDomainFromRedirectURIWhitelistRequest = {
  auth_provider: NeonAuthSupportedAuthProvider;
  domains: Array<NeonAuthDeleteDomainFromRedirectURIWhitelistItem>;
};
export type NeonAuthEmailAndPasswordConfigUpdate = {
  enabled?: boolean;
  email_verification_method?: NeonAuthEmailVerificationMethod;
  require_email_verification?: boolean;
  auto_sign_in_after_verification?: boolean;
  send_verification_email_on_sign_up?: boolean;
  send_verification_email_on_sign_in?: boolean;
  disable_sign_up?: boolean;
};
export type NeonAuthEmailServerConfig = (StandardEmailServer & {
  type: "standard";
} | SharedEmailServer & {
  type: "shared";
}) & Record<string, unknown>;
export type NeonAuthEmailVerificationMethod = "link" | "otp";
export type NeonAuthMagicLinkConfigUpdate = {
  enabled?: boolean;
  expires_in?: number;
  disable_sign_up?: boolean;
};
export type NeonAuthOauthProviderId = "google" | "github" | "microsoft" | "vercel";
export type NeonAuthOrganizationConfigUpdate = {
  enabled?: boolean;
  organization_limit?: number;
  membership_limit?: number;
  creator_role?: "admin" | "owner";
  send_invitation_email?: boolean;
};
export type NeonAuthPhoneNumberConfigUpdate = {
  enabled?: boolean;
  otp_expires_in?: number;
};
export type NeonAuthSupportedAuthProvider = "mock" | "stack" | "better_auth";
export type NeonAuthTransferAuthProviderProjectRequest = {
  project_id: string;
  auth_provider: NeonAuthSupportedAuthProvider;
};
export type NeonAuthUpdateOAuthProviderRequest = {
  client_id?: string;
  client_secret?: string;
  microsoft_tenant_id?: string;
};
export type NeonAuthWebhookConfig = {
  enabled: boolean;
  webhook_url?: string;
  enabled_events?: Array<"user.before_create" | "user.created" | "send.otp" | "send.magic_link" | "organization.invitation.created" | "organization.invitation.accepted" | "phone_number.verified">;
  timeout_seconds?: number;
};
export type NeonFunctionUpdateRequest = {
  name: string | null;
};
export type OrgApiKeyCreateRequest = ApiKeyCreateRequest & {
  project_id?: string;
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
  use_defaults?: boolean;
  enabled_libraries?: Array<string>;
};
export type PresignRequest = {
  operation: "upload" | "download";
  content_type?: string;
  expires_in_seconds?: number;
};
export type ProjectAuditLogLevel = "base" | "extended" | "full";
export type ProjectCreateRequest = {
  project: {
    settings?: ProjectSettingsData;
    name?: string;
    branch?: {
      name?: string;
      role_name?: string;
      database_name?: string;
      annotations?: AnnotationValueData;
    };
    autoscaling_limit_min_cu?: ComputeUnit;
    autoscaling_limit_max_cu?: ComputeUnit;
    provisioner?: Provisioner;
    region_id?: string;
    default_endpoint_settings?: DefaultEndpointSettings;
    pg_version?: PgVersion;
    store_passwords?: boolean;
    history_retention_seconds?: number;
    org_id?: string;
  };
};
export type ProjectQuota = {
  active_time_seconds?: number;
  compute_time_seconds?: number;
  written_data_bytes?: number;
  data_transfer_bytes?: number;
  logical_size_bytes?: number;
};
export type ProjectSettingsData = {
  quota?: ProjectQuota;
  allowed_ips?: AllowedIps;
  enable_logical_replication?: boolean;
  maintenance_window?: MaintenanceWindow;
  block_public_connections?: boolean;
  block_vpc_connections?: boolean;
  audit_log_level?: ProjectAuditLogLevel;
  hipaa?: boolean;
  preload_libraries?: PreloadLibraries;
};
export type ProjectUpdateRequest = {
  project: {
    settings?: ProjectSettingsData;
    name?: string;
    default_endpoint_settings?: DefaultEndpointSettings;
    history_retention_seconds?: number;
  };
};
export type Provisioner = string;
export type RoleCreateRequest = {
  role: {
    name: string;
    no_login?: boolean;
  };
};
export type SendNeonAuthTestEmailRequest = StandardEmailServer & {
  recipient_email: string;
} & Record<string, unknown>;
export type SharedEmailServer = {
  sender_email?: string;
  sender_name?: string;
};
export type SnapshotUpdateRequest = {
  snapshot: {
    name?: string;
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
