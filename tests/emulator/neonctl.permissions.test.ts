import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import type { Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// Project permissions and project settings through the official CLI, unchanged (see `neonctl-harness.ts`).
// The CLI has no command of its own for sharing a project: `neonctl api` sends the documented
// routes, and `projects list` shows what is shared with the key's user.

const P = DEMO.projectId;

describe("the official CLI (neonctl): project permissions and settings", function () {
  this.timeout(120_000);
  const cli = useNeonctl();

  const ids = (projects: Json[] | undefined) => (projects ?? []).map((p: Json) => p.id);

  it("shares a project with `api`, the grantee's `projects list` shows it, and revoking ends it", async () => {
    const granted = await cli.ok("api", `/projects/${P}/permissions`, "-f", "email=casey@example.com");
    assert.equal(granted.granted_to_email, "casey@example.com");
    const listed = await cli.ok("api", `/projects/${P}/permissions`);
    assert.deepEqual(
      listed.project_permissions.map((p: Json) => p.id),
      [granted.id],
    );
    const twice = await cli.neonctl("api", `/projects/${P}/permissions`, "-f", "email=CASEY@example.com");
    assert.notEqual(twice.code, 0);
    assert.match(twice.stderr, /already shared with CASEY@example.com/);
    const malformed = await cli.neonctl("api", `/projects/${P}/permissions`, "-f", "email=casey");
    assert.notEqual(malformed.code, 0);
    assert.match(malformed.stderr, /email must match format "email"/);

    const casey = await cli.neonctlAs(DEMO.memberPersonalKey, "projects", "list");
    assert.equal(casey.code, 0, casey.stderr);
    assert.deepEqual(ids(casey.json.shared_with_you), [P]);
    assert.ok(!ids(casey.json.projects).includes(P), "a shared project is not among the user's own");
    const seen = await cli.neonctlAs(DEMO.memberPersonalKey, "projects", "get", P);
    assert.equal(seen.json?.id, P, seen.stderr);

    const revoked = await cli.ok("api", `/projects/${P}/permissions/${granted.id}`, "-X", "DELETE");
    assert.equal(typeof revoked.revoked_at, "string");
    const after = await cli.neonctlAs(DEMO.memberPersonalKey, "projects", "list");
    assert.deepEqual(ids(after.json.shared_with_you), []);
    const refused = await cli.neonctlAs(DEMO.memberPersonalKey, "projects", "get", P);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /no access to project/);
  });

  it("projects create --database --role names the default database and its owner; `api` sets the maintenance window and quotas", async () => {
    const created = await cli.ok(
      "projects",
      "create",
      "--name",
      "cli-named",
      "--database",
      "shop",
      "--role",
      "shopkeeper",
    );
    const id = created.project.id as string;
    assert.match(created.connection_uris[0].connection_uri, /^postgresql:\/\/shopkeeper:.*\/shop\?/);
    const branch = cli.emu.control.dumpState().branches.find((b) => b.project_id === id && b.default);
    assert.deepEqual(
      branch?.databases.map((d) => [d.name, d.owner_name]),
      [["shop", "shopkeeper"]],
    );

    const window = { weekdays: [2, 4], start_time: "02:00", end_time: "04:00" };
    const body = JSON.stringify({
      project: { settings: { maintenance_window: window, quota: { compute_time_seconds: 7200 } } },
    });
    await cli.ok("api", `/projects/${id}`, "-X", "PATCH", "-d", body);
    const settings = (await cli.ok("projects", "get", id)).settings;
    assert.deepEqual([settings.maintenance_window, settings.quota], [window, { compute_time_seconds: 7200 }]);
    const wrong = JSON.stringify({
      project: { settings: { maintenance_window: { ...window, weekdays: [9] } } },
    });
    const refused = await cli.neonctl("api", `/projects/${id}`, "-X", "PATCH", "-d", wrong);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /weekdays must list days from 1 \(Monday\) to 7 \(Sunday\)/);
  });
});
