import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient, resetRegistry } from "../../provider/client";
import {
  type DatabaseInputs,
  type DatabaseOutputs,
  databaseProvider,
} from "../../provider/resources/public/database";
import { type RoleInputs, type RoleOutputs, roleProvider } from "../../provider/resources/public/role";
import { useEmulator, withProvider } from "./support";

// Role and Database against the emulator: what the service holds after each provider call.

const P = DEMO.projectId;
const B = DEMO.branchId;

describe("Role and Database providers against the emulator", () => {
  const harness = useEmulator();
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const branch = () => harness.emulator.control.dumpState().branches.find((b) => b.id === B)!;
  const roleIn = (name: string, extra: Partial<RoleInputs> = {}): RoleInputs =>
    withProvider({ projectId: P, branchId: B, name, ...extra });
  const databaseIn = (name: string, ownerName: string, extra: Partial<DatabaseInputs> = {}): DatabaseInputs =>
    withProvider({ projectId: P, branchId: B, name, ownerName, ...extra });

  it("creates a role whose password is the service's, and rotates it in place on a new passwordResetTrigger", async () => {
    const made = await roleProvider.create(roleIn("app_rw"));
    const outs = made.outs as RoleOutputs;
    assert.equal(made.id, `${B}/app_rw`);
    assert.equal(outs.password, branch().roles.find((r) => r.name === "app_rw")?.password);
    const news = roleIn("app_rw", { passwordResetTrigger: "2026-11" });
    const diff = await roleProvider.diff!(made.id, outs, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const rotated = (await roleProvider.update!(made.id, outs, news)).outs as RoleOutputs;
    assert.notEqual(rotated.password, outs.password);
    assert.equal(rotated.password, branch().roles.find((r) => r.name === "app_rw")?.password);
    await roleProvider.delete!(made.id, rotated);
    assert.equal(
      branch().roles.find((r) => r.name === "app_rw"),
      undefined,
    );
  });

  it("creates a database owned by a role, renames it and changes its owner in place, keeping its id", async () => {
    await roleProvider.create(roleIn("owner_a"));
    await roleProvider.create(roleIn("owner_b"));
    const made = await databaseProvider.create(databaseIn("orders", "owner_a"));
    const outs = made.outs as DatabaseOutputs;
    const news = databaseIn("orders_v2", "owner_b");
    const diff = await databaseProvider.diff!(made.id, outs, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const updated = (await databaseProvider.update!(made.id, outs, news)).outs as DatabaseOutputs;
    assert.deepEqual(
      [updated.name, updated.ownerName, updated.databaseId],
      ["orders_v2", "owner_b", outs.databaseId],
    );
    const stored = branch().databases.find((d) => d.name === "orders_v2");
    assert.equal(stored?.owner_name, "owner_b");
    await databaseProvider.delete!(made.id, updated);
    assert.equal(
      branch().databases.find((d) => d.name === "orders_v2"),
      undefined,
    );
  });

  it("adopts an existing role with its current password, and an existing database, applying the declared owner", async () => {
    const api = client();
    const existing = await api.createRole(P, B, { role: { name: "legacy" } });
    await api.createDatabase(P, B, { database: { name: "legacy_db", owner_name: "legacy" } });
    await roleProvider.create(roleIn("new_owner"));
    harness.emulator.control.clearRequests();

    const role = await roleProvider.create(roleIn("legacy", { adoptExisting: "legacy" }));
    assert.equal((role.outs as RoleOutputs).password, existing.role.password);
    const db = await databaseProvider.create(
      databaseIn("legacy_db", "new_owner", { adoptExisting: "legacy_db" }),
    );
    assert.equal((db.outs as DatabaseOutputs).ownerName, "new_owner");
    assert.equal(branch().databases.find((d) => d.name === "legacy_db")?.owner_name, "new_owner");
    assert.ok(
      !harness.log().some((line) => line.startsWith("POST") && /\/(roles|databases)$/.test(line)),
      `adoption created nothing: ${harness.log().join(", ")}`,
    );
  });

  it("refuses to adopt a role under another name, and one that does not exist, saying what to change", async () => {
    await assert.rejects(
      roleProvider.create(roleIn("reader", { adoptExisting: "writer" })),
      /role writer is not the role named reader.*set name: "writer"/,
    );
    await assert.rejects(
      roleProvider.create(roleIn("ghost", { adoptExisting: "ghost" })),
      /adoptExisting: role ghost was not found in project .*remove adoptExisting to create a new role/,
    );
  });

  it("refresh drops a role and a database deleted outside Pulumi; deleting them again counts as done", async () => {
    const role = await roleProvider.create(roleIn("gone_role"));
    const db = await databaseProvider.create(databaseIn("gone_db", "gone_role"));
    const api = client();
    await api.deleteDatabase(P, B, "gone_db");
    await api.deleteRole(P, B, "gone_role");
    resetRegistry(); // a refresh is a new provider process
    assert.deepEqual(await roleProvider.read!(role.id, role.outs as RoleOutputs), { id: "" });
    assert.deepEqual(await databaseProvider.read!(db.id, db.outs as DatabaseOutputs), { id: "" });
    await roleProvider.delete!(role.id, role.outs as RoleOutputs);
    await databaseProvider.delete!(db.id, db.outs as DatabaseOutputs);
  });
});
