import { timingSafeEqual } from "node:crypto";
import type { EmulatorContext } from "../context";
import { wakeEndpoint } from "../families/endpoints";
import { networkRefusal } from "../network";
import type { BranchRecord } from "../records";
import { reservedRoleName } from "../rules";
import type { Refusal } from "./proxy";

// Who may log in through an endpoint: an API role of the endpoint's branch with its password
// (checked here, not by Postgres: see plane.ts), or a role the branch's owner made over SQL, whose
// password Postgres checks first (sql-roles.ts); then the project's network rules and the
// endpoint's state. A login wakes a suspended endpoint, as the service's do.

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The answer to a wrong password, the same as to an unknown role (as Postgres gives it, never telling which). */
export function passwordFailed(user: string): Refusal {
  return { sqlstate: "28P01", message: `password authentication failed for user "${user}"` };
}

/** A login whose user is no API role of the endpoint's branch: refused, unless it is a role made over SQL. */
export interface NotAnApiRole extends Refusal {
  notAnApiRole: true;
}

/**
 * The branch and database a login opens, or why it is refused (with the service's SQLSTATE and
 * message). With `sqlRole`, the user is a role made over SQL whose password Postgres has checked;
 * otherwise a user the branch's API roles lack is refused as `NotAnApiRole`.
 */
export function admission(
  ctx: EmulatorContext,
  endpointId: string,
  user: string,
  database: string,
  password: string,
  address: string,
  sqlRole = false,
): { branch: BranchRecord; databaseId: number } | Refusal | NotAnApiRole {
  const { store } = ctx;
  const endpoint = store.endpoints.get(endpointId);
  const branch =
    endpoint === undefined ? undefined : store.liveBranch(endpoint.project_id, endpoint.branch_id);
  if (!endpoint || !branch) {
    return { sqlstate: "08004", message: `endpoint ${endpointId} does not exist` };
  }
  if (!sqlRole) {
    const role = branch.roles.find((r) => r.name === user);
    // As Postgres does: an unknown role and a wrong password get the same answer.
    if (!role) return { ...passwordFailed(user), notAnApiRole: true };
    if (role.no_login || role.password === undefined || !sameSecret(password, role.password)) {
      return passwordFailed(user);
    }
  }
  if (reservedRoleName(user) !== undefined) {
    return {
      sqlstate: "28000",
      message: `role "${user}" has a reserved name and cannot log in; use another role`,
    };
  }
  const project = store.projects.get(endpoint.project_id);
  const blocked = project === undefined ? undefined : networkRefusal(project, branch, address);
  // The service's answer to a connection its network rules keep out.
  if (blocked !== undefined) return { sqlstate: "28000", message: blocked };
  if (endpoint.disabled) {
    return { sqlstate: "08004", message: `endpoint ${endpointId} is disabled; enable it to connect` };
  }
  const record = branch.databases.find((d) => d.name === database);
  if (!record) return { sqlstate: "3D000", message: `database "${database}" does not exist` };
  wakeEndpoint(ctx, endpoint);
  return { branch, databaseId: record.id };
}
