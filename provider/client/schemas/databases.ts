/** Databases of a branch, each owned by a role. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";
import { OperationSchema } from "./operations";

/** A database of a branch, owned by a role. */
export const DatabaseSchema = z.looseObject({
  id: maybe(z.number()),
  name: z.string(),
  owner_name: maybe(z.string()),
  branch_id: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
DOCUMENTED.add(DatabaseSchema, { as: "Database" });
/** A database. */
export type Database = z.infer<typeof DatabaseSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/databases`. */
export const DatabasesResponseSchema = z.looseObject({ databases: z.array(DatabaseSchema) });
DOCUMENTED.add(DatabasesResponseSchema, { as: "DatabasesResponse" });
/** Body of a branch's database list. */
export type DatabasesResponse = z.infer<typeof DatabasesResponseSchema>;

/** `GET .../databases/{database_name}`. */
export const DatabaseResponseSchema = z.looseObject({ database: DatabaseSchema });
DOCUMENTED.add(DatabaseResponseSchema, { as: "DatabaseResponse" });
/** Body of a database read. */
export type DatabaseResponse = z.infer<typeof DatabaseResponseSchema>;

/** Create, update and delete (200) of a database: the database and its operations. */
export const DatabaseOperationsSchema = z.looseObject({
  database: DatabaseSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(DatabaseOperationsSchema, { as: "DatabaseOperations" });
/** Body of a database change. */
export type DatabaseOperations = z.infer<typeof DatabaseOperationsSchema>;
