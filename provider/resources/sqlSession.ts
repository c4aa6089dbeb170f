import type { Client as PgClient } from "pg";
import type { CloudDbClient } from "../client";
import { isNotFound, UsageError } from "../client/errors";

// A session on a branch's database, for the kinds that work over SQL rather than the API: the
// connection string is read from the API for the role at each step (its password is never kept in
// the state), and the endpoint's certificate is verified. `PGSSLROOTCERT`, as libpq reads it, names
// the CA to verify against (the emulator's, say); else the system's CAs.

/** Where a session connects: a database of a branch, as a role the API knows. */
export interface SqlTarget {
  projectId: string;
  branchId: string;
  databaseName: string;
  roleName: string;
}

/** A database of a branch and the role that owns it: what a kind over SQL works on. */
export interface OwnedDatabase {
  projectId: string;
  branchId: string;
  databaseName: string;
  ownerName: string;
}

/** The session of a database's owner. */
export function asOwner(props: OwnedDatabase): SqlTarget {
  return {
    projectId: props.projectId,
    branchId: props.branchId,
    databaseName: props.databaseName,
    roleName: props.ownerName,
  };
}

/** `database "shop" of branch br-1`: how messages name the database. */
export function databaseLabel(props: OwnedDatabase): string {
  return `database "${props.databaseName}" of branch ${props.branchId}`;
}

/** `uri` verified in full, against `PGSSLROOTCERT` when it is set. */
export function verifiedUri(uri: string): string {
  const url = new URL(uri);
  const rootCert = process.env.PGSSLROOTCERT;
  if (rootCert !== undefined && rootCert !== "") {
    url.searchParams.set("sslmode", "verify-full");
    url.searchParams.set("sslrootcert", rootCert);
  } else if (url.searchParams.has("sslmode")) {
    url.searchParams.set("sslmode", "verify-full");
  }
  return url.href;
}

/** A connection string for `target` from the API; undefined when the branch, role or database is gone. */
export async function connectionUriOf(
  client: CloudDbClient,
  target: SqlTarget,
  pooled = false,
): Promise<string | undefined> {
  return client
    .getConnectionUri(target.projectId, {
      branchId: target.branchId,
      databaseName: target.databaseName,
      roleName: target.roleName,
      pooled,
    })
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
}

/**
 * Runs `work` on a session of `target`, then ends it; answers undefined without running it when the
 * API no longer has the branch, role or database.
 */
export async function withSession<T>(
  client: CloudDbClient,
  target: SqlTarget,
  work: (db: PgClient) => Promise<T>,
): Promise<T | undefined> {
  const uri = await connectionUriOf(client, target);
  if (uri === undefined) return undefined;
  const pg = require("pg") as typeof import("pg");
  const db = new pg.Client({ connectionString: verifiedUri(uri), application_name: "pulumi-clouddb" });
  // A session the server ends between queries must not end the provider's process.
  db.on("error", () => undefined);
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/**
 * Runs `work` on a session of the database's owner, then ends it; fails naming the branch and what to
 * declare when the API has no such database or role.
 */
export async function withOwnerSession<T>(
  client: CloudDbClient,
  props: OwnedDatabase,
  work: (db: PgClient) => Promise<T>,
): Promise<T> {
  const done = await withSession(client, asOwner(props), async (db) => ({ value: await work(db) }));
  if (done === undefined) {
    throw new UsageError(
      "InvalidArgument",
      `the API has no database "${props.databaseName}" owned by role "${props.ownerName}" on branch ${props.branchId} of project ${props.projectId}: declare them (Database, Role) and pass their outputs`,
    );
  }
  return done.value;
}

/**
 * Runs `statements` in one transaction on `db`; a failure rolls back and is reported as `doing`
 * failed, with Postgres's message and SQLSTATE but never the statement (it may hold a password).
 */
export async function inTransaction(db: PgClient, statements: string[], doing: string): Promise<void> {
  try {
    await db.query("BEGIN");
    for (const statement of statements) await db.query(statement);
    await db.query("COMMIT");
  } catch (err) {
    await db.query("ROLLBACK").catch(() => undefined);
    const e = err as { message?: string; code?: string };
    const code = e.code === undefined ? "" : ` (SQLSTATE ${e.code})`;
    throw new Error(`${doing} failed: ${e.message ?? String(err)}${code}`);
  }
}

/** `name` as a quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `text` as a SQL string literal. */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
