/**
 * pulumi-clouddb: Pulumi dynamic resources and data sources for the Cloud Database Control API v2.
 */

export * from "./data/advisors";
export * from "./data/aiGateway";
export * from "./data/connectionUri";
export * from "./data/consumption";
export * from "./data/operations";
export type { DataSourceOptions } from "./data/options";
export * from "./data/preloadLibraries";
export * from "./data/projects";
export * from "./data/regions";
export * from "./data/schemaDiff";
export type { ResourceErrorKind } from "./resources/errors";
export { isPartialFailure, isResourceError, PartialFailure, ResourceError } from "./resources/errors";
export type { ApiKeyArgs, ApiKeyInputs, ApiKeyKind, ApiKeyOutputs } from "./resources/public/apiKey";
export { ApiKey, apiKeyProvider } from "./resources/public/apiKey";
export type {
  BackupFrequency,
  BackupScheduleArgs,
  BackupScheduleEntry,
  BackupScheduleInputs,
  BackupScheduleOutputs,
} from "./resources/public/backupSchedule";
export { BackupSchedule, backupScheduleProvider } from "./resources/public/backupSchedule";
export type {
  BranchArgs,
  BranchEndpoint,
  BranchInputs,
  BranchOutputs,
  BranchRestore,
  BranchTimeouts,
  EndpointType,
  InitSource,
  MaskingRule,
} from "./resources/public/branch";
export { Branch, branchProvider } from "./resources/public/branch";
export type {
  AuthEmailProvider,
  AuthOauthProvider,
  BranchAuthArgs,
  BranchAuthInputs,
  BranchAuthOutputs,
} from "./resources/public/branchAuth";
export { BranchAuth, branchAuthProvider } from "./resources/public/branchAuth";
export type { BucketArgs, BucketInputs, BucketOutputs } from "./resources/public/bucket";
export { Bucket, bucketProvider } from "./resources/public/bucket";
export type {
  CredentialArgs,
  CredentialInputs,
  CredentialOutputs,
  CredentialScope,
} from "./resources/public/credential";
export { Credential, credentialProvider } from "./resources/public/credential";
export type {
  CustomDomainArgs,
  CustomDomainInputs,
  CustomDomainOutputs,
} from "./resources/public/customDomain";
export { CustomDomain, customDomainProvider } from "./resources/public/customDomain";
export type { DataApiArgs, DataApiInputs, DataApiOutputs, DataApiSettings } from "./resources/public/dataApi";
export { DataApi, dataApiProvider } from "./resources/public/dataApi";
export type { DatabaseArgs, DatabaseInputs, DatabaseOutputs } from "./resources/public/database";
export { Database, databaseProvider } from "./resources/public/database";
export type {
  ComputeEndpointType,
  EndpointArgs,
  EndpointInputs,
  EndpointOutputs,
} from "./resources/public/endpoint";
export { Endpoint, endpointProvider } from "./resources/public/endpoint";
export type { FunctionArgs, FunctionInputs, FunctionOutputs } from "./resources/public/function";
export { Function, functionProvider } from "./resources/public/function";
export type { JwksArgs, JwksInputs, JwksOutputs } from "./resources/public/jwks";
export { Jwks, jwksProvider } from "./resources/public/jwks";
export type {
  OrganizationInvitationArgs,
  OrganizationInvitationInputs,
  OrganizationInvitationOutputs,
} from "./resources/public/organizationInvitation";
export {
  OrganizationInvitation,
  organizationInvitationProvider,
} from "./resources/public/organizationInvitation";
export type {
  OrganizationMemberArgs,
  OrganizationMemberInputs,
  OrganizationMemberOutputs,
} from "./resources/public/organizationMember";
export { OrganizationMember, organizationMemberProvider } from "./resources/public/organizationMember";
export type {
  OrganizationSpendingLimitArgs,
  OrganizationSpendingLimitInputs,
  OrganizationSpendingLimitOutputs,
} from "./resources/public/organizationSpendingLimit";
export {
  OrganizationSpendingLimit,
  organizationSpendingLimitProvider,
} from "./resources/public/organizationSpendingLimit";
export type {
  DefaultEndpointSettings,
  ProjectArgs,
  ProjectInputs,
  ProjectOutputs,
} from "./resources/public/project";
export { Project, projectProvider } from "./resources/public/project";
export type {
  ProjectMemberArgs,
  ProjectMemberInputs,
  ProjectMemberOutputs,
} from "./resources/public/projectMember";
export { ProjectMember, projectMemberProvider } from "./resources/public/projectMember";
export type {
  ProjectPermissionArgs,
  ProjectPermissionInputs,
  ProjectPermissionOutputs,
} from "./resources/public/projectPermission";
export { ProjectPermission, projectPermissionProvider } from "./resources/public/projectPermission";
export type {
  ProjectVpcEndpointArgs,
  ProjectVpcEndpointInputs,
  ProjectVpcEndpointOutputs,
} from "./resources/public/projectVpcEndpoint";
export { ProjectVpcEndpoint, projectVpcEndpointProvider } from "./resources/public/projectVpcEndpoint";
export type { RoleArgs, RoleInputs, RoleOutputs } from "./resources/public/role";
export { Role, roleProvider } from "./resources/public/role";
export type { SnapshotArgs, SnapshotInputs, SnapshotOutputs } from "./resources/public/snapshot";
export { Snapshot, snapshotProvider } from "./resources/public/snapshot";
export type { TriggerArgs, TriggerInputs, TriggerOutputs } from "./resources/public/trigger";
export { Trigger, triggerProvider } from "./resources/public/trigger";
export type { VpcEndpointArgs, VpcEndpointInputs, VpcEndpointOutputs } from "./resources/public/vpcEndpoint";
export { VpcEndpoint, vpcEndpointProvider } from "./resources/public/vpcEndpoint";
