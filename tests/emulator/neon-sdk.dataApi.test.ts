import assert from "node:assert/strict";
import { createNeonClient } from "@neon/sdk";
import { addProjectJwks, createClient, deleteProjectJwks, getProjectJwks } from "@neon/sdk/raw";
import { DEMO, type RunningEmulator, startEmulator } from "../../emulator";

// The official SDK (@neon/sdk, unchanged) on the Data API and JWKS routes: its `postgres.dataApi`
// resource, and its raw functions for the project's JWKS URLs (the SDK has no resource for them).

const where = { projectId: DEMO.projectId, branchId: DEMO.branchId, databaseName: "neondb" };

describe("the official SDK (@neon/sdk) on the Data API and JWKS", function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let neon: ReturnType<typeof createNeonClient<true>>;

  before(async () => {
    emu = await startEmulator({ opDurationMs: 5, limits: false });
    neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
  });
  after(() => emu.stop());

  it("creates the Data API, reads it, changes its settings and deletes it", async () => {
    const { url } = await neon.postgres.dataApi.create({ ...where, settings: { db_max_rows: 50 } });
    assert.match(url, /\/neondb\/rest\/v1$/);
    const got = await neon.postgres.dataApi.get(where);
    assert.deepEqual([got.url, got.status, got.settings?.db_max_rows], [url, "ready", 50]);
    await neon.postgres.dataApi.update({ ...where, settings: { db_schemas: ["public", "api"] } });
    assert.deepEqual((await neon.postgres.dataApi.get(where)).settings?.db_schemas, ["public", "api"]);
    await neon.postgres.dataApi.delete(where);
    await assert.rejects(neon.postgres.dataApi.get(where), /not enabled for database neondb/);
  });

  it("adds, lists and deletes a project's JWKS URL through the raw functions", async () => {
    const client = createClient({ baseUrl: emu.url, auth: DEMO.personalKey });
    const path = { project_id: DEMO.projectId };
    const added = await addProjectJwks({
      client,
      path,
      body: { jwks_url: "https://clerk.example.com/.well-known/jwks.json", provider_name: "Clerk" },
      throwOnError: true,
    });
    assert.equal(added.jwks.provider_name, "Clerk");
    const listed = await getProjectJwks({ client, path, throwOnError: true });
    assert.deepEqual(
      listed.jwks.map((j) => j.id),
      [added.jwks.id],
    );
    const removed = await deleteProjectJwks({
      client,
      path: { ...path, jwks_id: added.jwks.id },
      throwOnError: true,
    });
    assert.equal(removed.id, added.jwks.id);
    assert.deepEqual((await getProjectJwks({ client, path, throwOnError: true })).jwks, []);
  });
});
