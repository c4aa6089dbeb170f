// The account model: users, organizations (admin/member, their invitations, spending limit and VPC
// endpoints), projects (personal or organization-owned; their permissions and VPC restrictions),
// branches (their own fields, roles and databases; what each family keeps on a branch the family
// declares itself, on `BranchData`), endpoints, snapshots, API keys and operations. Plain JSON-able
// records: the store (state.ts) indexes them, and its persisted document is made of them as they are.

import type { JwksRecord } from "./family-records";
import type { MaskingRule } from "./openapi/requests.gen";

export type {
  AuthOauthProviderRecord,
  BranchAuthRecord,
  BucketObjectRecord,
  BucketRecord,
  CredentialRecord,
  CredentialScope,
  CustomDomainRecord,
  DataApiRecord,
  DeploymentRecord,
  FunctionRecord,
  JwksRecord,
  TriggerRecord,
} from "./family-records";

/** A user of the service; owns personal projects and personal API keys. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  image: string;
}

/** What a user is in an organization: an admin or a plain member. */
export type OrgRole = "admin" | "member";

/** A member's explicit role on one project of the organization. */
export type ProjectRole = "viewer" | "editor" | "admin";

/** What a project role, an organization role's default or an override gives on a project. */
export type ProjectPermissionLevel = "VIEWER" | "EDITOR" | "ADMIN";

/** An organization and its members. */
export interface OrgRecord {
  id: string;
  name: string;
  created_at_ms: number;
  members: Record<string, OrgRole>;
  /** When each member joined, by user id; a member absent here joined when the organization was made. */
  joined_at_ms?: Record<string, number>;
  /** The invitations sent, oldest first; a later one for the same email takes the place of an earlier one. */
  invitations?: InvitationRecord[];
  /** The monthly spending limit in cents; absent when none is set. */
  spending_limit_cents?: number;
  /**
   * The project permission a plain member holds on every project of the organization without an
   * explicit role; absent is EDITOR, null none (the member is unassigned until given a role).
   */
  member_project_permission?: ProjectPermissionLevel | null;
  /** The VPC endpoints assigned to the organization, in every region. */
  vpc_endpoints?: VpcEndpointRecord[];
  /** Endpoints once assigned and removed: the service never takes them back (docs/api-rules.md §10). */
  removed_vpc_endpoints?: string[];
}

/** An invitation to join an organization with a role, sent to an email by a user. */
export interface InvitationRecord {
  id: string;
  email: string;
  role: OrgRole;
  /** The user who sent it: the caller, or the creator of the organization key that sent it. */
  invited_by: string;
  invited_at_ms: number;
}

/** A VPC endpoint assigned to an organization in a region. */
export interface VpcEndpointRecord {
  vpc_endpoint_id: string;
  region_id: string;
  label: string;
  assigned_at_ms: number;
}

/** A project's restriction to one of its organization's VPC endpoints. */
export interface VpcRestrictionRecord {
  vpc_endpoint_id: string;
  label: string;
}

/** A project, owned either by a user (`owner_user_id`) or by an organization (`org_id`). */
export interface ProjectRecord {
  id: string;
  name: string;
  region_id: string;
  pg_version: number;
  owner_user_id?: string;
  org_id?: string;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  default_branch_id: string;
  /** When the project's operation queue drains; null when an operation never ends (stuck). */
  queue_end_ms: number | null;
  /** Set when deleted; the project stays recoverable for `RECOVERY_WINDOW_MS`. */
  deleted_at_ms?: number;
  history_retention_seconds?: number;
  /** Compute settings new endpoints of the project start with. */
  default_endpoint_settings?: ComputeSettings;
  /** The project's `settings` object as last set (free-form in the document). */
  settings?: Record<string, unknown>;
  /** When `settings.hipaa` was turned on; it is never turned off (docs/api-rules.md §11). */
  hipaa_enabled_at_ms?: number;
  /** The VPC endpoints the project is restricted to; none means every endpoint of its organization. */
  vpc_restrictions?: VpcRestrictionRecord[];
  /** Who the project is shared with, revoked grants included (with when they were revoked). */
  permissions?: PermissionRecord[];
  /** The explicit project roles of its organization's members, by user id. */
  member_roles?: Record<string, ProjectRole>;
  /** Requests to move the project to another account, accepted or expired ones included. */
  transfer_requests?: TransferRequestRecord[];
  /** The JWKS URLs the project trusts (docs/api-rules.md §24). */
  jwks?: JwksRecord[];
}

/**
 * A request to move a project to another account, made by whoever may give the project away; the
 * account that accepts it before it expires receives the project.
 */
export interface TransferRequestRecord {
  id: string;
  created_at_ms: number;
  expires_at_ms: number;
  /** The project's owner when the request was made (`org:<id>` or `user:<id>`): a request outlives no move. */
  from: string;
  accepted_at_ms?: number;
}

/** A project shared with an email: the account of that email may act on the project. */
export interface PermissionRecord {
  id: string;
  email: string;
  granted_at_ms: number;
  revoked_at_ms?: number;
}

/** How long a deleted project or branch can be recovered (the document: 7 days). */
export const RECOVERY_WINDOW_MS = 7 * 86_400_000;

/** True unless the project or branch was deleted longer than `RECOVERY_WINDOW_MS` before `nowMs`. */
export function recoverable(record: { deleted_at_ms?: number }, nowMs: number): boolean {
  return nowMs - (record.deleted_at_ms ?? nowMs) <= RECOVERY_WINDOW_MS;
}

/** Compute size and suspension of an endpoint. */
export interface ComputeSettings {
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
}

/** A database role on a branch. */
export interface RoleRecord {
  name: string;
  protected: boolean;
  created_at_ms: number;
  /** The role's password; revealed on request, like the service with `store_passwords`. Absent for `no_login` roles. */
  password?: string;
  no_login?: boolean;
  updated_at_ms?: number;
}

/** A database on a branch. */
export interface DatabaseRecord {
  id: number;
  name: string;
  owner_name: string;
  created_at_ms: number;
  updated_at_ms?: number;
}

/**
 * What the families keep on a branch besides its own fields: empty here, each family adds its fields
 * by declaration merging (`declare module "../records" { interface BranchData { ... } }`) and says in
 * families/branch-data.ts what a copy, preserve, restore and delete of the branch does to them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the families fill it in by declaration merging
export interface BranchData {}

/** A branch; deleted branches stay as tombstones so a repeated DELETE can answer 204. */
export interface BranchRecord extends BranchData {
  id: string;
  project_id: string;
  parent_id?: string;
  name: string;
  default: boolean;
  protected: boolean;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  deleted_at_ms?: number;
  /** The operation that creates the branch's data; the branch is `init` until it ends. */
  create_op_id?: string;
  created_by_user_id?: string;
  roles: RoleRecord[];
  databases: DatabaseRecord[];
  annotation: Record<string, string>;
  /** `parent-data` (default) or `schema-only` (the parent's schema, no data, no parent link). */
  init_source?: string;
  /** When the emulator deletes the branch by itself. */
  expires_at_ms?: number;
  ttl_interval_seconds?: number;
  parent_lsn?: string;
  parent_timestamp_ms?: number;
  /** Size of the branch's data in bytes. */
  logical_size?: number;
  last_reset_at_ms?: number;
  /** Why the branch was deleted when no user asked (`ttl`). */
  deleted_by?: string;
  /** The endpoints a deleted branch had, restored (idle) when it is recovered. */
  deleted_endpoints?: EndpointRecord[];
  /** The snapshot a branch made by a snapshot restore came from. */
  restored_from?: string;
  /** `restored` until the restore is finalized, then `finalized`. */
  restore_status?: "restored" | "finalized";
  /** The branch a finalize makes this one replace (its name and computes). */
  restore_target_id?: string;
  /** The branch this one replaced when its restore was finalized. */
  restored_as?: string;
}

/** One masking rule of an anonymized branch, as the API says it. */
export type MaskingRuleRecord = MaskingRule;

/** An anonymized branch's rules and its latest anonymization; its state derives from them and the clock. */
export interface AnonymizationRecord {
  masking_rules: MaskingRuleRecord[];
  last_run?: AnonymizationRunRecord;
}

/** One anonymization of a branch: asked for at a time, shown running for its duration, then its outcome. */
export interface AnonymizationRunRecord {
  requested_at_ms: number;
  duration_ms: number;
  /** The user whose key asked for it. */
  triggered_by?: string;
  /** The rules it applied, as `database.schema.table` per rule (the progress message names them). */
  tables: string[];
  /** The clock's time once the masking was applied and its WAL read: the run completes no earlier. */
  masked_at_ms?: number;
  /** Undefined while the masking is being applied; then what it did. */
  outcome?: { masked_columns: number; message: string; error?: string };
}

/** One entry of a branch's backup schedule, as the API says it. */
export interface BackupScheduleEntry {
  frequency: "hourly" | "daily" | "weekly" | "monthly" | "yearly";
  hour?: number;
  day?: number;
  month?: number;
  retention_seconds?: number;
}

/** A snapshot of a branch: the roles, databases (and, with Postgres, data) it had at a point. */
export interface SnapshotRecord {
  id: string;
  project_id: string;
  name: string;
  source_branch_id: string;
  lsn: string;
  timestamp_ms: number;
  created_at_ms: number;
  expires_at_ms?: number;
  /** False for the ones a backup schedule took. */
  manual: boolean;
  logical_size: number;
  roles: RoleRecord[];
  databases: DatabaseRecord[];
}

/** Compute endpoint type. */
export type EndpointType = "read_write" | "read_only";

/** A compute endpoint on a branch. */
export interface EndpointRecord {
  id: string;
  project_id: string;
  branch_id: string;
  type: EndpointType;
  creation_source: string;
  created_at_ms: number;
  updated_at_ms: number;
  /** Operations that start or suspend this compute, oldest first; its state derives from them. */
  op_ids: string[];
  /** Compute settings; absent in older state files (then the project defaults apply). */
  compute?: ComputeSettings;
  provisioner?: string;
  name?: string;
  disabled?: boolean;
  passwordless_access?: boolean;
  pooler_enabled?: boolean;
  settings?: Record<string, unknown>;
}

/** API key kind. */
export type KeyKind = "personal" | "organization" | "project";

/** An API key; only the SHA-256 of the secret is kept. */
export interface KeyRecord {
  id: number;
  kind: KeyKind;
  name: string;
  token_hash: string;
  /** Owner of a personal key; creator of an organization or project-scoped key. */
  user_id: string;
  org_id?: string;
  project_id?: string;
  created_at_ms: number;
  revoked: boolean;
  revoked_at_ms?: number;
  /** Why a project-scoped key stopped working without being revoked (its project left the organization). */
  disabled_reason?: string;
  last_used_at_ms?: number;
  last_used_from_addr: string;
}

/** How an operation ends; decided when it is created (scripts), computed lazily from the clock. */
export type Outcome =
  | { kind: "finish" }
  | { kind: "fail"; times: number }
  | { kind: "cancelled" }
  | { kind: "error"; message: string }
  | { kind: "skipped" }
  | { kind: "stuck" };

/** An operation; its status at any time is a pure function of these fields and the clock. */
export interface OperationRecord {
  id: string;
  project_id: string;
  branch_id?: string;
  endpoint_id?: string;
  action: string;
  /** Creation time in epoch microseconds; unique within a project, so it works as a cursor. */
  created_us: number;
  /** When it leaves the project's queue; null when queued behind an operation that never ends. */
  start_ms: number | null;
  duration_ms: number;
  outcome: Outcome;
  initiator: "user" | "platform" | "console";
}

/** What a new record of type `R` is made of: the `Given` fields, and any others to set. */
export type Fields<R, Given extends keyof R> = Pick<R, Given> & Partial<R>;
