/**
 * pulumi-clouddb: Pulumi dynamic resources and data sources for the Cloud Database Control API v2.
 */

export * from "./data/advisors";
export * from "./data/aiGateway";
export * from "./data/connectionUri";
export * from "./data/consumption";
export * from "./data/inventory";
export * from "./data/lookups";
export * from "./data/operations";
export type { DataSourceOptions } from "./data/options";
export * from "./data/preloadLibraries";
export * from "./data/projects";
export * from "./data/regions";
export * from "./data/schemaDiff";
// Each kind's class, provider and types, derived from the registry (`npm run derive:lists`).
export * from "./kinds.gen";
export type { ResourceErrorKind } from "./resources/errors";
export { isPartialFailure, isResourceError, PartialFailure, ResourceError } from "./resources/errors";
// The components: several kinds' resources made as one.
export type { PreviewEnvironmentArgs } from "./resources/public/previewEnvironment";
export { PreviewEnvironment } from "./resources/public/previewEnvironment";
