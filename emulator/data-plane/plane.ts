import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { SecureContext } from "node:tls";
import type pg from "pg";
import type { EmulatorContext } from "../context";
import { wakeEndpoint } from "../families/endpoints";
import { networkRefusal } from "../network";
import type { BranchRecord } from "../records";
import { endpointHostWildcards } from "../render/hosts";
import { reservedRoleName, SERVICE_ROLES } from "../rules";

/** What holds databases: a branch, or a snapshot (which has no parent). */
type DataHolder = Pick<BranchRecord, "id" | "databases"> & { parent_id?: string | undefined };

import { type EndpointCertificates, endpointCertificates } from "./certificates";
import { HttpConnectionPool } from "./http-pool";
import { loadPackages, type PostgresServer, startPostgres } from "./postgres";
import { EndpointProxy, type ProxyTarget, type Refusal } from "./proxy";
import { dumpSchema } from "./schema";
import { ServerlessListener, type ServerlessSettings } from "./serverless";

// The data plane: one Postgres server behind every compute endpoint. The emulator's state stays
// the truth; `sync()` brings Postgres to it after every API request (and before every login):
//   roles     one Postgres role per role name in any live branch, all with one internal password
//             (the proxies check the API's per-branch password; Postgres checks only theirs)
//   databases one Postgres database per (branch, database): "<branch id>/<database id>", copied
//             from the source the last change named (a parent, a restore source) or created empty;
//             and per (snapshot, database), "<snapshot id>/<database id>", copied when it is taken
//   endpoints one EndpointProxy each (direct and pooled loopback ports), serving TLS with a
//             certificate the emulator's own CA signs (certificates.ts), and one listener for all
//             of them for the serverless driver (SQL over HTTP, Postgres over WebSocket)
// Postgres cannot copy a database while anyone is connected to it, so a copy first ends the
// source's sessions; the proxies wait for the copy (they sync before opening a session).
// History: Postgres keeps none, so the plane keeps, per database, the last moment its schema may
// have changed (its creation or copy, the end of a session); from then on the schema is the
// current one, and an earlier point cannot be told (docs/api-rules.md §12).

/** A database's sessions now open, and when its schema last may have changed. */
interface Activity {
  open: number;
  sinceMs: number;
}

/** A branch database's schema at a point, or when the earliest point that can be told is (undefined while a session is open). */
export type SchemaAt = { sql: string } | { knownFromMs: number | undefined };

/** Where a copied database comes from. */
interface CopySource {
  physical: string;
  schemaOnly: boolean;
}

/** The Postgres name of a branch's database: stable across renames, unique per branch. */
export function physicalName(holder: DataHolder, databaseId: number): string {
  return `${holder.id}/${databaseId}`;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** The group every API role joins: reads and writes every table, as the service's roles can. */
const GROUP = SERVICE_ROLES.group;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** How the endpoints serve TLS. */
export interface DataPlaneOptions {
  /** Keep the endpoints' CA beside this state file (reused on restart); else a fresh one per run. */
  stateFile?: string | undefined;
  /** Let clients log in without TLS; by default they are refused with the service's message. */
  allowPlainConnections?: boolean | undefined;
  /** The folder of the Postgres programs to run (see `loadPackages`). */
  postgresBin?: string | undefined;
}

/** The names the endpoints' certificate is for: loopback, by name and address, and every endpoint host. */
function certificateHosts(ctx: EmulatorContext): string[] {
  const regions = [...ctx.store.projects.values()].map((p) => p.region_id);
  return ["localhost", "127.0.0.1", ...endpointHostWildcards(regions)];
}

/** The Postgres behind the emulator's endpoints. */
export class DataPlane implements ProxyTarget {
  readonly #ctx: EmulatorContext;
  readonly #server: PostgresServer;
  readonly #admin: pg.Client;
  readonly #certificates: EndpointCertificates;
  readonly #allowPlain: boolean;
  /** Physical databases that exist, with their owner. */
  readonly #databases = new Map<string, string>();
  readonly #roles = new Set<string>();
  /** Reserved role names found in the state, already warned about. */
  readonly #skipped = new Set<string>();
  readonly #copies = new Map<string, CopySource>();
  readonly #activity = new Map<string, Activity>();
  readonly #proxies = new Map<string, EndpointProxy>();
  /** The connections SQL over HTTP runs its statements on. */
  readonly pool: HttpConnectionPool;
  #serverless: ServerlessListener | undefined;
  /** How many of each endpoint's operations the last sync saw. */
  readonly #opsSeen = new Map<string, number>();
  #queue: Promise<void> = Promise.resolve();
  #stopped = false;

  private constructor(
    ctx: EmulatorContext,
    server: PostgresServer,
    admin: pg.Client,
    certificates: EndpointCertificates,
    allowPlain: boolean,
  ) {
    this.#ctx = ctx;
    this.#server = server;
    this.#admin = admin;
    this.#certificates = certificates;
    this.#allowPlain = allowPlain;
    this.pool = new HttpConnectionPool((role, database) => server.connectRole(role, database));
  }

  /**
   * Starts Postgres and creates what the state already holds; throws what to install or give when
   * there are no Postgres programs, or why a CA kept beside the state file cannot be read.
   */
  static async start(ctx: EmulatorContext, options: DataPlaneOptions = {}): Promise<DataPlane> {
    const packages = await loadPackages(options.postgresBin);
    const certificates = await endpointCertificates({
      stateFile: options.stateFile,
      hosts: certificateHosts(ctx),
    });
    let server: PostgresServer | undefined;
    try {
      server = await startPostgres(packages);
      const admin = await server.connectAdmin("postgres");
      await admin.query(
        `CREATE ROLE ${GROUP} NOLOGIN CREATEDB CREATEROLE IN ROLE pg_read_all_data, pg_write_all_data, pg_signal_backend`,
      );
      const plane = new DataPlane(ctx, server, admin, certificates, options.allowPlainConnections ?? false);
      try {
        await plane.sync();
        plane.#serverless = await ServerlessListener.open(plane);
      } catch (error) {
        await plane.stop();
        throw error;
      }
      return plane;
    } catch (error) {
      await server?.stop();
      certificates.dispose();
      throw error;
    }
  }

  /** The CA certificate (PEM) that signs the endpoints' certificate. */
  get caCertificate(): string {
    return this.#certificates.caCertificate;
  }

  /** The file holding the CA certificate (`sslrootcert`, `PGSSLROOTCERT`). */
  get caPath(): string {
    return this.#certificates.caPath;
  }

  tls(): { context: SecureContext; allowPlain: boolean } {
    return { context: this.#certificates.secureContext, allowPlain: this.#allowPlain };
  }

  /** The Postgres server's process id (to check that it is gone after `stop()`). */
  get pid(): number {
    return this.#server.pid;
  }

  /** The physical names of a branch's databases, by database name (a copy's sources). */
  databasesOf(holder: DataHolder): Map<string, string> {
    return new Map(holder.databases.map((d) => [d.name, physicalName(holder, d.id)]));
  }

  /**
   * Records that `target`'s databases start as copies of `sources` (by database name, from
   * `databasesOf`), with no rows when `schemaOnly`. The copy happens at the next `sync()`.
   */
  copyData(target: DataHolder, sources: Map<string, string>, schemaOnly = false): void {
    for (const d of target.databases) {
      const physical = sources.get(d.name);
      if (physical !== undefined) this.#copies.set(physicalName(target, d.id), { physical, schemaOnly });
    }
  }

  /** Where a client reaches an endpoint: loopback and its direct or pooled port; undefined before the first sync that saw it. */
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined {
    const proxy = this.#proxies.get(endpointId);
    if (!proxy) return undefined;
    return { host: "127.0.0.1", port: pooled ? proxy.ports.pooled : proxy.ports.direct };
  }

  /** What the serverless driver's `neonConfig` needs to reach this data plane's endpoints. */
  get serverless(): ServerlessSettings | undefined {
    return this.#serverless?.settings;
  }

  /**
   * The endpoint a connection string's host and port name: on loopback, the endpoint whose direct or
   * pooled port it is; a host name names the endpoint its first label is (less `-pooler`), as the
   * service reads it. Undefined when neither says.
   */
  endpointAt(host: string, port: number | undefined): string | undefined {
    if (isIP(host) !== 0 || host === "localhost") {
      for (const [id, proxy] of this.#proxies) {
        if (port !== undefined && (proxy.ports.direct === port || proxy.ports.pooled === port)) return id;
      }
      return undefined;
    }
    const label = host.split(".")[0] ?? "";
    return label.endsWith("-pooler") ? label.slice(0, -"-pooler".length) : label;
  }

  /** The front door of an endpoint, once a sync has seen it. */
  proxyOf(endpointId: string): EndpointProxy | undefined {
    return this.#proxies.get(endpointId);
  }

  /** Brings Postgres and the proxies to the emulator's state; calls run one after another. */
  sync(): Promise<void> {
    const next = this.#queue.then(() => (this.#stopped ? undefined : this.#reconcile()));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  upstream(): { port: number; password: string } {
    return { port: this.#server.port, password: this.#server.rolePassword };
  }

  admit(
    endpointId: string,
    user: string,
    database: string,
    password: string,
    address: string,
  ): { database: string } | Refusal {
    const { store } = this.#ctx;
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
    wakeEndpoint(this.#ctx, endpoint);
    return { database: physicalName(branch, record.id) };
  }

  inUse(database: string): () => void {
    const activity = this.#activityOf(database);
    activity.open += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      activity.open -= 1;
      activity.sinceMs = this.#ctx.clock.now();
    };
  }

  /**
   * The schema of a branch's database (by id) as SQL, now or at `atMs`: a past point is told only
   * when no session could have changed the schema since (see `Activity`).
   */
  async schemaAt(branch: BranchRecord, databaseId: number, atMs?: number): Promise<SchemaAt> {
    await this.sync();
    const physical = physicalName(branch, databaseId);
    if (atMs !== undefined) {
      const activity = this.#activityOf(physical);
      if (activity.open > 0) return { knownFromMs: undefined };
      if (atMs < activity.sinceMs) return { knownFromMs: activity.sinceMs };
    }
    const client = await this.#server.connectAdmin(physical);
    try {
      return { sql: await dumpSchema(client) };
    } finally {
      await client.end();
    }
  }

  #activityOf(physical: string): Activity {
    let activity = this.#activity.get(physical);
    if (activity === undefined) {
      activity = { open: 0, sinceMs: this.#ctx.clock.now() };
      this.#activity.set(physical, activity);
    }
    return activity;
  }

  /** Closes the proxies, then stops Postgres (its data folder goes with it) and removes a CA not kept. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.#queue;
    await this.#serverless?.close();
    this.pool.close();
    await Promise.all([...this.#proxies.values()].map((p) => p.close()));
    this.#proxies.clear();
    await this.#admin.end().catch(() => undefined);
    await this.#server.stop();
    this.#certificates.dispose();
  }

  async #reconcile(): Promise<void> {
    const { store } = this.#ctx;
    const branches = store.liveBranches().filter((b) => store.liveProject(b.project_id) !== undefined);
    const roles = new Set<string>();
    for (const branch of branches) {
      for (const r of branch.roles) if (this.#usable(r.name, branch)) roles.add(r.name);
    }
    // Oldest first, so a copy's source (a parent, a snapshot's branch, a restore's snapshot) exists.
    const holders: (DataHolder & { created_at_ms: number })[] = [...branches, ...store.snapshots.values()];
    holders.sort((a, b) => a.created_at_ms - b.created_at_ms);
    const wanted = new Map<string, { branch: DataHolder; name: string; owner: string }>();
    for (const branch of holders) {
      for (const d of branch.databases) {
        // A database of a role Postgres cannot have belongs to the group all API roles share.
        const owner = roles.has(d.owner_name) ? d.owner_name : GROUP;
        wanted.set(physicalName(branch, d.id), { branch, name: d.name, owner });
      }
    }
    for (const name of roles) {
      if (this.#roles.has(name)) continue;
      await this.#admin.query(
        `CREATE ROLE ${quote(name)} LOGIN CREATEDB CREATEROLE PASSWORD ${literal(this.#server.rolePassword)} IN ROLE ${GROUP}`,
      );
      this.#roles.add(name);
    }
    for (const [physical, want] of wanted) {
      const owner = this.#databases.get(physical);
      if (owner === undefined) {
        await this.#create(physical, want.owner, this.#sourceOf(physical, want.branch, want.name));
      } else if (owner !== want.owner) {
        await this.#admin.query(`ALTER DATABASE ${quote(physical)} OWNER TO ${quote(want.owner)}`);
        this.#databases.set(physical, want.owner);
      }
    }
    this.#copies.clear();
    for (const physical of [...this.#databases.keys()]) {
      if (wanted.has(physical)) continue;
      this.pool.drop({ database: physical });
      await this.#admin.query(`DROP DATABASE IF EXISTS ${quote(physical)} WITH (FORCE)`);
      this.#databases.delete(physical);
      this.#activity.delete(physical);
    }
    for (const name of [...this.#roles]) {
      if (roles.has(name)) continue;
      // A role that still owns objects somewhere stays in Postgres; the proxies no longer admit it.
      this.pool.drop({ role: name });
      await this.#admin.query(`DROP ROLE IF EXISTS ${quote(name)}`).then(
        () => this.#roles.delete(name),
        () => undefined,
      );
    }
    await this.#syncProxies();
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

  /** The copy source a change named, else the parent's database of the same name, else none. */
  #sourceOf(physical: string, branch: DataHolder, name: string): CopySource | undefined {
    const named = this.#copies.get(physical);
    if (named && this.#databases.has(named.physical)) return named;
    const parent =
      branch.parent_id === undefined ? undefined : this.#ctx.store.branches.get(branch.parent_id);
    const same = parent?.databases.find((d) => d.name === name);
    if (!parent || !same) return undefined;
    const fromParent = physicalName(parent, same.id);
    return this.#databases.has(fromParent) ? { physical: fromParent, schemaOnly: false } : undefined;
  }

  async #create(physical: string, owner: string, source: CopySource | undefined): Promise<void> {
    const create = `CREATE DATABASE ${quote(physical)} OWNER ${quote(owner)}`;
    if (source === undefined) {
      await this.#admin.query(create);
      await this.#grantPublicSchema(physical);
    } else {
      await this.#copy(`${create} TEMPLATE ${quote(source.physical)}`, source.physical);
      if (source.schemaOnly) await this.#truncateAll(physical);
    }
    this.#databases.set(physical, owner);
    this.#activity.set(physical, { open: 0, sinceMs: this.#ctx.clock.now() });
  }

  /** Copies a database; its sessions end first, and again if one slipped in meanwhile. */
  async #copy(statement: string, template: string): Promise<void> {
    this.pool.drop({ database: template });
    for (let attempt = 1; ; attempt++) {
      await this.#admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [template],
      );
      try {
        await this.#admin.query(statement);
        return;
      } catch (error) {
        const inUse = (error as { code?: string }).code === "55006";
        if (!inUse || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }

  /**
   * Lets every role the API creates make objects in the database's `public` schema, as the service
   * does for its roles' group (since Postgres 15 only the database owner may by default). Copies
   * keep the grant: a database copied from this one carries it.
   */
  async #grantPublicSchema(physical: string): Promise<void> {
    const client = await this.#server.connectAdmin(physical);
    try {
      await client.query(`GRANT ALL ON SCHEMA public TO ${GROUP} WITH GRANT OPTION`);
    } finally {
      await client.end();
    }
  }

  /** Empties every table of a copied database: the schema stays, the rows go. */
  async #truncateAll(physical: string): Promise<void> {
    const client = await this.#server.connectAdmin(physical);
    try {
      const { rows } = await client.query<{ name: string }>(
        "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables " +
          "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      if (rows.length > 0) {
        await client.query(`TRUNCATE ${rows.map((r) => r.name).join(", ")} RESTART IDENTITY CASCADE`);
      }
    } finally {
      await client.end();
    }
  }

  async #syncProxies(): Promise<void> {
    const { store } = this.#ctx;
    for (const [id, proxy] of this.#proxies) {
      if (store.endpoints.has(id)) continue;
      this.#proxies.delete(id);
      this.#opsSeen.delete(id);
      this.pool.drop({ endpointId: id });
      await proxy.close();
    }
    for (const endpoint of store.endpoints.values()) {
      let proxy = this.#proxies.get(endpoint.id);
      if (!proxy) {
        proxy = await EndpointProxy.open(endpoint.id, this);
        this.#proxies.set(endpoint.id, proxy);
      }
      // A suspend asked since the last look ends the compute's sessions, as the service's does.
      const seen = this.#opsSeen.get(endpoint.id);
      const fresh = seen === undefined ? [] : endpoint.op_ids.slice(seen);
      if (fresh.some((id) => store.operations.get(id)?.action === "suspend_compute")) {
        proxy.dropSessions();
        this.pool.drop({ endpointId: endpoint.id });
      }
      this.#opsSeen.set(endpoint.id, endpoint.op_ids.length);
    }
  }
}
