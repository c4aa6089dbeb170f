import { timingSafeEqual } from "node:crypto";
import type { EmulatorContext } from "../context";
import { wakeEndpoint } from "../families/endpoints";
import { networkRefusal } from "../network";
import type { BranchRecord } from "../records";
import { reservedRoleName } from "../rules";
import type { Refusal } from "./proxy";

// Who may log in through an endpoint: the role's password on the endpoint's branch (checked
// here, not by Postgres: see plane.ts), the project's network rules, the endpoint's state; a
// login wakes a suspended endpoint, as the service's do.

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The branch and database a login opens, or why it is refused (with the service's SQLSTATE and message). */
export function admission(
  ctx: EmulatorContext,
  endpointId: string,
  user: string,
  database: string,
  password: string,
  address: string,
): { branch: BranchRecord; databaseId: number } | Refusal {
  const { store } = ctx;
  const endpoint = store.endpoints.get(endpointId);
  const branch =
    endpoint === undefined ? undefined : store.liveBranch(endpoint.project_id, endpoint.branch_id);
  if (!endpoint || !branch) {
    return { sqlstate: "08004", message: `endpoint ${endpointId} does not exist` };
  }
  const role = branch.roles.find((r) => r.name === user);
  // As Postgres does: an unknown role and a wrong password get the same answer.
  if (!role || role.no_login || role.password === undefined || !sameSecret(password, role.password)) {
    return { sqlstate: "28P01", message: `password authentication failed for user "${user}"` };
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
