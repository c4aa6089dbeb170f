import type { ComputeSettings, ProjectRecord } from "./records";

// What the emulator uses when a request, a seed or an older state file leaves a value out: the
// service's own defaults where its document names them, else the values a fresh account shows.

/** Region of a project created without `region_id`. */
export const DEFAULT_REGION = "aws-us-east-2";

/** The regions the emulator lists (`GET /regions`) and accepts for new projects. */
export const REGIONS: readonly { region_id: string; name: string; geo_lat: string; geo_long: string }[] = [
  {
    region_id: "aws-us-east-1",
    name: "AWS US East (N. Virginia)",
    geo_lat: "38.9940541",
    geo_long: "-77.4524237",
  },
  { region_id: "aws-us-east-2", name: "AWS US East (Ohio)", geo_lat: "39.9612", geo_long: "-82.9988" },
  { region_id: "aws-us-west-2", name: "AWS US West (Oregon)", geo_lat: "45.5152", geo_long: "-122.6784" },
  { region_id: "aws-eu-central-1", name: "AWS Europe (Frankfurt)", geo_lat: "50.1109", geo_long: "8.6821" },
  { region_id: "aws-eu-west-2", name: "AWS Europe (London)", geo_lat: "51.5072", geo_long: "-0.1276" },
  {
    region_id: "aws-ap-southeast-1",
    name: "AWS Asia Pacific (Singapore)",
    geo_lat: "1.3521",
    geo_long: "103.8198",
  },
  {
    region_id: "aws-ap-southeast-2",
    name: "AWS Asia Pacific (Sydney)",
    geo_lat: "-33.8688",
    geo_long: "151.2093",
  },
  {
    region_id: "aws-sa-east-1",
    name: "AWS South America (São Paulo)",
    geo_lat: "-23.5558",
    geo_long: "-46.6396",
  },
  {
    region_id: "azure-eastus2",
    name: "Azure East US 2 (Virginia)",
    geo_lat: "36.6681",
    geo_long: "-78.3889",
  },
  {
    region_id: "azure-westus3",
    name: "Azure West US 3 (Arizona)",
    geo_lat: "33.4484",
    geo_long: "-112.0740",
  },
  {
    region_id: "azure-gwc",
    name: "Azure Germany West Central (Frankfurt)",
    geo_lat: "50.1109",
    geo_long: "8.6821",
  },
];

/** Postgres major version of a project created without `pg_version`. */
export const DEFAULT_PG_VERSION = 17;

/** Name of a new project's default branch. */
export const DEFAULT_BRANCH_NAME = "main";

/** The role that owns a new project's database. */
export const DEFAULT_ROLE_NAME = "neondb_owner";

/** The database of a new project. */
export const DEFAULT_DATABASE_NAME = "neondb";

/** Compute settings of endpoints created without any. */
export const DEFAULT_COMPUTE: ComputeSettings = {
  autoscaling_limit_min_cu: 0.25,
  autoscaling_limit_max_cu: 0.25,
  suspend_timeout_seconds: 0,
};

/** How far back a branch's history reaches when the project sets no `history_retention_seconds`. */
export const DEFAULT_HISTORY_RETENTION_SECONDS = 86_400;

/** The provisioner of projects and endpoints created without one. */
export const DEFAULT_PROVISIONER = "k8s-neonvm";

/** Bytes of data in a fresh branch: the size of an empty database, schema included. */
export const EMPTY_BRANCH_BYTES = 7_585_792;

/** Bytes of data in a new project's default branch, and in branches that record no size. */
export const DEFAULT_BRANCH_BYTES = 30_785_536;

/** The LSN a branch's history starts at; later points grow from it. */
export const FIRST_LSN = "0/1F0A3B8";

/** The compute settings the project's new endpoints start with. */
export function projectCompute(project: ProjectRecord): ComputeSettings {
  return project.default_endpoint_settings ?? DEFAULT_COMPUTE;
}

/** A shared preload library a project's computes can load (`settings.preload_libraries`). */
export interface PreloadLibrary {
  library_name: string;
  description: string;
  /** Loaded when the project's settings name none. */
  is_default: boolean;
  is_experimental: boolean;
  version: string;
  /** The Postgres major versions it is built for. */
  pg_versions: readonly number[];
}

/**
 * The shared preload libraries, each with the Postgres versions it exists for: the extensions
 * that need `shared_preload_libraries` (and so a compute restart) to work.
 */
export const PRELOAD_LIBRARIES: readonly PreloadLibrary[] = [
  {
    library_name: "pg_stat_statements",
    description: "Track planning and execution statistics of all SQL statements",
    is_default: true,
    is_experimental: false,
    version: "1.10",
    pg_versions: [14, 15, 16, 17, 18],
  },
  {
    library_name: "timescaledb",
    description: "Time-series data: hypertables, continuous aggregates and compression",
    is_default: false,
    is_experimental: false,
    version: "2.17.1",
    pg_versions: [14, 15, 16, 17],
  },
  {
    library_name: "pg_cron",
    description: "Job scheduler for running SQL on a cron schedule",
    is_default: false,
    is_experimental: false,
    version: "1.6",
    pg_versions: [14, 15, 16, 17, 18],
  },
  {
    library_name: "pg_partman_bgw",
    description: "Background worker of pg_partman, running partition maintenance",
    is_default: false,
    is_experimental: false,
    version: "5.1.0",
    pg_versions: [14, 15, 16, 17],
  },
  {
    library_name: "pgaudit",
    description: "Session and object audit logging",
    is_default: false,
    is_experimental: false,
    version: "17.0",
    pg_versions: [14, 15, 16, 17],
  },
  {
    library_name: "rag_bge_small_en_v15",
    description: "Text embeddings with the bge-small-en-v1.5 model, inside Postgres",
    is_default: false,
    is_experimental: true,
    version: "0.0.0",
    pg_versions: [16, 17],
  },
  {
    library_name: "rag_jina_reranker_v1_tiny_en",
    description: "Reranking with the jina-reranker-v1-tiny-en model, inside Postgres",
    is_default: false,
    is_experimental: true,
    version: "0.0.0",
    pg_versions: [16, 17],
  },
];

/** The plan consumption history reports: every account here is on a plan that has it. */
export const CONSUMPTION_PLAN = "scale";
