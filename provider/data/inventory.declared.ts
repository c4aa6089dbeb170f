/**
 * The inventory lookups, declared: what a project, a branch or an organization holds, as lists, and
 * a role's password. With `lookups.declared.ts` (one object by its name) they let a program refer to
 * what exists without hard-coding ids. Re-read by the same readers as `declared.ts`.
 */
import { arrayOf, BOOLEAN, declareFunction, INTEGER, objectType, STRING } from "../resources/public/declare";

/** A snapshot of a branch. */
export const SNAPSHOT_SUMMARY = objectType("SnapshotSummary", {
  /** Snapshot id. */
  id: { type: STRING },
  /** Snapshot name. */
  name: { type: STRING },
  /** The branch it was taken of, when the API reports it. */
  sourceBranchId: { type: STRING, optional: true },
  /** Whether it was taken by hand (false for a backup schedule's). */
  manual: { type: BOOLEAN },
  /** When the service deletes it (RFC 3339); absent when it is kept. */
  expiresAt: { type: STRING, optional: true },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING },
});

/** An API key as listed: never its secret. */
export const API_KEY_SUMMARY = objectType("ApiKeySummary", {
  /** Key id. */
  id: { type: INTEGER },
  /** Key name. */
  name: { type: STRING },
  /** The project a project-scoped organization key is limited to. */
  projectId: { type: STRING, optional: true },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING, optional: true },
  /** When the key was last used, ISO 8601 UTC. */
  lastUsedAt: { type: STRING, optional: true },
});

/** A VPC endpoint a project's connections may come through. */
export const VPC_ENDPOINT_SUMMARY = objectType("VpcEndpointSummary", {
  /** The VPC endpoint's id at the cloud provider. */
  vpcEndpointId: { type: STRING },
  /** Its label. */
  label: { type: STRING },
});

/** A member of an organization. */
export const ORGANIZATION_MEMBER_SUMMARY = objectType("OrganizationMemberSummary", {
  /** Membership id: what an OrganizationMember is imported by. */
  memberId: { type: STRING },
  /** The member's user id. */
  userId: { type: STRING },
  /** The member's email, when the API shows it. */
  email: { type: STRING, optional: true },
  /** `admin` or `member`. */
  role: { type: STRING },
  /** When the user joined, ISO 8601 UTC. */
  joinedAt: { type: STRING, optional: true },
});

/** A pending invitation to an organization. */
export const ORGANIZATION_INVITATION_SUMMARY = objectType("OrganizationInvitationSummary", {
  /** Invitation id. */
  id: { type: STRING },
  /** The email invited. */
  email: { type: STRING },
  /** The role the invitee gets: `admin` or `member`. */
  role: { type: STRING },
  /** The user id of who invited. */
  invitedBy: { type: STRING },
  /** When the invitation was sent, ISO 8601 UTC. */
  invitedAt: { type: STRING },
});

/** A bucket of a branch. */
export const BUCKET_SUMMARY = objectType("BucketSummary", {
  /** Bucket name. */
  name: { type: STRING },
  /** `private` or `public`. */
  accessLevel: { type: STRING },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING },
});

/** A function deployed on a branch. */
export const FUNCTION_SUMMARY = objectType("FunctionSummary", {
  /** Function id. */
  id: { type: STRING },
  /** Its slug, unique on the branch: what its URL and triggers name. */
  slug: { type: STRING },
  /** Its display name. */
  name: { type: STRING },
  /** The URL that invokes it. */
  invocationUrl: { type: STRING },
  /** The status of its active deployment, when it has one (`completed`, ...). */
  activeDeploymentStatus: { type: STRING, optional: true },
  /** Creation time, ISO 8601 UTC. */
  createdAt: { type: STRING },
});

/** Lists a project's snapshots, those a backup schedule took included. */
export const GET_SNAPSHOTS = declareFunction({
  name: "getSnapshots",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** Only the snapshots taken of this branch. */
    branchId: { type: STRING },
  },
  outputs: {
    /** The snapshots, the API's order. */
    snapshots: { type: arrayOf(SNAPSHOT_SUMMARY) },
  },
});

/** Lists API keys, never their secrets: an organization's (and its project-scoped ones) with `orgId`, else the key's user's personal keys. */
export const GET_API_KEYS = declareFunction({
  name: "getApiKeys",
  inputs: {
    /** The organization whose keys to list; without it, the personal keys. */
    orgId: { type: STRING },
    /** Only the keys with this exact name. */
    name: { type: STRING },
  },
  outputs: {
    /** The keys, the API's order. */
    apiKeys: { type: arrayOf(API_KEY_SUMMARY) },
  },
});

/** Lists the VPC endpoints a project allows connections through. */
export const GET_VPC_ENDPOINTS = declareFunction({
  name: "getVpcEndpoints",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
  },
  outputs: {
    /** The VPC endpoints, the API's order. */
    vpcEndpoints: { type: arrayOf(VPC_ENDPOINT_SUMMARY) },
  },
});

/** Lists the members of an organization, or finds them by email. */
export const GET_ORGANIZATION_MEMBERS = declareFunction({
  name: "getOrganizationMembers",
  inputs: {
    /** The organization. */
    orgId: { type: STRING, required: true },
    /** Only the member with this email (compared without regard to case). */
    email: { type: STRING },
  },
  outputs: {
    /** The members, the API's order. */
    members: { type: arrayOf(ORGANIZATION_MEMBER_SUMMARY) },
  },
});

/** Lists the pending invitations of an organization. */
export const GET_ORGANIZATION_INVITATIONS = declareFunction({
  name: "getOrganizationInvitations",
  inputs: {
    /** The organization. */
    orgId: { type: STRING, required: true },
  },
  outputs: {
    /** The invitations, the API's order. */
    invitations: { type: arrayOf(ORGANIZATION_INVITATION_SUMMARY) },
  },
});

/** Lists the buckets of a branch, those it inherited from its parent included. */
export const GET_BUCKETS = declareFunction({
  name: "getBuckets",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch. */
    branchId: { type: STRING, required: true },
  },
  outputs: {
    /** The buckets, the API's order. */
    buckets: { type: arrayOf(BUCKET_SUMMARY) },
  },
});

/** Lists the functions of a branch. */
export const GET_FUNCTIONS = declareFunction({
  name: "getFunctions",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch. */
    branchId: { type: STRING, required: true },
  },
  outputs: {
    /** The functions, slug order. */
    functions: { type: arrayOf(FUNCTION_SUMMARY) },
  },
});

/** Reads a role's current password (the project must store passwords): the result is a secret. */
export const GET_ROLE_PASSWORD = declareFunction({
  name: "getRolePassword",
  inputs: {
    /** The project. */
    projectId: { type: STRING, required: true },
    /** The branch the role is on. */
    branchId: { type: STRING, required: true },
    /** The role's name. */
    roleName: { type: STRING, required: true },
  },
  outputs: {
    /** The role's password. */
    password: { type: STRING, secret: true },
  },
});
