/** Branches: the record and the answers of the branch routes. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";
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
DOCUMENTED.add(BranchSchema, { as: "Branch" });
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
DOCUMENTED.add(BranchCreateResponseSchema, { as: "POST /projects/{project_id}/branches 201" });
/** Body of a branch creation. */
export type BranchCreateResponse = z.infer<typeof BranchCreateResponseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}` */
export const BranchGetResponseSchema = z.looseObject({
  branch: BranchSchema,
  annotation: z.unknown().optional(),
});
DOCUMENTED.add(BranchGetResponseSchema, { as: "GET /projects/{project_id}/branches/{branch_id} 200" });
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
DOCUMENTED.add(BranchListResponseSchema, { as: "GET /projects/{project_id}/branches 200" });
/** Body of a project's branch list. */
export type BranchListResponse = z.infer<typeof BranchListResponseSchema>;

/** `PATCH /projects/{project_id}/branches/{branch_id}` */
export const BranchUpdateResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(BranchUpdateResponseSchema, { as: "BranchOperations" });
/** Body of a branch update. */
export type BranchUpdateResponse = z.infer<typeof BranchUpdateResponseSchema>;

/** `DELETE /projects/{project_id}/branches/{branch_id}` (200; a 204 has no body). */
export const BranchDeleteResponseSchema = z.looseObject({
  branch: BranchSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(BranchDeleteResponseSchema, { as: "BranchOperations" });
/** Body of a branch deletion. */
export type BranchDeleteResponse = z.infer<typeof BranchDeleteResponseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/schema` (as SQL: `json` is not asked for). */
export const BranchSchemaResponseSchema = z.looseObject({ sql: z.string().default("") });
DOCUMENTED.add(BranchSchemaResponseSchema, { as: "BranchSchemaResponse" });

/** `GET /projects/{project_id}/branches/{branch_id}/compare_schema`: a unified diff, empty when the schemas are the same. */
export const BranchSchemaCompareResponseSchema = z.looseObject({ diff: z.string().default("") });
DOCUMENTED.add(BranchSchemaCompareResponseSchema, { as: "BranchSchemaCompareResponse" });
