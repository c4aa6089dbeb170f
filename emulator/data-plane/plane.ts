import type { SecureContext } from "node:tls";
import type { AdvisorIssue } from "@neon/sdk/raw";
import type pg from "pg";
import type { EmulatorContext } from "../context";
import { DEFAULT_HISTORY_RETENTION_SECONDS } from "../defaults";
import { endpointHostWildcards } from "../hosts";
import type { BranchRecord, MaskingRuleRecord } from "../records";
import { admission } from "./admission";
import { advisorIssues } from "./advisors";
import { type EndpointCertificates, endpointCertificates } from "./certificates";
import { ClusterDatabases } from "./cluster";
import { type CopyOptions, type DataHolder, physicalName, Statements } from "./databases";
import { EndpointProxies } from "./endpoints";
import { HttpConnectionPool } from "./http-pool";
import { type MaskingResult, maskDatabases } from "./masking";
import { loadPackages, type PostgresServer, startPostgres } from "./postgres";
import type { Admitted, EndpointProxy, ProxyTarget, Refusal } from "./proxy";
import { ServerRoles } from "./roles";
import { dumpSchema } from "./schema";
import { ServerlessListener, type ServerlessSettings } from "./serverless";
import { sqlRoleRefusal } from "./sql-roles";
import { Timeline } from "./timeline";
import type { DataPlaneView } from "./view";

// The data plane: one Postgres server behind every compute endpoint. The emulator's state stays
// the truth; `sync()` brings Postgres to it after every API request (and before every login):
//   roles     one Postgres role per role name in any live branch (roles.ts); roles a branch's
//             owner makes over SQL log in too, with the password Postgres checks (sql-roles.ts)
//   databases one Postgres database per (branch, database): "<branch id>/<database id>", copied
//             from the source the last change named (a parent, a restore source: its data now,
//             or at a point of its history) or created empty; and per (snapshot, database),
//             "<snapshot id>/<database id>", copied when it is taken (cluster.ts)
//   endpoints one EndpointProxy each (direct and pooled loopback ports, endpoints.ts), serving
//             TLS with a certificate the emulator's own CA signs (certificates.ts), and one
//             listener for all of them for the serverless driver (SQL over HTTP, Postgres over
//             WebSocket), whose HTTP connections are ended with the sessions a copy or drop ends
// Postgres cannot copy a database while anyone is connected to it, so a copy first ends the
// source's sessions; the proxies wait for the copy (they sync before opening a session).
// History is Postgres's own: its WAL, archived, with base backups (backups.ts); the emulator's
// clock is tied to WAL positions by readings (history.ts); a point is recovered into a scratch
// cluster and its databases are taken from there (transplant.ts) or read (a schema).

/** How the data plane starts. */
export interface DataPlaneOptions {
  /**
   * Keep the endpoints' CA beside this state file (reused on restart) and Postgres's folder in
   * `<stateFile>.pgdata` (an earlier run's cluster is started again, its databases kept); else a
   * fresh CA and a temporary folder per run.
   */
  stateFile?: string | undefined;
  /** The state file is new: whatever its Postgres folder holds is cleared, so no other state's rows are taken in. */
  fresh?: boolean | undefined;
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
export class DataPlane implements ProxyTarget, DataPlaneView {
  readonly #ctx: EmulatorContext;
  readonly #server: PostgresServer;
  readonly #admin: pg.Client;
  readonly #sql: Statements;
  readonly #timeline: Timeline;
  readonly #databases: ClusterDatabases;
  readonly #roles: ServerRoles;
  readonly #proxies: EndpointProxies;
  readonly #certificates: EndpointCertificates;
  readonly #allowPlain: boolean;
  /** The connections SQL over HTTP runs its statements on. */
  readonly pool: HttpConnectionPool;
  #serverless: ServerlessListener | undefined;
  #queue: Promise<void> = Promise.resolve();
  #stopped = false;

  private constructor(
    ctx: EmulatorContext,
    server: PostgresServer,
    clients: { admin: pg.Client; observer: pg.Client },
    certificates: EndpointCertificates,
    allowPlain: boolean,
  ) {
    const { admin, observer } = clients;
    this.#ctx = ctx;
    this.#server = server;
    this.#admin = admin;
    this.#certificates = certificates;
    this.#allowPlain = allowPlain;
    this.pool = new HttpConnectionPool((login, database) =>
      server.connectRole(login.role, database, login.password),
    );
    this.#proxies = new EndpointProxies(ctx, this, this.pool);
    this.#sql = new Statements(admin, (database) => server.connectAdmin(database));
    this.#roles = new ServerRoles(admin, server.rolePassword);
    this.#timeline = new Timeline(server, ctx.clock, observer, () => {
      let seconds = DEFAULT_HISTORY_RETENTION_SECONDS;
      for (const p of ctx.store.projects.values()) {
        if (p.deleted_at_ms === undefined) seconds = Math.max(seconds, p.history_retention_seconds ?? 0);
      }
      return seconds;
    });
    this.#databases = new ClusterDatabases({
      admin,
      sql: this.#sql,
      timeline: this.#timeline,
      pool: this.pool,
      branchOf: (id) => ctx.store.branches.get(id),
    });
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
      server = await startPostgres(
        packages,
        options.stateFile === undefined
          ? {}
          : { keptAt: `${options.stateFile}.pgdata`, fresh: options.fresh ?? false },
      );
      const admin = await server.connectAdmin("postgres");
      const observer = await server.connectAdmin("postgres");
      const plane = new DataPlane(
        ctx,
        server,
        { admin, observer },
        certificates,
        options.allowPlainConnections ?? false,
      );
      try {
        await plane.#roles.load();
        await plane.#databases.load();
        await plane.#timeline.start(await plane.#sql.lsn());
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

  /** The Postgres server's process id (to check that it is gone after `stop()`). */
  get pid(): number {
    return this.#server.pid;
  }

  /** Where Postgres keeps its data (the cluster, WAL archive and base backups). */
  get folder(): string {
    return this.#server.folder.root;
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

  /** What the serverless driver's `neonConfig` needs to reach this data plane's endpoints. */
  get serverless(): ServerlessSettings | undefined {
    return this.#serverless?.settings;
  }

  /** The physical names of a branch's databases, by database name (a copy's sources). */
  databasesOf(holder: DataHolder): Map<string, string> {
    return new Map(holder.databases.map((d) => [d.name, physicalName(holder, d.id)]));
  }

  /**
   * Records that `target`'s databases start as copies of `sources` (by database name, from
   * `databasesOf`): their data now, or at `atLsn`. The copy happens at the next `sync()`.
   */
  copyData(target: DataHolder, sources: Map<string, string>, options: CopyOptions = {}): void {
    this.#databases.copyData(target, sources, options);
  }

  /**
   * Masks the branch's databases by `rules` (masking.ts), once the copies asked for so far are
   * made; with the syncs, one after another. A rule that cannot run is the result's error.
   */
  mask(branch: BranchRecord, rules: MaskingRuleRecord[], seed: string): Promise<MaskingResult> {
    const next = this.#queue.then(async (): Promise<MaskingResult> => {
      if (this.#stopped) return { maskedColumns: 0, error: "the emulator is stopping" };
      await this.#reconcile();
      const connect = (physical: string) => this.#server.connectAdmin(physical);
      const result = await maskDatabases(connect, this.databasesOf(branch), rules, seed);
      await this.noteTime();
      return result;
    });
    this.#queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** The WAL position of the data at emulator clock time `ms` (docs/api-rules.md §9). */
  lsnAt(ms: number): string {
    return this.#timeline.lsnAt(ms);
  }

  /** The emulator clock time by which the WAL reached `lsn`; Infinity when it has not yet. */
  timeAt(lsn: string): number {
    return this.#timeline.timeAt(lsn);
  }

  /** Reads the WAL position now and notes it with the clock's time; never rejects. */
  noteTime(): Promise<void> {
    return this.#timeline.noteTime();
  }

  /** Where a client reaches an endpoint: loopback and its direct or pooled port; undefined before the first sync that saw it. */
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined {
    return this.#proxies.address(endpointId, pooled);
  }

  /** The endpoint a connection string's host and port name (see `EndpointProxies.endpointAt`). */
  endpointAt(host: string, port: number | undefined): string | undefined {
    return this.#proxies.endpointAt(host, port);
  }

  /** The front door of an endpoint, once a sync has seen it. */
  proxyOf(endpointId: string): EndpointProxy | undefined {
    return this.#proxies.proxyOf(endpointId);
  }

  /** Brings Postgres and the proxies to the emulator's state; calls run one after another. */
  sync(): Promise<void> {
    const next = this.#queue.then(() => (this.#stopped ? undefined : this.#reconcile()));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  upstream(): { port: number } {
    return { port: this.#server.port };
  }

  async admit(
    endpointId: string,
    user: string,
    database: string,
    password: string,
    address: string,
  ): Promise<Admitted | Refusal> {
    const asApiRole = admission(this.#ctx, endpointId, user, database, password, address);
    if (!("sqlstate" in asApiRole)) {
      const physical = physicalName(asApiRole.branch, asApiRole.databaseId);
      return { database: physical, password: this.#server.rolePassword };
    }
    if (!("notAnApiRole" in asApiRole)) return asApiRole;
    const server = {
      admin: this.#admin,
      connect: (role: string, secret: string, on: string) => this.#server.connectRole(role, on, secret),
    };
    const refused = await sqlRoleRefusal(server, user, password);
    if (refused !== undefined) return refused;
    // The state may have changed while Postgres checked: the endpoint's rules are read again.
    const asSqlRole = admission(this.#ctx, endpointId, user, database, password, address, true);
    if ("sqlstate" in asSqlRole) return asSqlRole;
    return { database: physicalName(asSqlRole.branch, asSqlRole.databaseId), password };
  }

  noteCommit(): Promise<void> {
    return this.#timeline.noteTime(true);
  }

  /** A session's end is a moment its writes are done: the clock gets a reading. */
  inUse(_database: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.noteTime();
    };
  }

  /**
   * The schema of a branch's database (by id) as SQL, now or at WAL position `atLsn`; the
   * empty string at a point before the database was made.
   */
  async schemaAt(branch: BranchRecord, databaseId: number, atLsn?: string): Promise<string> {
    await this.sync();
    const physical = physicalName(branch, databaseId);
    if (atLsn === undefined) {
      const client = await this.#server.connectAdmin(physical);
      try {
        return await dumpSchema(client);
      } finally {
        await client.end();
      }
    }
    const name = branch.databases.find((d) => d.id === databaseId)?.name ?? "";
    return this.#timeline.schemaAt(this.#databases.fromBirth(branch.id, atLsn), physical, name);
  }

  /** The advisor's findings in a branch's database (by id), read from its catalog now. */
  async advisorIssuesOf(branch: BranchRecord, databaseId: number): Promise<AdvisorIssue[]> {
    await this.sync();
    const client = await this.#server.connectAdmin(physicalName(branch, databaseId));
    try {
      return await advisorIssues(client, branch.databases.find((d) => d.id === databaseId)?.name ?? "");
    } finally {
      await client.end();
    }
  }

  /**
   * Closes the serverless listener and the proxies, then stops Postgres (a temporary data folder
   * goes with it) and removes a CA not kept.
   */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.#queue;
    await this.#timeline.stop();
    await this.#serverless?.close();
    this.pool.close();
    await this.#proxies.close();
    await this.#admin.end().catch(() => undefined);
    await this.#server.stop();
    this.#certificates.dispose();
  }

  async #reconcile(): Promise<void> {
    const { store } = this.#ctx;
    const branches = store.liveBranches().filter((b) => store.liveProject(b.project_id) !== undefined);
    const roles = this.#roles.wanted(branches);
    // Oldest first, so a copy's source (a parent, a snapshot's branch, a restore's snapshot) exists.
    const holders: (DataHolder & { created_at_ms: number })[] = [...branches, ...store.snapshots.values()];
    holders.sort((a, b) => a.created_at_ms - b.created_at_ms);
    await this.#roles.create(roles);
    await this.#databases.reconcile(holders, roles);
    await this.#roles.dropOthers(roles, (name) => this.pool.drop({ role: name }));
    await this.#proxies.sync();
    await this.noteTime();
  }
}
