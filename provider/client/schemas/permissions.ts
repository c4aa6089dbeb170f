/** Who a project is shared with: its grants, one per email. */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** A project shared with an email; `revoked_at` is set on a revoked grant. */
export const ProjectPermissionSchema = z.looseObject({
  id: z.string(),
  granted_to_email: z.string(),
  granted_at: z.string(),
  revoked_at: maybe(z.string()),
});
DOCUMENTED.add(ProjectPermissionSchema, { as: "ProjectPermission" });
/** A grant of a project to an email. */
export type ProjectPermission = z.infer<typeof ProjectPermissionSchema>;

/** `GET /projects/{project_id}/permissions`: the grants in force. */
export const ProjectPermissionsSchema = z.looseObject({
  project_permissions: z.array(ProjectPermissionSchema),
});
DOCUMENTED.add(ProjectPermissionsSchema, { as: "ProjectPermissions" });
/** Body of a project's grant list. */
export type ProjectPermissions = z.infer<typeof ProjectPermissionsSchema>;
