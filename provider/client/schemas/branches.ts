/** Branches: the record, the answers of the branch routes, and the bodies of their changes. */
import { z } from "zod";
import { maybe } from "./common";
import { ConnectionUriSchema } from "./connections";
import { DatabaseSchema } from "./databases";
import { EndpointSchema } from "./endpoints";
import { OperationSchema } from "./operations";
import { RoleSchema } from "./roles";

/** A branch record (fields the library uses; the rest kept). */
export const BranchSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  parent_id: maybe(z.string()),
  name: z.string(),
  default: z.boolean().default(false),
  current_state: maybe(z.string()),
  pending_state: maybe(z.string()),
  protected: maybe(z.boolean()),
  /** When the service deletes the branch by itself (RFC 3339, seconds); absent when it never expires. */
  expires_at: maybe(z.string()),
  /** `parent-data` (the default) or `schema-only`; other strings accepted. */
  init_source: maybe(z.string()),
  /** `restored` for a branch a snapshot restore made, `finalized` once it replaced its target. */
  restore_status: maybe(z.string()),
  /** The snapshot a restored branch came from. */
  restored_from: maybe(z.string()),
  /** The branch a finalized restore replaced: this branch now carries its name and computes. */
  restored_as: maybe(z.string()),
  /** When the branch's data was last replaced (a reset or a restore). */
  last_reset_at: maybe(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A branch. */
export type Branch = z.infer<typeof BranchSchema>;

/** `POST /projects/{project_id}/branches` (201). */
export const BranchCreateResponseSchema = z.looseObject({
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).default([]),
  operations: z.array(OperationSchema).default([]),
  roles: z.array(RoleSchema).default([]),
  databases: z.array(DatabaseSchema).default([]),
  connection_uris: maybe(z.array(ConnectionUriSchema)),
});
/** Body of a branch creation. */
export type BranchCreateResponse = z.infer<typeof BranchCreateResponseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}` */
export const BranchGetResponseSchema = z.looseObject({
  branch: BranchSchema,
  annotation: z.unknown().optional(),
});
/** Body of a branch read. */
export type BranchGetResponse = z.infer<typeof BranchGetResponseSchema>;

/** `GET /projects/{project_id}/branches` */
export const BranchListResponseSchema = z.looseObject({
  branches: z.array(BranchSchema),
  /** Each annotated branch's annotation, by branch id; `value` holds the key/value pairs set on it. */
  annotations: z
    .record(z.string(), z.looseObject({ value: z.record(z.string(), z.string()).optional() }))
    .optional(),
});
/** Body of a project's branch list. */
export type BranchListResponse = z.infer<typeof BranchListResponseSchema>;

/** `PATCH /projects/{project_id}/branches/{branch_id}` */
export const BranchUpdateResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a branch update. */
export type BranchUpdateResponse = z.infer<typeof BranchUpdateResponseSchema>;

/** `DELETE /projects/{project_id}/branches/{branch_id}` (200; a 204 has no body). */
export const BranchDeleteResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
/** Body of a branch deletion. */
export type BranchDeleteResponse = z.infer<typeof BranchDeleteResponseSchema>;

/**
 * Body of `POST /projects/{project_id}/branches`, in the API's own snake_case shape; extra API
 * fields (`protected`, `init_source`, endpoint settings, …) pass through unchanged.
 */
export interface BranchCreateRequest {
  branch?:
    | {
        name?: string | undefined;
        parent_id?: string | undefined;
        [field: string]: unknown;
      }
    | undefined;
  endpoints?:
    | Array<{ type: "read_write" | "read_only" | (string & {}); [field: string]: unknown }>
    | undefined;
  [field: string]: unknown;
}

/** The fields `PATCH /projects/{project_id}/branches/{branch_id}` changes; `expires_at: null` removes the expiry. */
export interface BranchUpdateRequest {
  name?: string | undefined;
  protected?: boolean | undefined;
  expires_at?: string | null | undefined;
}

/** Body of `POST /projects/{project_id}/branches/{branch_id}/restore`: where the branch's data comes from. */
export interface BranchRestoreRequest {
  source_branch_id: string;
  source_lsn?: string | undefined;
  source_timestamp?: string | undefined;
  /** Keeps the branch's previous state as a new branch of this name (required when it has children). */
  preserve_under_name?: string | undefined;
}

/** `GET /projects/{project_id}/branches/{branch_id}/schema` (as SQL: `json` is not asked for). */
export const BranchSchemaResponseSchema = z.looseObject({ sql: z.string().default("") });

/** `GET /projects/{project_id}/branches/{branch_id}/compare_schema`: a unified diff, empty when the schemas are the same. */
export const BranchSchemaCompareResponseSchema = z.looseObject({ diff: z.string().default("") });
