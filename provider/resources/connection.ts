/**
 * A branch's connection strings, read through the connection_uri route for its default role and
 * database. They hold a password: resources keep them only as Pulumi secret outputs. A Branch reads
 * them last, and records itself as a partial failure when they cannot be read.
 */
import type { CloudDbClient, ConnectionUri, Database, Role } from "../client";
import { unfinished } from "./errors";
import type { BranchInputs, BranchOutputs, Connection } from "./public/branch";

export type { Connection } from "./public/branch";

/** No connection: the branch has no compute, database or role. */
export const NO_CONNECTION: Connection = {
  roleName: null,
  databaseName: null,
  connectionUri: "",
  pooledConnectionUri: "",
};

/** What a branch create's response says of the branch's roles, databases and connection URIs. */
export interface CreatedAccess {
  roles: readonly Role[];
  databases: readonly Database[];
  connection_uris?: readonly ConnectionUri[] | null | undefined;
}

/**
 * The connection strings, direct and pooled, of the branch's first database for its first
 * unprotected role (else the database's owner), through `endpointId`. None (no request) without an
 * endpoint; none without a database or a role. A create's response (`created`) already names the
 * roles and databases, and its connection URI serves as the direct one when it is for that role,
 * database and endpoint: then only the pooled one is read.
 */
export async function connectionOf(
  client: CloudDbClient,
  where: { projectId: string; branchId: string; endpointId: string | null },
  created?: CreatedAccess,
): Promise<Connection> {
  const { projectId, branchId, endpointId } = where;
  if (endpointId === null) return NO_CONNECTION;
  const [roles, databases] = created
    ? [created.roles, created.databases]
    : await Promise.all([client.listRoles(projectId, branchId), client.listDatabases(projectId, branchId)]);
  const database = databases[0];
  const roleName = roles.find((role) => role.protected !== true)?.name ?? database?.owner_name;
  if (database === undefined || roleName === undefined) return NO_CONNECTION;
  const query = { branchId, endpointId, databaseName: database.name, roleName };
  const given = created?.connection_uris?.find((uri) => {
    const at = uri.connection_parameters ?? {};
    const host = typeof at["host"] === "string" ? at["host"] : "";
    return at["role"] === roleName && at["database"] === database.name && host.split(".")[0] === endpointId;
  });
  const [direct, pooled] = await Promise.all([
    given?.connection_uri ?? client.getConnectionUri(projectId, query),
    client.getConnectionUri(projectId, { ...query, pooled: true }),
  ]);
  return { roleName, databaseName: database.name, connectionUri: direct, pooledConnectionUri: pooled };
}

/**
 * The outputs with the branch's connection strings. They are read last, once the computes started;
 * a failure records the branch (a partial failure) so the next `up` reads them again.
 */
export async function withConnection(
  client: CloudDbClient,
  inputs: BranchInputs,
  outs: BranchOutputs,
  created?: CreatedAccess,
): Promise<BranchOutputs> {
  try {
    return { ...outs, ...(await connectionOf(client, outs, created)) };
  } catch (err) {
    throw unfinished("branch", outs.branchId, inputs, outs, err, " (its connection strings were not read)");
  }
}
