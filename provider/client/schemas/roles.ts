/** Roles of a branch. A role's password is a secret: never put it in a message. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";
import { OperationSchema } from "./operations";

/** A role. `password` is there only in create and reset answers: a secret, never put in a message. */
export const RoleSchema = z.looseObject({
  name: z.string(),
  branch_id: maybe(z.string()),
  password: maybe(z.string()),
  protected: maybe(z.boolean()),
  authentication_method: maybe(z.string()),
  created_at: maybe(z.string()),
  updated_at: maybe(z.string()),
});
DOCUMENTED.add(RoleSchema, { as: "Role" });
/** A role. */
export type Role = z.infer<typeof RoleSchema>;

/** `GET /projects/{project_id}/branches/{branch_id}/roles`. */
export const RolesResponseSchema = z.looseObject({ roles: z.array(RoleSchema) });
DOCUMENTED.add(RolesResponseSchema, { as: "RolesResponse" });
/** Body of a branch's role list. */
export type RolesResponse = z.infer<typeof RolesResponseSchema>;

/** `GET .../roles/{role_name}`. */
export const RoleResponseSchema = z.looseObject({ role: RoleSchema });
DOCUMENTED.add(RoleResponseSchema, { as: "RoleResponse" });
/** Body of a role read. */
export type RoleResponse = z.infer<typeof RoleResponseSchema>;

/** Create, delete (200) and password reset of a role: the role (with `password` after create or reset) and its operations. */
export const RoleOperationsSchema = z.looseObject({
  role: RoleSchema,
  operations: z.array(OperationSchema).default([]),
});
DOCUMENTED.add(RoleOperationsSchema, { as: "RoleOperations" });
/** Body of a role change. */
export type RoleOperations = z.infer<typeof RoleOperationsSchema>;

/** `GET .../roles/{role_name}/reveal_password`. */
export const RolePasswordResponseSchema = z.looseObject({ password: z.string() });
DOCUMENTED.add(RolePasswordResponseSchema, { as: "RolePasswordResponse" });
/** Body of a password reveal. */
export type RolePasswordResponse = z.infer<typeof RolePasswordResponseSchema>;
