import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The official CLI (`neonctl`, unchanged) as a user runs it against the emulator (see
// neonctl-harness.ts): the commands of the objects every stack has.

const P = DEMO.projectId;

describe("the official CLI (neonctl) against the emulator", function () {
  this.timeout(120_000);
  const cli = useNeonctl();
  const { ok, neonctl } = cli;

  const branchNamed = (name: string) =>
    cli.emu.control
      .dumpState()
      .branches.find((b) => b.project_id === P && b.name === name && b.deleted_at_ms === undefined);

  it("me: shows the key's user", async () => {
    const me = await ok("me");
    assert.equal(me.id, DEMO.userId);
    assert.equal(me.email, "demo@example.com");
  });

  it("orgs list: lists the user's organizations", async () => {
    const orgs = await ok("orgs", "list");
    assert.deepEqual(
      orgs.map((o: Json) => o.id),
      [DEMO.orgId],
    );
  });

  it("projects list: lists the user's projects, after asking for shared ones too", async () => {
    const listed = await ok("projects", "list");
    const ids = [...(listed.projects ?? []), ...(listed.shared_with_me ?? [])].map((p: Json) => p.id);
    assert.ok(ids.includes(P), JSON.stringify(listed).slice(0, 300));
    assert.equal(cli.emu.control.requests({ route: "GET /projects/shared" }).at(-1)?.status, 200);
  });

  it("projects create, get, update, delete", async () => {
    const created = await ok("projects", "create", "--name", "cli-made");
    const id = created.project.id as string;
    assert.equal(created.project.name, "cli-made");
    assert.match(created.connection_uris[0].connection_uri, /^postgresql:\/\/neondb_owner:/);
    assert.equal((await ok("projects", "get", id)).name, "cli-made");
    assert.equal((await ok("projects", "update", id, "--name", "cli-renamed")).name, "cli-renamed");
    assert.equal((await ok("projects", "delete", id)).id, id);
    const gone = await neonctl("projects", "get", id);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /not found/);
  });

  it("ip-allow add, list, remove and reset, and projects update with the network and replication flags", async () => {
    const id = (await ok("projects", "create", "--name", "cli-fenced")).project.id as string;
    const added = await ok("ip-allow", "add", "203.0.113.7", "198.51.100.0/24", "--project-id", id);
    assert.deepEqual(added.IP_addresses, ["203.0.113.7", "198.51.100.0/24"]);
    const listed = await ok("ip-allow", "list", "--project-id", id);
    assert.deepEqual(listed.IP_addresses, ["203.0.113.7", "198.51.100.0/24"]);
    const removed = await ok("ip-allow", "remove", "203.0.113.7", "--project-id", id);
    assert.deepEqual(removed.IP_addresses, ["198.51.100.0/24"]);
    const refused = await neonctl("ip-allow", "add", "not-an-address", "--project-id", id);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /"not-an-address" is not an IP address, a CIDR block/);
    const reset = await ok("ip-allow", "reset", "--project-id", id);
    assert.deepEqual(reset.IP_addresses, []);
    await ok(
      "projects",
      "update",
      id,
      "--block-public-connections",
      "true",
      "--block-vpc-connections",
      "true",
    );
    await ok("projects", "update", id, "--enable-logical-replication", "--yes");
    const settings = (await ok("projects", "get", id)).settings;
    assert.deepEqual(
      [
        settings.block_public_connections,
        settings.block_vpc_connections,
        settings.enable_logical_replication,
      ],
      [true, true, true],
    );
    await ok("projects", "delete", id);
  });

  it("branches create and list", async () => {
    const created = await ok("branches", "create", "--project-id", P, "--name", "dev");
    assert.equal(created.branch.name, "dev");
    assert.deepEqual(
      created.endpoints.map((e: Json) => e.type),
      ["read_write"],
    );
    const names = (await ok("branches", "list", "--project-id", P)).map((b: Json) => b.name);
    assert.deepEqual(names.sort(), ["dev", "main"]);
  });

  it("branches add-compute: adds a read-only endpoint with a host", async () => {
    const endpoint = await ok("branches", "add-compute", "dev", "--project-id", P);
    assert.equal(endpoint.type, "read_only");
    assert.equal(endpoint.branch_id, branchNamed("dev")?.id);
    assert.match(endpoint.host, /^ep-[a-z0-9-]+\.us-east-2\.aws\.clouddb\.local$/);
  });

  it("branches set-expiration: the branch expires on the emulator's clock", async () => {
    await ok("branches", "create", "--project-id", P, "--name", "short-lived", "--no-compute");
    const at = new Date(cli.emu.control.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z");
    const set = await ok("branches", "set-expiration", "short-lived", "--project-id", P, "--expires-at", at);
    assert.equal(set.expires_at, at);
    const past = await neonctl(
      "branches",
      "set-expiration",
      "dev",
      "--project-id",
      P,
      "--expires-at",
      "2001-01-01T00:00:00Z",
    );
    assert.notEqual(past.code, 0);
    assert.match(past.stderr, /must be in the future/);
    assert.equal(branchNamed("dev")?.expires_at_ms, undefined, "a refused expiry changes nothing");
    cli.emu.control.advance(3_600_000);
    const names = (await ok("branches", "list", "--project-id", P)).map((b: Json) => b.name);
    assert.ok(!names.includes("short-lived"), `expired branch still listed: ${names.join(", ")}`);
  });

  it("branches restore: resets dev to main, keeping its old state under another name", async () => {
    const restored = await ok(
      "branches",
      "restore",
      "dev",
      "main",
      "--project-id",
      P,
      "--preserve-under-name",
      "dev-old",
    );
    assert.equal(restored.restored_branch.name, "dev");
    assert.ok(restored.restored_branch.last_reset_at, "the branch says when it was reset");
    assert.ok(branchNamed("dev-old"), "the previous state is kept");
  });

  it("branches set-default: makes dev the default, then main again", async () => {
    assert.equal((await ok("branches", "set-default", "dev", "--project-id", P)).default, true);
    assert.equal(
      cli.emu.control.dumpState().projects.find((p) => p.id === P)?.default_branch_id,
      branchNamed("dev")?.id,
    );
    assert.equal((await ok("branches", "set-default", "main", "--project-id", P)).default, true);
  });

  it("roles and databases: create, list, connection-string, delete", async () => {
    const role = await ok("roles", "create", "--project-id", P, "--branch", "dev", "--name", "alice");
    assert.equal(role.name, "alice");
    assert.ok(role.password, "the password comes once, in the creation answer");
    const roles = (await ok("roles", "list", "--project-id", P, "--branch", "dev")).map((r: Json) => r.name);
    assert.deepEqual(roles.sort(), ["alice", "neondb_owner"]);
    const db = await ok(
      "databases",
      "create",
      "--project-id",
      P,
      "--branch",
      "dev",
      "--name",
      "appdb",
      "--owner-name",
      "alice",
    );
    assert.equal(db.owner_name, "alice");
    const dbs = (await ok("databases", "list", "--project-id", P, "--branch", "dev")).map(
      (d: Json) => d.name,
    );
    assert.deepEqual(dbs.sort(), ["appdb", "neondb"]);
    const plain = await ok(
      "connection-string",
      "dev",
      "--project-id",
      P,
      "--role-name",
      "alice",
      "--database-name",
      "appdb",
    );
    const pooled = await ok(
      "connection-string",
      "dev",
      "--project-id",
      P,
      "--role-name",
      "alice",
      "--database-name",
      "appdb",
      "--pooled",
    );
    const rw = cli.emu.control
      .dumpState()
      .endpoints.find((e) => e.branch_id === branchNamed("dev")?.id && e.type === "read_write");
    assert.ok(rw);
    const uri = typeof plain === "string" ? plain : plain.connection_string;
    const pooledUri = typeof pooled === "string" ? pooled : pooled.connection_string;
    assert.match(
      uri,
      new RegExp(
        `^postgresql://alice:${role.password}@${rw.id}\\.us-east-2\\.aws\\.clouddb\\.local/appdb\\?`,
      ),
    );
    assert.match(pooledUri, new RegExp(`@${rw.id}-pooler\\.us-east-2`));
    assert.equal(
      (await ok("databases", "delete", "appdb", "--project-id", P, "--branch", "dev")).name,
      "appdb",
    );
    assert.equal((await ok("roles", "delete", "alice", "--project-id", P, "--branch", "dev")).name, "alice");
  });

  it("branches delete: refuses a branch with children, deletes leaves", async () => {
    const refused = await neonctl("branches", "delete", "main", "--project-id", P);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /default branch/);
    await ok("branches", "delete", "dev-old", "--project-id", P);
    await ok("branches", "delete", "dev", "--project-id", P);
    const names = (await ok("branches", "list", "--project-id", P)).map((b: Json) => b.name);
    assert.deepEqual(names, ["main"]);
  });
});
