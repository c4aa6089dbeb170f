import type { EmulatorContext } from "../context";
import { newPassword } from "../ids";
import type { BranchRecord, OperationRecord, ProjectRecord, RoleRecord } from "../records";
import { applyBranchConfig } from "./endpoints";

// Postgres roles of a branch. A login role has a password the service keeps (revealed on
// request); a `no_login` role has none. Changes reach the branch's compute as operations.

/** A role record: a login role gets `password`, or a new one when none is given. */
export function roleRecord(
  name: string,
  at: number,
  options: { password?: string | undefined; protected?: boolean | undefined; noLogin?: boolean } = {},
): RoleRecord {
  const role: RoleRecord = { name, protected: options.protected ?? false, created_at_ms: at };
  if (options.noLogin === true) role.no_login = true;
  else role.password = options.password ?? newPassword();
  return role;
}

/** Adds a role to the branch (`apply_config`). */
export function createRole(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  name: string,
  noLogin: boolean,
): { role: RoleRecord; operations: OperationRecord[] } {
  const now = ctx.clock.now();
  const role: RoleRecord = { ...roleRecord(name, now, { noLogin }), updated_at_ms: now };
  branch.roles.push(role);
  return { role, operations: applyBranchConfig(ctx, project, branch, ["apply_config"]) };
}

/** Removes a role from the branch. */
export function deleteRole(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  role: RoleRecord,
): OperationRecord[] {
  branch.roles = branch.roles.filter((r) => r !== role);
  return applyBranchConfig(ctx, project, branch, ["apply_config", "suspend_compute"]);
}

/** Gives a login role a new password. */
export function resetRolePassword(
  ctx: EmulatorContext,
  project: ProjectRecord,
  branch: BranchRecord,
  role: RoleRecord,
): OperationRecord[] {
  role.password = newPassword();
  role.updated_at_ms = ctx.clock.now();
  return applyBranchConfig(ctx, project, branch, ["apply_config", "suspend_compute"]);
}
