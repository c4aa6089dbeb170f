// Derived from @neon/sdk's types by scripts/derive-sdk-contract.ts: do not edit.

/** The fields (`Type.field.field`) and types the API's newest description marks deprecated, with what it says to do instead. */
export const DEPRECATED: Readonly<Record<string, string>> = {
  "AddProjectJwksRequest.role_names": "The roles the JWKS should be mapped to. By default, the JWKS is mapped to the `authenticator`, `authenticated`, and `anonymous` roles.",
  "Branch.cpu_used_sec": "Use `compute_time_seconds` instead. CPU seconds used by all of the branch's compute endpoints, including deleted ones. This value is reset at the beginning of each billing period.",
  "Branch.primary": "Use the `default` field. Whether the branch is the project's primary branch.",
  "ConsumptionHistoryPerTimeframe.synthetic_storage_size_bytes": "always returns 0. Use the consumption history v2 endpoints (`/consumption_history/v2/projects`, `/consumption_history/v2/branches`) instead. Bytes. The space occupied in Postgres storage. Synthetic Postgres storage size combines the logical data size and Write-Ahead Log (WAL) size for all branches.",
  "CurrentUserAuthAccount.login": "Use the `email` field.",
  "CurrentUserInfoResponse.login": "Use the `email` field.",
  "Endpoint.pooler_enabled": "To use connection pooling, append `-pooler` to the endpoint ID in the connection string.",
  "EndpointCreateRequest.endpoint.pooler_enabled": "To enable connection pooling, append `-pooler` to the endpoint ID in the connection string. See [How to use connection pooling](https://neon.com/docs/connect/connection-pooling#how-to-use-connection-pooling)",
  "EndpointPoolerMode": "The connection pooler mode. Neon supports PgBouncer in `transaction` mode only. Removal scheduled for June 20, 2026.",
  "EndpointUpdateRequest.endpoint.branch_id": "The destination branch ID; must not have an existing read-write endpoint.",
  "EndpointUpdateRequest.endpoint.pooler_enabled": "To enable connection pooling, append `-pooler` to the endpoint ID in the connection string. See [How to use connection pooling](https://neon.com/docs/connect/connection-pooling#how-to-use-connection-pooling)",
  "GetConsumptionHistoryPerProjectData.query.include_v1_metrics": "The field is deprecated. Please use `metrics` instead. If `metrics` is specified, this field is ignored. Include metrics utilized in previous pricing models. - **data_storage_bytes_hour**: The sum of the maximum observed storage values for each hour, which never decreases.",
  "NeonAuthCreateIntegrationRequest.role_name": "The database role for the auth integration. Omit this field; it is ignored.",
  "PgbouncerSettingsData": "A raw representation of PgBouncer settings. Removal scheduled for June 20, 2026.",
  "Project.cpu_used_sec": "Use `compute_time_seconds` instead.",
  "Project.quota_reset_at": "Use the `consumption_period_end` field instead. A timestamp indicating when the project quota resets.",
  "ProjectListItem.cpu_used_sec": "Use `compute_time_seconds` from `GET /projects/{project_id}` instead.",
  "ProjectListItem.quota_reset_at": "Use `consumption_period_end` from `GET /projects/{project_id}` instead. A timestamp indicating when the project quota resets.",
  "RestoreSnapshotData.query.name": "Use the `name` field in the request body instead. Removal scheduled for November 29, 2025. A name for the newly restored branch. If omitted, a default name will be generated.",
};
