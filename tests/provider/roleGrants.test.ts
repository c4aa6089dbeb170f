import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import {
  type RoleGrantsInputs,
  type RoleGrantsOutputs,
  roleGrantsProvider,
} from "../../provider/resources/public/roleGrants";
import { dataPlaneRun, runSql, sqlOutcome, verifyFull } from "../emulator/helpers";
import {
  demoBranch,
  linesOf,
  onlyFailure,
  PROVIDER_TEXT,
  projectIdle,
  rejection,
  useSqlEmulator,
} from "./support";

// RoleGrants on the emulator's real Postgres: a runtime role that reads and writes rows and cannot
// change the schema, the tables made later covered, a grant revoked outside read back as drift and
// granted again, access narrowed in place, and deleting revoking what it granted.

const P = DEMO.projectId;

describe(`RoleGrants over SQL on the emulator's Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  const harness = useSqlEmulator();
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  let B: string;
  let ownerUri: string;
  const owner = (...sql: string[]) => runSql(ownerUri, harness.emulator.caPath, ...sql);
  /** The SQLSTATE `sql` fails with on `uri`, or "ok". */
  const outcome = (uri: string, sql: string) => sqlOutcome(uri, harness.emulator.caPath, sql);
  /** `uri` verified against the emulator's CA, as an app given it would connect. */
  const verified = (uri: string) => verifyFull(uri, harness.emulator.caPath);

  before(async () => {
    B = await demoBranch(harness.emulator, "grants");
    await api().createRole(P, B, { role: { name: "shop_owner" } });
    await api().createDatabase(P, B, { database: { name: "shop", owner_name: "shop_owner" } });
    await projectIdle(harness.emulator, P);
    ownerUri = await api().getConnectionUri(P, { branchId: B, databaseName: "shop", roleName: "shop_owner" });
    await owner(
      "CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL)",
      "INSERT INTO orders (item) VALUES ('tea')",
    );
  });

  function inputs(values: Partial<RoleGrantsInputs> = {}): RoleGrantsInputs {
    return {
      projectId: P,
      branchId: B,
      databaseName: "shop",
      ownerName: "shop_owner",
      roleName: "app",
      createRole: true,
      ...values,
      __provider: PROVIDER_TEXT,
    } as RoleGrantsInputs;
  }
  const made = async (values: Partial<RoleGrantsInputs> = {}) => {
    const result = await roleGrantsProvider.create(inputs(values));
    return { id: result.id, outs: result.outs as RoleGrantsOutputs };
  };
  const roles = async () =>
    (await owner("SELECT rolname FROM pg_roles WHERE rolname LIKE 'app%' ORDER BY 1")).map(
      (r) => (r as { rolname: string }).rolname,
    );

  it("makes a login role that reads and writes rows and is refused CREATE, ALTER and DROP", async () => {
    const { id, outs } = await made();
    assert.match(outs.connectionUri, /^postgresql:\/\/app:[^@]+@127\.0\.0\.1:\d+\/shop\?/);
    assert.ok(outs.password.length >= 24, "a generated password");
    assert.deepEqual(outs.missingGrants, []);
    const uri = verified(outs.connectionUri);
    assert.equal(await outcome(uri, "INSERT INTO orders (item) VALUES ('cake')"), "ok");
    assert.equal(await outcome(uri, "UPDATE orders SET item = 'scone' WHERE item = 'cake'"), "ok");
    assert.equal(await outcome(uri, "DELETE FROM orders WHERE item = 'scone'"), "ok");
    assert.equal(await outcome(uri, "CREATE TABLE sneaky (id int)"), "42501");
    assert.equal(await outcome(uri, "ALTER TABLE orders ADD COLUMN note text"), "42501");
    assert.equal(await outcome(uri, "DROP TABLE orders"), "42501");
    assert.equal(await outcome(uri, "TRUNCATE orders"), "42501");
    // The tables a migration makes later, as the owner, are covered too.
    await owner("CREATE TABLE payments (id serial PRIMARY KEY, amount int)");
    assert.equal(await outcome(uri, "INSERT INTO payments (amount) VALUES (3)"), "ok");
    await roleGrantsProvider.delete!(id, outs);
    assert.deepEqual(await roles(), []);
  });

  it("reads a grant revoked outside the stack as drift, and the next update grants it again", async () => {
    const { id, outs } = await made();
    await owner("REVOKE INSERT ON orders FROM app");
    const read = (await roleGrantsProvider.read!(id, outs)).props as RoleGrantsOutputs;
    assert.deepEqual(read.missingGrants, ["INSERT on public.orders"]);
    const diff = await roleGrantsProvider.diff!(id, read, inputs());
    assert.deepEqual(
      { changes: diff.changes, replaces: diff.replaces ?? [] },
      { changes: true, replaces: [] },
    );
    const updated = (await roleGrantsProvider.update!(id, read, inputs())).outs as RoleGrantsOutputs;
    assert.equal(updated.password, outs.password, "the password is kept");
    assert.equal(
      await outcome(verified(updated.connectionUri), "INSERT INTO orders (item) VALUES ('jam')"),
      "ok",
    );
    const again = (await roleGrantsProvider.read!(id, updated)).props as RoleGrantsOutputs;
    assert.deepEqual(again.missingGrants, []);
    assert.equal((await roleGrantsProvider.diff!(id, again, inputs())).changes, false);
    const defaults = inputs({ createRole: undefined, roleName: "app" });
    assert.equal(
      (await roleGrantsProvider.diff!(id, { ...again, createRole: false }, defaults)).changes,
      false,
    );
    await roleGrantsProvider.delete!(id, updated);
  });

  it("narrows to read-only in place: SELECT stays, writes are refused", async () => {
    const { id, outs } = await made();
    const news = inputs({ access: "read-only" });
    const diff = await roleGrantsProvider.diff!(id, outs, news);
    assert.deepEqual(diff.replaces ?? [], []);
    const narrowed = (await roleGrantsProvider.update!(id, outs, news)).outs as RoleGrantsOutputs;
    const uri = verified(narrowed.connectionUri);
    assert.equal(await outcome(uri, "SELECT count(*) FROM orders"), "ok");
    assert.equal(await outcome(uri, "INSERT INTO orders (item) VALUES ('bun')"), "42501");
    await owner("GRANT DELETE ON orders TO app");
    const read = (await roleGrantsProvider.read!(id, narrowed)).props as RoleGrantsOutputs;
    assert.deepEqual(read.missingGrants, ["DELETE on public.orders (beyond read-only)"]);
    await roleGrantsProvider.delete!(id, read);
  });

  it("grants to a role that exists without making or dropping it", async () => {
    await owner("CREATE ROLE app_reader LOGIN PASSWORD 'reader-pass-123456'");
    const { id, outs } = await made({ roleName: "app_reader", createRole: false, access: "read-only" });
    assert.equal(outs.connectionUri, "");
    assert.equal(outs.password, "");
    const uri = new URL(verified(ownerUri));
    uri.username = "app_reader";
    uri.password = "reader-pass-123456";
    assert.equal(await outcome(uri.href, "SELECT count(*) FROM orders"), "ok");
    await roleGrantsProvider.delete!(id, outs);
    assert.deepEqual(await roles(), ["app_reader"]);
    assert.equal(await outcome(uri.href, "SELECT count(*) FROM orders"), "42501");
    await owner("DROP ROLE app_reader");
  });

  it("deleting keeps a role it made that holds privileges granted outside it, and says so", async () => {
    const { id, outs } = await made({ roleName: "app_shared" });
    await owner(
      "CREATE SCHEMA extra",
      "CREATE TABLE extra.notes (id int)",
      "GRANT SELECT ON extra.notes TO app_shared",
    );
    const { lines } = await linesOf(() => roleGrantsProvider.delete!(id, outs));
    assert.ok(
      lines.some((l) =>
        /role "app_shared" .* keeps privileges granted outside these grants, so it stays/.test(l),
      ),
      lines.join("\n"),
    );
    assert.deepEqual(await roles(), ["app_shared"]);
    assert.equal(await outcome(verified(outs.connectionUri), "SELECT count(*) FROM orders"), "42501");
    await owner("DROP SCHEMA extra CASCADE", "DROP ROLE app_shared");
  });

  it("refuses a role that does not exist, and a schema that does not exist, saying what to do", async () => {
    const noRole = await rejection(made({ roleName: "app_missing", createRole: false }));
    assert.match(noRole.message, /role "app_missing" does not exist on branch .*createRole: true/);
    const noSchema = await rejection(made({ schemas: ["public", "billing"] }));
    assert.match(
      noSchema.message,
      /schema "billing" does not exist in database "shop".*leave it out of schemas/,
    );
    assert.deepEqual(await roles(), [], "nothing was made");
  });

  it("refuses a reserved role name at check", async () => {
    const result = await roleGrantsProvider.check!({} as RoleGrantsInputs, inputs({ roleName: "neon_app" }));
    assert.match(onlyFailure(result).reason, /reserves/);
  });
});
