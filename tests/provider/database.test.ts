import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { createClient, resetRegistry } from "../../provider/client";
import { databaseDefinition } from "../../provider/resources/database";
import {
  type DatabaseInputs,
  type DatabaseOutputs,
  databaseProvider,
} from "../../provider/resources/public/database";
import { demoBranch, PROVIDER_TEXT, useEmulator } from "./support";

// Database against the emulator (roleDatabase.test.ts covers adoption and owners made by Role): the
// numeric id recorded, a rename found by id, the change table row by row, and the request budget of
// each call.

const P = DEMO.projectId;

describe("Database provider against the emulator", () => {
  const harness = useEmulator();
  const control = () => harness.emulator.control;
  const api = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  let B: string;
  before(async () => {
    B = await demoBranch(harness.emulator, "databases");
    for (const name of ["app", "owner"]) await api().createRole(P, B, { role: { name } });
  });
  beforeEach(() => control().clearRequests());

  function inputs(values: Partial<DatabaseInputs> = {}): DatabaseInputs {
    return {
      projectId: P,
      branchId: B,
      name: "appdb",
      ownerName: "app",
      ...values,
      __provider: PROVIDER_TEXT,
    } as DatabaseInputs;
  }
  const stored = (name: string) =>
    control()
      .dumpState()
      .branches.find((b) => b.id === B)
      ?.databases.find((d) => d.name === name);

  it("creates the database with its owner, waits for its operations, and records the numeric id", async () => {
    const made = await databaseProvider.create(inputs({ name: "created" }));
    const db = stored("created");
    assert.equal(made.id, String(db?.id));
    assert.equal(db?.owner_name, "app");
    for (const op of control()
      .dumpState()
      .operations.filter((o) => made.outs?.operationIds.includes(o.id)))
      assert.equal(op.status, "finished", `${op.action} ended before create resolved`);
    assert.deepEqual(harness.writes(), [`POST /projects/${P}/branches/${B}/databases`]);
  });

  it("renames and changes the owner in place with one PATCH of the old name", async () => {
    const olds = (await databaseProvider.create(inputs({ name: "before" }))).outs as DatabaseOutputs;
    const news = inputs({ name: "after", ownerName: "owner" });
    assert.deepEqual(await databaseProvider.diff!(String(olds.databaseId), olds, news), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    control().clearRequests();
    const updated = await databaseProvider.update!(String(olds.databaseId), olds, news);
    assert.deepEqual([updated.outs?.name, updated.outs?.ownerName], ["after", "owner"]);
    assert.deepEqual(harness.writes(), [`PATCH /projects/${P}/branches/${B}/databases/before`]);
    assert.deepEqual([stored("after")?.id, stored("after")?.owner_name], [olds.databaseId, "owner"]);
  });

  it("replaces only on a change of project or branch, without calling the API", async () => {
    const olds = {
      ...inputs(),
      databaseId: 7,
      createdAt: null,
      operationIds: [],
      pendingOperationIds: [],
    } as DatabaseOutputs;
    for (const [input, change] of Object.entries(databaseDefinition.changes)) {
      const value = input === "timeouts" ? { delete: 5 } : input === "deleteProtection" ? true : "changed";
      const result = await databaseProvider.diff!("7", olds, inputs({ [input]: value }));
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
    assert.deepEqual(harness.log(), [], "diff made no API call");
  });

  it("finds a database renamed elsewhere by its id on refresh, drops it once gone, and counts deleting it as done", async () => {
    const made = await databaseProvider.create(inputs({ name: "original" }));
    const olds = made.outs as DatabaseOutputs;
    await api().updateDatabase(P, B, "original", { database: { name: "renamed" } });
    resetRegistry(); // a refresh is a new provider process
    const read = await databaseProvider.read!(made.id, olds);
    assert.equal(read.id, made.id);
    assert.equal((read.props as DatabaseOutputs).name, "renamed");
    await api().deleteDatabase(P, B, "renamed");
    resetRegistry();
    assert.deepEqual(await databaseProvider.read!(made.id, olds), { id: "" });
    control().clearRequests();
    await databaseProvider.delete!(made.id, olds);
    assert.ok(harness.writes().length <= 1, `at most one DELETE: ${harness.writes().join(", ")}`);
  });
});
