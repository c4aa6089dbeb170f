/**
 * The data sources, declared: each function's arguments and result, in the vocabulary of the
 * resource declarations (`../resources/public/declare.ts`), each documented by its JSDoc. The
 * functions' TypeScript types and the package schema's functions come from here. Loads neither
 * zod nor the client.
 */
import {
  arrayOf,
  BOOLEAN,
  declareFunction,
  enumOf,
  INTEGER,
  mapOf,
  NUMBER,
  objectType,
  STRING,
} from "../resources/public/declare";

/** A project as listed, with the API's fields in camelCase. */
export const PROJECT_SUMMARY = objectType("ProjectSummary", {
  /** Project id. */
  id: { type: STRING },
  /** Project name. */
  name: { type: STRING },
  /** Cloud platform id. */
  platformId: { type: STRING },
  /** Region id. */
  regionId: { type: STRING },
  /** Compute provisioner. */
  provisioner: { type: STRING },
  /** Postgres major version. */
  pgVersion: { type: INTEGER },
  /** Compute seconds used. */
  cpuUsedSec: { type: NUMBER },
  /** Whether the project is locked. */
  locked: { type: BOOLEAN },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING },
  /** Last update time, ISO 8601 UTC. */
  updatedAt: { type: STRING },
  /** Proxy host for connections. */
  proxyHost: { type: STRING },
  /** Branch logical size limit. */
  branchLogicalSizeLimit: { type: NUMBER },
  /** Owning organization, when the API reports it. */
  orgId: { type: STRING, optional: true },
});

/** Lists every project the key can see (all pages). */
export const GET_PROJECTS = declareFunction({
  name: "getProjects",
  inputs: {
    /** Only projects whose name or id contains this text. */
    search: { type: STRING },
    /** Only the projects of this organization. */
    orgId: { type: STRING },
    /** Page size, 1-400 (default 400: fewest requests). */
    limit: { type: INTEGER },
  },
  outputs: {
    /** Every project visible to the key, over all pages. */
    projects: { type: arrayOf(PROJECT_SUMMARY) },
    /** Projects the API could not list right now: when non-empty, `projects` is partial. */
    unavailableProjectIds: { type: arrayOf(STRING) },
  },
});

/** An operation with camelCase fields. */
export const OPERATION_SUMMARY = objectType("OperationSummary", {
  /** Operation id (UUID). */
  id: { type: STRING },
  /** Owning project. */
  projectId: { type: STRING },
  /** Branch concerned, when any. */
  branchId: { type: STRING, optional: true },
  /** Compute endpoint concerned, when any. */
  endpointId: { type: STRING, optional: true },
  /** Action, e.g. `create_branch`; the list of actions grows, so any string. */
  action: { type: STRING },
  /** Status: scheduling, running, finished, failed, error, cancelling, cancelled, skipped. */
  status: { type: STRING },
  /** Failures so far (a `failed` operation is retried by the platform). */
  failuresCount: { type: INTEGER },
  /** Creation time. */
  createdAt: { type: STRING },
  /** Last update time. */
  updatedAt: { type: STRING },
  /** Total duration in milliseconds, when reported. */
  totalDurationMs: { type: NUMBER, optional: true },
  /** Error text of a failed operation. */
  error: { type: STRING, optional: true },
});

/** Lists a project's operations newest first, across pages, stopping at `maxItems`. */
export const GET_OPERATIONS = declareFunction({
  name: "getOperations",
  inputs: {
    /** The project whose operations to list. */
    projectId: { type: STRING, required: true },
    /** Stop after this many operations (newest first). Default: all. */
    maxItems: { type: INTEGER },
    /** Page size, 1-1000 (default 1000: fewest requests). */
    pageSize: { type: INTEGER },
  },
  outputs: {
    /** Operations, newest first. */
    operations: { type: arrayOf(OPERATION_SUMMARY) },
  },
});

/** Reads one operation; fails with a not-found error when it does not exist (or was removed after 6 months). */
export const GET_OPERATION = declareFunction({
  name: "getOperation",
  inputs: {
    /** The owning project. */
    projectId: { type: STRING, required: true },
    /** The operation id. */
    operationId: { type: STRING, required: true },
  },
  outputs: {
    /** The operation. */
    operation: { type: OPERATION_SUMMARY },
  },
});

/** Reads a connection string, password included: the result is a secret. */
export const GET_CONNECTION_URI = declareFunction({
  name: "getConnectionUri",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch; default: the project's default branch. */
    branchId: { type: STRING },
    /** The compute to connect through; default: the branch's read_write compute. */
    endpointId: { type: STRING },
    /** The database to connect to. */
    databaseName: { type: STRING, required: true },
    /** The role to connect as (its password is in the result). */
    roleName: { type: STRING, required: true },
    /** Connect through the connection pooler (the `-pooler` host). Default false. */
    pooled: { type: BOOLEAN },
  },
  outputs: {
    /** `postgresql://role:password@host/database?sslmode=require`: it holds the role's password. */
    uri: { type: STRING, secret: true },
  },
});

/** A region projects can be created in. */
export const REGION = objectType("Region", {
  /** Region id, e.g. `aws-us-east-2`: a project's `regionId`. */
  regionId: { type: STRING },
  /** A short description, e.g. `AWS US East (Ohio)`. */
  name: { type: STRING },
  /** Whether a project created without `regionId` lands here. */
  default: { type: BOOLEAN },
  /** Approximate latitude, empty when unknown. */
  geoLat: { type: STRING },
  /** Approximate longitude, empty when unknown. */
  geoLong: { type: STRING },
});

/** Lists the regions projects can be created in. */
export const GET_REGIONS = declareFunction({
  name: "getRegions",
  inputs: {
    /** Only the regions open to this organization (the service opens some to some organizations only). */
    orgId: { type: STRING },
  },
  outputs: {
    /** The regions, the service's order. */
    regions: { type: arrayOf(REGION) },
  },
});

/** Compares the schemas of a database on two branches, or on a branch and a point of its (or another branch's) history. */
export const GET_SCHEMA_DIFF = declareFunction({
  name: "getSchemaDiff",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch compared: the diff's new side (`+` lines). */
    branchId: { type: STRING, required: true },
    /** The database compared, by name; it must exist on both branches. */
    databaseName: { type: STRING, required: true },
    /** The branch compared with: the diff's old side (`-` lines). Default: `branchId`'s parent. Give `branchId` itself, with `baseLsn` or `baseTimestamp`, to compare a branch with its own past. */
    baseBranchId: { type: STRING },
    /** `branchId` at this LSN (e.g. `0/1F0A3B8`) instead of its head; not with `timestamp`. */
    lsn: { type: STRING },
    /** `branchId` at this time (RFC 3339) instead of its head; not with `lsn`. */
    timestamp: { type: STRING },
    /** The base branch at this LSN instead of its head; not with `baseTimestamp`. */
    baseLsn: { type: STRING },
    /** The base branch at this time (RFC 3339) instead of its head; not with `baseLsn`. */
    baseTimestamp: { type: STRING },
  },
  outputs: {
    /** The unified diff from the base's schema to the branch's (SQL, `---`/`+++` headers naming each side), as a pull request comment shows it; empty when they are the same. */
    diff: { type: STRING },
    /** Whether the schemas differ (`diff` is not empty). */
    changed: { type: BOOLEAN },
  },
});

/** How long each timeframe of consumption history is. */
export const CONSUMPTION_GRANULARITY = enumOf("ConsumptionGranularity", ["hourly", "daily", "monthly"]);

/** One metric of one timeframe of consumption history. */
export const CONSUMPTION_ROW = objectType("ConsumptionRow", {
  /** Start of the timeframe (an hour, a day or a month), ISO 8601 UTC. */
  timeframeStart: { type: STRING },
  /** End of the timeframe, ISO 8601 UTC. */
  timeframeEnd: { type: STRING },
  /** The metric, e.g. `compute_unit_seconds` or `root_branch_bytes_month`. */
  metric: { type: STRING },
  /** Its value in the timeframe: seconds, bytes or byte-months as the metric's name says. */
  value: { type: INTEGER },
  /** Start of the billing period the timeframe is in. */
  periodStart: { type: STRING },
  /** The billing plan of that period, e.g. `scale`. */
  periodPlan: { type: STRING },
});

/** Reads a project's (or one of its branches') consumption metrics over a time range, one row per metric and timeframe. */
export const GET_CONSUMPTION = declareFunction({
  name: "getConsumption",
  inputs: {
    /** The project, which must belong to an organization (consumption history is kept per organization). */
    projectId: { type: STRING, required: true },
    /** Only this branch of the project. Default: the whole project. */
    branchId: { type: STRING },
    /** Start of the range (RFC 3339), rounded down to the granularity; not before 2024-03-01. */
    from: { type: STRING, required: true },
    /** End of the range (RFC 3339), rounded down to the granularity: its timeframe is included. */
    to: { type: STRING, required: true },
    /** Timeframe length; a range covers at most 168 hours hourly, 60 days daily, a year monthly. */
    granularity: { type: CONSUMPTION_GRANULARITY, required: true },
    /** The metrics to read. Default: every metric the service reports for a project (or, with `branchId`, for a branch). */
    metrics: { type: arrayOf(STRING) },
  },
  outputs: {
    /** One row per metric and timeframe, oldest timeframe first. */
    rows: { type: arrayOf(CONSUMPTION_ROW) },
  },
});

/** What an advisor issue is about. */
export const ADVISOR_CATEGORY = enumOf("AdvisorCategory", ["SECURITY", "PERFORMANCE"]);

/** How severe an advisor issue is, least first. */
export const ADVISOR_SEVERITY = enumOf("AdvisorSeverity", ["INFO", "WARN", "ERROR"]);

/** An issue the advisor found in a database. */
export const ADVISOR_ISSUE = objectType("AdvisorIssue", {
  /** The check that found it, e.g. `rls_disabled_in_public`. */
  name: { type: STRING },
  /** The check's title. */
  title: { type: STRING },
  /** Severity: `ERROR`, `WARN` or `INFO`. */
  level: { type: STRING },
  /** `EXTERNAL` when it affects what the Data API exposes, else `INTERNAL`. */
  facing: { type: STRING },
  /** `SECURITY`, `PERFORMANCE`, or both. */
  categories: { type: arrayOf(STRING) },
  /** What the check detects. */
  description: { type: STRING },
  /** This instance: the object concerned and what is wrong with it. */
  detail: { type: STRING },
  /** Where the fix is explained. */
  remediation: { type: STRING },
  /** Context of the finding (schema, table, ...), each value as text (JSON for a structured one). */
  metadata: { type: mapOf(STRING) },
  /** A key unique to this finding. */
  cacheKey: { type: STRING },
});

/** Lists the security and performance issues the advisor finds in one database of a project's branch. */
export const GET_ADVISORS = declareFunction({
  name: "getAdvisors",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch analyzed. Default: the project's default branch. */
    branchId: { type: STRING },
    /** The database analyzed; needed when the branch has more than one. */
    databaseName: { type: STRING },
    /** Only issues of this category. */
    category: { type: ADVISOR_CATEGORY },
    /** Only issues at least this severe (`WARN`: warnings and errors). Default: all. */
    minSeverity: { type: ADVISOR_SEVERITY },
  },
  outputs: {
    /** The issues, as the service orders them. */
    issues: { type: arrayOf(ADVISOR_ISSUE) },
  },
});

/** A shared preload library a project can enable. */
export const PRELOAD_LIBRARY = objectType("PreloadLibrary", {
  /** The name `settings.preload_libraries` takes, e.g. `timescaledb`. */
  name: { type: STRING },
  /** What it does. */
  description: { type: STRING },
  /** Its version. */
  version: { type: STRING },
  /** Whether computes load it when the project names none. */
  isDefault: { type: BOOLEAN },
  /** Whether the service marks it experimental. */
  isExperimental: { type: BOOLEAN },
});

/** Lists the shared preload libraries a project's Postgres version offers (each needs a compute restart to load). */
export const GET_PRELOAD_LIBRARIES = declareFunction({
  name: "getPreloadLibraries",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
  },
  outputs: {
    /** The libraries, the service's order. */
    libraries: { type: arrayOf(PRELOAD_LIBRARY) },
  },
});

/** Reads a branch's AI gateway endpoint: the OpenAI-compatible base URL an app sends model requests to. */
export const GET_AI_GATEWAY = declareFunction({
  name: "getAiGateway",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch (br-...). */
    branchId: { type: STRING, required: true },
  },
  outputs: {
    /** Whether the branch has a gateway; a branch without one is an error naming why. */
    enabled: { type: BOOLEAN },
    /** The endpoint root, without a dialect path: clients append one, e.g. `/ai-gateway/openai/v1/responses`. */
    baseUrl: { type: STRING },
  },
});
