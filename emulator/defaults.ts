import type { ComputeSettings, ProjectRecord } from "./state";

// What the emulator uses when a request, a seed or an older state file leaves a value out: the
// service's own defaults where its document names them, else the values a fresh account shows.

/** Region of a project created without `region_id`. */
export const DEFAULT_REGION = "aws-us-east-2";

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
