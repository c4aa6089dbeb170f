/**
 * pulumi-clouddb: Pulumi dynamic resources and data sources for the Cloud Database Control API v2.
 */

export type { DataSourceOptions } from "./data/credentials";
export * from "./data/operations";
export * from "./data/projects";
export * from "./resources/apiKey";
export * from "./resources/branch";
export { PartialFailure } from "./resources/runtime";
