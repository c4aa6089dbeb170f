/**
 * The lookups, declared: functions that find an object that exists (made by hand, by another stack
 * or by another tool) by its id or by the name users know it by, so a program refers to it without
 * hard-coding ids. Re-exported by `declared.ts`, whose vocabulary and rules they follow. A lookup
 * answers from the API's listings and reads; none returns a password.
 */
import { arrayOf, BOOLEAN, declareFunction, NUMBER, objectType, STRING } from "../resources/public/declare";
import { PROJECT_SUMMARY } from "./declared";

/** A branch as the API shows it, with its fields in camelCase. */
export const BRANCH_SUMMARY = objectType("BranchSummary", {
  /** Branch id (`br-...`). */
  id: { type: STRING },
  /** Owning project. */
  projectId: { type: STRING },
  /** Branch name, unique in its project. */
  name: { type: STRING },
  /** The parent branch's id; absent for the project's root branch. */
  parentId: { type: STRING, optional: true },
  /** Whether this is the project's default branch. */
  default: { type: BOOLEAN },
  /** Whether the branch is protected. */
  protected: { type: BOOLEAN },
  /** State, e.g. `ready` or `init`. */
  currentState: { type: STRING, optional: true },
  /** When the service deletes the branch by itself (RFC 3339); absent when it never expires. */
  expiresAt: { type: STRING, optional: true },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING },
  /** Last update time, ISO 8601 UTC. */
  updatedAt: { type: STRING },
});

/** A compute endpoint as the API shows it, with its fields in camelCase. */
export const ENDPOINT_SUMMARY = objectType("EndpointSummary", {
  /** Compute id (`ep-...`). */
  id: { type: STRING },
  /** Owning project. */
  projectId: { type: STRING },
  /** The branch it serves. */
  branchId: { type: STRING },
  /** `read_write` or `read_only`. */
  type: { type: STRING },
  /** The host to connect to (the pooled host adds `-pooler` to its first label). */
  host: { type: STRING },
  /** State, e.g. `active`, `idle` or `init`. */
  currentState: { type: STRING, optional: true },
  /** Minimum compute units of autoscaling. */
  autoscalingLimitMinCu: { type: NUMBER, optional: true },
  /** Maximum compute units of autoscaling. */
  autoscalingLimitMaxCu: { type: NUMBER, optional: true },
  /** Seconds of inactivity before the compute suspends (0: the default, -1: never). */
  suspendTimeoutSeconds: { type: NUMBER, optional: true },
  /** Whether connections to the compute are refused. */
  disabled: { type: BOOLEAN },
  /** The compute's free label, when it has one. */
  name: { type: STRING, optional: true },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING, optional: true },
});

/** A Postgres role of a branch as the API shows it, without its password (`getConnectionUri` gives one). */
export const ROLE_SUMMARY = objectType("RoleSummary", {
  /** Role name. */
  name: { type: STRING },
  /** The branch the role is on. */
  branchId: { type: STRING },
  /** Whether the role is protected (a system role). */
  protected: { type: BOOLEAN },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING, optional: true },
});

/** A database of a branch as the API shows it. */
export const DATABASE_SUMMARY = objectType("DatabaseSummary", {
  /** Database id (a number). */
  id: { type: NUMBER, optional: true },
  /** Database name. */
  name: { type: STRING },
  /** The role that owns it. */
  ownerName: { type: STRING, optional: true },
  /** The branch the database is on. */
  branchId: { type: STRING },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING, optional: true },
});

/** Finds one project by id or by its exact name; fails when none, or more than one, has the name. */
export const GET_PROJECT = declareFunction({
  name: "getProject",
  inputs: {
    /** The project's id; give this or `name`. */
    projectId: { type: STRING },
    /** The project's exact name; give this or `projectId`. */
    name: { type: STRING },
    /** Look for the name in this organization's projects only. */
    orgId: { type: STRING },
  },
  outputs: {
    /** The project. */
    project: { type: PROJECT_SUMMARY },
  },
});

/** Finds one branch of a project by id or by its name; fails naming the project's branches when none matches. */
export const GET_BRANCH = declareFunction({
  name: "getBranch",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch's id; give this or `name`. */
    branchId: { type: STRING },
    /** The branch's name, e.g. `main`; give this or `branchId`. */
    name: { type: STRING },
  },
  outputs: {
    /** The branch. */
    branch: { type: BRANCH_SUMMARY },
  },
});

/** Lists the branches of a project. */
export const GET_BRANCHES = declareFunction({
  name: "getBranches",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
  },
  outputs: {
    /** The project's branches, the API's order. */
    branches: { type: arrayOf(BRANCH_SUMMARY) },
  },
});

/** Finds one compute: by id, or the read-write compute of a branch. */
export const GET_ENDPOINT = declareFunction({
  name: "getEndpoint",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The compute's id; give this or `branchId`. */
    endpointId: { type: STRING },
    /** The branch whose read-write compute to find; give this or `endpointId`. */
    branchId: { type: STRING },
  },
  outputs: {
    /** The compute. */
    endpoint: { type: ENDPOINT_SUMMARY },
  },
});

/** Lists the computes of a project, or of one of its branches. */
export const GET_ENDPOINTS = declareFunction({
  name: "getEndpoints",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** Only this branch's computes. */
    branchId: { type: STRING },
  },
  outputs: {
    /** The computes, the API's order. */
    endpoints: { type: arrayOf(ENDPOINT_SUMMARY) },
  },
});

/** Finds one role of a branch by name (without its password). */
export const GET_ROLE = declareFunction({
  name: "getRole",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch the role is on. */
    branchId: { type: STRING, required: true },
    /** The role's name. */
    name: { type: STRING, required: true },
  },
  outputs: {
    /** The role. */
    role: { type: ROLE_SUMMARY },
  },
});

/** Lists the roles of a branch (without their passwords). */
export const GET_ROLES = declareFunction({
  name: "getRoles",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch. */
    branchId: { type: STRING, required: true },
  },
  outputs: {
    /** The branch's roles, the API's order. */
    roles: { type: arrayOf(ROLE_SUMMARY) },
  },
});

/** Finds one database of a branch by name. */
export const GET_DATABASE = declareFunction({
  name: "getDatabase",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch the database is on. */
    branchId: { type: STRING, required: true },
    /** The database's name. */
    name: { type: STRING, required: true },
  },
  outputs: {
    /** The database. */
    database: { type: DATABASE_SUMMARY },
  },
});

/** Lists the databases of a branch. */
export const GET_DATABASES = declareFunction({
  name: "getDatabases",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch. */
    branchId: { type: STRING, required: true },
  },
  outputs: {
    /** The branch's databases, the API's order. */
    databases: { type: arrayOf(DATABASE_SUMMARY) },
  },
});
