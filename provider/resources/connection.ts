/**
 * A branch's connection strings, read through the connection_uri route for its default role and
 * database. They hold a password: resources keep them only as Pulumi secret outputs.
 */
import type { CloudDbClient } from "../client";
import type { Connection } from "./public/branch";

export type { Connection } from "./public/branch";

/** No connection: the branch has no compute, database or role. */
export const NO_CONNECTION: Connection = {
  roleName: null,
  databaseName: null,
  connectionUri: "",
  pooledConnectionUri: "",
};

/**
 * The connection strings, direct and pooled, of the branch's first database for its first
 * unprotected role (else the database's owner), through `endpointId`. None (no request) without an
 * endpoint; none without a database or a role.
 */
export async function connectionOf(
  client: CloudDbClient,
  where: { projectId: string; branchId: string; endpointId: string | null },
): Promise<Connection> {
  const { projectId, branchId, endpointId } = where;
  if (endpointId === null) return NO_CONNECTION;
  const [roles, databases] = await Promise.all([
    client.listRoles(projectId, branchId),
    client.listDatabases(projectId, branchId),
  ]);
  const database = databases[0];
  const roleName = roles.find((role) => role.protected !== true)?.name ?? database?.owner_name;
  if (database === undefined || roleName === undefined) return NO_CONNECTION;
  const query = { branchId, endpointId, databaseName: database.name, roleName };
  const [direct, pooled] = await Promise.all([
    client.getConnectionUri(projectId, query),
    client.getConnectionUri(projectId, { ...query, pooled: true }),
  ]);
  return { roleName, databaseName: database.name, connectionUri: direct, pooledConnectionUri: pooled };
}
