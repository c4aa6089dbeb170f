/**
 * pulumi-clouddb: Pulumi dynamic resources and data sources for the Cloud Database Control API v2.
 */

export * from "./data/connectionUri";
export * from "./data/operations";
export type { DataSourceOptions } from "./data/options";
export * from "./data/projects";
export {
  isPartialFailure,
  isResourceError,
  PartialFailure,
  ResourceError,
  type ResourceErrorKind,
} from "./resources/errors";
export {
  ApiKey,
  type ApiKeyArgs,
  type ApiKeyInputs,
  type ApiKeyKind,
  type ApiKeyOutputs,
  apiKeyProvider,
} from "./resources/public/apiKey";
export {
  Branch,
  type BranchArgs,
  type BranchEndpoint,
  type BranchInputs,
  type BranchOutputs,
  type BranchTimeouts,
  branchProvider,
  type EndpointType,
} from "./resources/public/branch";
export {
  Database,
  type DatabaseArgs,
  type DatabaseInputs,
  type DatabaseOutputs,
  databaseProvider,
} from "./resources/public/database";
export {
  type ComputeEndpointType,
  Endpoint,
  type EndpointArgs,
  type EndpointInputs,
  type EndpointOutputs,
  endpointProvider,
} from "./resources/public/endpoint";
export {
  type DefaultEndpointSettings,
  Project,
  type ProjectArgs,
  type ProjectInputs,
  type ProjectOutputs,
  projectProvider,
} from "./resources/public/project";
export {
  Role,
  type RoleArgs,
  type RoleInputs,
  type RoleOutputs,
  roleProvider,
} from "./resources/public/role";
