import type pg from "pg";
import type { BranchRecord } from "../records";
import { reservedRoleName } from "../rules";
import { GROUP, literal, quote } from "./databases";

// The server's roles: one Postgres role per role name in any live branch, all with one internal
// password (the proxies check the API's per-branch password; Postgres checks only theirs), each a
// member of the group every API role joins.

/** The Postgres roles the API's roles become. */
export class ServerRoles {
  readonly #admin: pg.Client;
  readonly #password: string;
  readonly #roles = new Set<string>();
  /** Reserved role names found in the state, already warned about. */
  readonly #skipped = new Set<string>();

  constructor(admin: pg.Client, password: string) {
    this.#admin = admin;
    this.#password = password;
  }

  /** Makes the group on a new cluster; takes in the API roles a kept cluster already has. */
  async load(): Promise<void> {
    const group = await this.#admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [GROUP]);
    if (group.rowCount === 0) {
      await this.#admin.query(
        `CREATE ROLE ${GROUP} NOLOGIN CREATEDB CREATEROLE IN ROLE pg_read_all_data, pg_write_all_data, pg_signal_backend`,
      );
    }
    const { rows } = await this.#admin.query<{ name: string }>(
      "SELECT r.rolname AS name FROM pg_roles r JOIN pg_auth_members m ON m.member = r.oid " +
        "JOIN pg_roles g ON g.oid = m.roleid WHERE g.rolname = $1 AND r.rolcanlogin",
      [GROUP],
    );
    for (const r of rows) this.#roles.add(r.name);
  }

  /** The role names the branches need in Postgres. */
  wanted(branches: BranchRecord[]): Set<string> {
    const roles = new Set<string>();
    for (const branch of branches) {
      for (const r of branch.roles) if (this.#usable(r.name, branch)) roles.add(r.name);
    }
    return roles;
  }

  /** Creates the roles of `wanted` Postgres lacks. */
  async create(wanted: Set<string>): Promise<void> {
    for (const name of wanted) {
      if (this.#roles.has(name)) continue;
      await this.#admin.query(
        `CREATE ROLE ${quote(name)} LOGIN CREATEDB CREATEROLE PASSWORD ${literal(this.#password)} IN ROLE ${GROUP}`,
      );
      this.#roles.add(name);
    }
  }

  /**
   * Drops the roles no longer wanted, `release` first ending the emulator's own sessions of each;
   * one that still owns objects somewhere stays (the proxies no longer admit it).
   */
  async dropOthers(wanted: Set<string>, release: (name: string) => void): Promise<void> {
    for (const name of [...this.#roles]) {
      if (wanted.has(name)) continue;
      release(name);
      await this.#admin.query(`DROP ROLE IF EXISTS ${quote(name)}`).then(
        () => this.#roles.delete(name),
        () => undefined,
      );
    }
  }

  /**
   * Whether a role can exist in Postgres. A state written before the API refused reserved names
   * may hold one: it stays in the API (so it can be deleted) but not in Postgres, said once.
   */
  #usable(name: string, branch: BranchRecord): boolean {
    const why = reservedRoleName(name);
    if (why === undefined) return true;
    if (!this.#skipped.has(name)) {
      this.#skipped.add(name);
      process.stderr.write(
        `clouddb-emulator: warning: role ${JSON.stringify(name)} on branch ${branch.id} is not created in ` +
          `Postgres: the name is reserved (${why}); delete the role through the API and create another\n`,
      );
    }
    return false;
  }
}
