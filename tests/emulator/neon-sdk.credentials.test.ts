import assert from "node:assert/strict";
import { createNeonClient } from "@neon/sdk";
import { DEMO, type RunningEmulator } from "../../emulator";
import type { Json } from "./helpers";
import { start } from "./helpers";

// The official SDK (@neon/sdk, unchanged) against the emulator on a branch's credentials (issue,
// list, reveal, rotate, revoke), its custom domains (register, list page by page, delete) and its
// AI gateway endpoint.

describe("the official SDK (@neon/sdk): credentials, custom domains and the AI gateway", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("@neon/sdk's own client issues, reveals, rotates and revokes, registers domains and reads the AI gateway", async () => {
    emu = await start();
    const neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
    const at = { projectId: DEMO.projectId, branchId: DEMO.branchId };
    const issued = await neon.credentials.create({
      ...at,
      scopes: ["ai_gateway:invoke"],
      principal_type: "user",
    });
    const tokenId = issued.token_id;
    assert.deepEqual(
      (await neon.credentials.list(at)).map((c) => c.token_id),
      [tokenId],
    );
    assert.equal((await neon.credentials.reveal({ ...at, tokenId })).api_token, issued.api_token);
    const rotated = await neon.credentials.rotate({ ...at, tokenId });
    assert.notEqual(rotated.api_token, issued.api_token);
    await neon.credentials.revoke({ ...at, tokenId });
    await assert.rejects(neon.credentials.reveal({ ...at, tokenId }), (e: Json) => e.status === 404);

    for (const name of ["a.example.com", "b.example.com", "c.example.com"])
      await neon.functions.customDomains.register({
        ...at,
        domain: name,
        entity_type: "function",
        entity_id: "web",
      });
    const domains = await neon.functions.customDomains.list({ ...at, limit: 2 }).all();
    assert.deepEqual(
      domains.map((d) => d.domain),
      ["a.example.com", "b.example.com", "c.example.com"],
      "two pages",
    );
    await neon.functions.customDomains.delete({ ...at, domain: "b.example.com" });
    assert.equal((await neon.functions.customDomains.list(at).all()).length, 2);

    const gateway = await neon.aiGateway.get(at);
    assert.equal(gateway.base_url, `https://${DEMO.branchId}-api.ai.us-east-2.aws.clouddb.local`);
  });
});
