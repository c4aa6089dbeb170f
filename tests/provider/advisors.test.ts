import assert from "node:assert/strict";
import { Client } from "pg";
import { DEMO } from "../../emulator";
import { getAdvisors, getAdvisorsOutput } from "../../provider";
import { api, dataPlaneRun, type Json, verifyFull } from "../emulator/helpers";
import { projectIdle, useEmulator } from "./support";

// getAdvisors against the emulator's Postgres data plane: the advisor reads the branch database's
// catalog, so what a real connection creates is what it finds.

describe(`getAdvisors with real Postgres behind the branches${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  const harness = useEmulator({ postgres: true, limits: false });
  let branchId: string;

  before(async () => {
    await projectIdle(harness.emulator, DEMO.projectId);
    const created = await api(harness.emulator, DEMO.personalKey).post(
      `/projects/${DEMO.projectId}/branches`,
      {
        branch: { parent_id: DEMO.branchId, name: "advised" },
        endpoints: [{ type: "read_write" }],
      },
    );
    assert.equal(created.status, 201, created.text);
    branchId = created.body.branch.id;
    const uri = (created.body.connection_uris as Json[])[0].connection_uri as string;
    await projectIdle(harness.emulator, DEMO.projectId);
    const client = new Client({ connectionString: verifyFull(uri, harness.emulator.caPath) });
    await client.connect();
    try {
      await client.query("CREATE TABLE events (at timestamptz, payload jsonb)");
    } finally {
      await client.end();
    }
  });

  it("reports a public table without RLS or primary key with camelCase fields and text metadata", async () => {
    const { issues } = await getAdvisors({ projectId: DEMO.projectId, branchId });
    assert.deepEqual(
      issues.map((i) => [i.name, i.level, i.categories]),
      [
        ["rls_disabled_in_public", "ERROR", ["SECURITY"]],
        ["no_primary_key", "INFO", ["PERFORMANCE"]],
      ],
    );
    const [rls] = issues;
    assert.equal(rls?.detail, "Table `public.events` is public, but RLS has not been enabled.");
    assert.deepEqual(rls?.metadata, { database: "neondb", schema: "public", name: "events", type: "table" });
    assert.match(rls?.cacheKey ?? "", /^rls_disabled_in_public_/);
  });

  it("passes the filters, and its Output form gives the same; the default branch has nothing to report", async () => {
    const filtered = await getAdvisors({ projectId: DEMO.projectId, branchId, minSeverity: "WARN" });
    assert.deepEqual(
      filtered.issues.map((i) => i.name),
      ["rls_disabled_in_public"],
    );
    const performance = await new Promise<Json>((resolve) =>
      getAdvisorsOutput({ projectId: DEMO.projectId, branchId, category: "PERFORMANCE" }).apply(resolve),
    );
    assert.deepEqual(
      performance.issues.map((i: Json) => i.name),
      ["no_primary_key"],
    );
    assert.deepEqual((await getAdvisors({ projectId: DEMO.projectId })).issues, []);
    await assert.rejects(getAdvisors({ projectId: DEMO.projectId, branchId, databaseName: "nope" }), /404/);
  });
});
