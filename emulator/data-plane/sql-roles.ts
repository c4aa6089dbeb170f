import type pg from "pg";
import { reservedRoleName } from "../rules";
import { passwordFailed } from "./admission";
import { GROUP } from "./databases";
import type { Refusal } from "./proxy";

// Roles a branch's owner makes over SQL (`CREATE ROLE app LOGIN PASSWORD '...'`) log in through
// the endpoints as on the service: with their own password, holding only what was granted to them.
// Postgres checks the password, by a login as the role: the one check that treats every stored
// form (SCRAM, md5), an expiry (`VALID UNTIL`) and a missing password exactly as Postgres does, and
// it runs before the endpoint's other rules, so a wrong password is answered as an unknown role
// is. A member of the API roles' group, a superuser or a reserved name is never such a role: the
// first are the API's, whose passwords the API holds; the others are Postgres's or the emulator's.

/** What the check reaches: the emulator's admin connection, and a login as a role with a password. */
export interface SqlRoleServer {
  admin: pg.Client;
  /** Connects to `database` as `role` with `password`; throws Postgres's refusal. */
  connect(role: string, password: string, database: string): Promise<pg.Client>;
}

/** Undefined when `user` is a role made over SQL that logs in with `password`, else why not (28P01 for any user or password Postgres would refuse). */
export async function sqlRoleRefusal(
  server: SqlRoleServer,
  user: string,
  password: string,
): Promise<Refusal | undefined> {
  // Postgres refuses an empty password too; and `pg` would send its environment's (PGPASSWORD) instead.
  if (password === "" || reservedRoleName(user) !== undefined) return passwordFailed(user);
  const found = await server.admin.query(
    "SELECT 1 FROM pg_roles r WHERE r.rolname = $1 AND r.rolcanlogin AND NOT r.rolsuper " +
      "AND NOT pg_has_role(r.oid, $2, 'MEMBER')",
    [user, GROUP],
  );
  if (found.rowCount === 0) return passwordFailed(user);
  let client: pg.Client;
  try {
    // Every role may connect to `postgres` (Postgres grants CONNECT to PUBLIC, and only the
    // emulator's superuser owns it), so only the password decides.
    client = await server.connect(user, password, "postgres");
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    // No SQLSTATE: Postgres could not be reached, which is no answer about the login.
    if (typeof code !== "string") throw error;
    if (code === "28P01") return passwordFailed(user);
    // Postgres's other answers to the login (too many connections for the role, say) pass on.
    return {
      sqlstate: code,
      message: typeof message === "string" ? message : `role "${user}" cannot log in`,
    };
  }
  await client.end().catch(() => undefined);
  return undefined;
}
