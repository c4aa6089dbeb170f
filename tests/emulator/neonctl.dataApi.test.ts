import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { useNeonctl } from "./neonctl-harness";

// The official CLI's `data-api` commands, unchanged, against the emulator: the Data API created on
// the demo branch's database with its settings, read, changed (merged with the current settings,
// then replaced), its schema cache refreshed and torn down; what the service refuses, refused.
// The CLI has no JWKS commands (the project's JWKS URLs are API-only); those run through the API
// in tests/emulator/dataApi.test.ts.

describe("the official CLI (neonctl): data-api", function () {
  this.timeout(120_000);
  const cli = useNeonctl();
  const { neonctl, ok } = cli;
  const where = ["--project-id", DEMO.projectId, "--branch", DEMO.branchId, "--database", "neondb"];
  const branch = () =>
    cli.emu.control
      .dumpState()
      .branches.find((b) => b.id === DEMO.branchId && b.project_id === DEMO.projectId);

  it("create answers the url; get shows it with its settings", async () => {
    const created = await ok(
      "data-api",
      "create",
      ...where,
      "--db-max-rows",
      "500",
      "--db-schemas",
      "public,api",
    );
    assert.match(created.url, /^https:\/\/ep-[a-z0-9-]+\.apirest\.[a-z0-9.-]+\/neondb\/rest\/v1$/);
    const got = await ok("data-api", "get", ...where);
    assert.equal(got.url, created.url);
    assert.equal(got.status, "ready");
    assert.deepEqual([got.settings.db_max_rows, got.settings.db_schemas], [500, ["public", "api"]]);
    assert.equal(got.settings.db_anon_role, "anonymous", "a setting never set reads as its default");
  });

  it("update merges with the current settings; --replace drops the others back to their defaults", async () => {
    await ok("data-api", "update", ...where, "--server-timing-enabled");
    let settings = (await ok("data-api", "get", ...where)).settings;
    assert.deepEqual(
      [settings.server_timing_enabled, settings.db_max_rows, settings.db_schemas],
      [true, 500, ["public", "api"]],
    );
    await ok("data-api", "update", ...where, "--replace", "--db-anon-role", "web_anon");
    settings = (await ok("data-api", "get", ...where)).settings;
    assert.deepEqual(
      [settings.db_anon_role, settings.db_max_rows, settings.server_timing_enabled, settings.db_schemas],
      ["web_anon", undefined, undefined, ["public"]],
    );
  });

  it("refresh-schema refreshes the cache and changes no setting", async () => {
    const before = branch()?.data_apis?.[0];
    assert.ok(before);
    cli.emu.control.advance(5000);
    const run = await neonctl("data-api", "refresh-schema", ...where);
    assert.equal(run.code, 0, run.stderr);
    const after = branch()?.data_apis?.[0];
    assert.deepEqual(after?.settings, before.settings);
    assert.ok((after?.refreshed_at_ms ?? 0) > before.refreshed_at_ms, "the schema cache was refreshed");
  });

  it("refuses what the service refuses: a second create, a missing database", async () => {
    const again = await neonctl("data-api", "create", ...where);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already enabled for database neondb/);
    const noJwks = await neonctl(
      "data-api",
      "create",
      "--project-id",
      DEMO.projectId,
      "--branch",
      DEMO.branchId,
      "--database",
      "nodb",
      "--auth-provider",
      "external",
    );
    assert.notEqual(noJwks.code, 0);
    assert.match(noJwks.stderr, /nodb/, "the missing database is named");
  });

  it("delete tears it down; update and delete then say it is not provisioned; external auth needs a JWKS URL", async () => {
    await ok("data-api", "delete", ...where);
    assert.deepEqual(branch()?.data_apis, []);
    const update = await neonctl("data-api", "update", ...where, "--db-max-rows", "10");
    assert.notEqual(update.code, 0);
    assert.match(update.stderr, /Data API is not provisioned for neondb/);
    const gone = await neonctl("data-api", "delete", ...where);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /Data API is not provisioned for neondb/);
    const external = await neonctl("data-api", "create", ...where, "--auth-provider", "external");
    assert.notEqual(external.code, 0);
    assert.match(external.stderr, /auth_provider external needs jwks_url/);
    assert.deepEqual(branch()?.data_apis, [], "a refused create enables nothing");
  });
});
