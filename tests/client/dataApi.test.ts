import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { type CloudDbClient, isNotFound } from "../../provider/client";
import { useEmulatorClient } from "./support/emulator";

// The client's Data API and JWKS family against the emulator: each call, its answer read through
// the documented schemas, and a Data API not enabled read as not found.

describe("client: the Data API and JWKS URLs", () => {
  const harness = useEmulatorClient({}, { reseed: true });
  let client: CloudDbClient;
  const at = [DEMO.projectId, DEMO.branchId, "neondb"] as const;
  beforeEach(() => {
    client = harness.client();
  });
  it("enables the Data API, reads it, replaces its settings and disables it", async () => {
    const url = await client.createDataApi(...at, { settings: { db_max_rows: 10 } });
    assert.match(url, /\/neondb\/rest\/v1$/);
    const got = await client.getDataApi(...at);
    assert.deepEqual([got.url, got.settings?.db_max_rows], [url, 10]);
    await client.updateDataApi(...at, { settings: { db_anon_role: "web_anon" } });
    const changed = await client.getDataApi(...at);
    assert.deepEqual(
      [changed.settings?.db_anon_role, changed.settings?.db_max_rows],
      ["web_anon", undefined],
    );
    await client.deleteDataApi(...at);
    await assert.rejects(client.getDataApi(...at), (err) => isNotFound(err));
  });

  it("adds, lists and removes a project's JWKS URL", async () => {
    const added = await client.addJwks(DEMO.projectId, {
      jwks_url: "https://clerk.example.com/.well-known/jwks.json",
      provider_name: "Clerk",
      jwt_audience: "app",
    });
    assert.deepEqual([added.provider_name, added.jwt_audience], ["Clerk", "app"]);
    assert.deepEqual(
      (await client.listJwks(DEMO.projectId)).map((j) => j.id),
      [added.id],
    );
    assert.equal((await client.deleteJwks(DEMO.projectId, added.id)).id, added.id);
    assert.deepEqual(await client.listJwks(DEMO.projectId), []);
    await assert.rejects(client.deleteJwks(DEMO.projectId, added.id), (err) => isNotFound(err));
  });
});
