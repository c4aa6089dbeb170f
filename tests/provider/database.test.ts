import assert from "node:assert/strict";
import { resetRegistry } from "../../provider/client";
import { DATABASE_CHANGES } from "../../provider/resources/database";
import {
  type DatabaseInputs,
  type DatabaseOutputs,
  databaseProvider,
} from "../../provider/resources/public/database";
import type { FakeApi } from "../client/support/fakeApi";
import { database, operation } from "../client/support/fixtures";
import { PROVIDER_TEXT, useFakeApi } from "./support";

// Database against a local fake of the API, for exact requests; roleDatabase.test.ts runs it against the emulator.

const P = "hidden-river-50598307";
const B = "br-damp-glitter-adqd4hk5";
const DBS = `/projects/${P}/branches/${B}/databases`;

const apiDatabase = database;
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
const OLDS = {
  ...inputs(),
  databaseId: 7,
  createdAt: null,
  operationIds: [],
  pendingOperationIds: [],
} as DatabaseOutputs;

describe("Database provider against a fake API", () => {
  const fake = useFakeApi();
  let api: FakeApi;
  beforeEach(() => {
    api = fake.api;
  });

  it("creates the database with its owner, waits for its operations, and records the numeric id", async () => {
    const op = operation({ project_id: P, action: "apply_config" });
    api.route("POST", "/projects/:project_id/branches/:branch_id/databases", {
      status: 201,
      json: { database: apiDatabase(), operations: [op] },
    });
    const made = await databaseProvider.create(inputs());
    assert.equal(made.id, "7");
    assert.deepEqual(api.requests[0]?.body, { database: { name: "appdb", owner_name: "app" } });
    assert.deepEqual(api.log(), [`POST ${DBS}`, `GET /projects/${P}/operations/${op.id}`]);
  });

  it("renames and changes the owner in place with one PATCH of the old name", async () => {
    const news = inputs({ name: "shop", ownerName: "owner" });
    assert.deepEqual(await databaseProvider.diff!("7", OLDS, news), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    api.route("PATCH", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
      json: { database: apiDatabase({ name: "shop", owner_name: "owner" }), operations: [] },
    });
    const updated = await databaseProvider.update!("7", OLDS, news);
    assert.deepEqual([updated.outs?.name, updated.outs?.ownerName], ["shop", "owner"]);
    assert.deepEqual(api.log(), [`PATCH ${DBS}/appdb`]);
    assert.deepEqual(api.requests[0]?.body, { database: { name: "shop", owner_name: "owner" } });
  });

  it("replaces only on a change of project or branch", async () => {
    for (const [input, change] of Object.entries(DATABASE_CHANGES)) {
      const value = input === "timeouts" ? { delete: 5 } : input === "deleteProtection" ? true : "changed";
      const result = await databaseProvider.diff!("7", OLDS, inputs({ [input]: value }));
      assert.deepEqual(result.replaces, change === "replace" ? [input] : [], input);
      assert.equal(result.changes, change !== "ignore", input);
    }
  });

  it("finds a database renamed elsewhere by its id on refresh, and drops one that is gone", async () => {
    api.script("GET", "/projects/:project_id/branches/:branch_id/databases", [
      { json: { databases: [apiDatabase({ name: "renamed" })] } },
      { json: { databases: [] } },
    ]);
    const read = await databaseProvider.read!("7", OLDS);
    assert.equal(read.id, "7");
    assert.equal((read.props as DatabaseOutputs).name, "renamed");
    resetRegistry(); // the next refresh runs in a new provider process
    assert.deepEqual(await databaseProvider.read!("7", OLDS), { id: "" });
  });

  it("counts deleting a database already gone as done", async () => {
    api.route("DELETE", "/projects/:project_id/branches/:branch_id/databases/:database_name", {
      status: 204,
    });
    await databaseProvider.delete!("7", OLDS);
    assert.deepEqual(api.log(), [`DELETE ${DBS}/appdb`]);
  });
});
