import assert from "node:assert/strict";
import { DEMO, type RunningEmulator } from "../../emulator";
import { ManualClock } from "../../emulator/clock";
import {
  type CredentialContext,
  credentialFor,
  issueCredential,
  revokeCredential,
  rotateCredential,
} from "../../emulator/families/credentials";
import type { BranchRecord } from "../../emulator/records";
import { Store } from "../../emulator/state";
import { api, type Json, start } from "./helpers";

// A branch's scoped service credentials, custom domains and AI gateway (docs/api-rules.md §25):
// a credential's secrets shown at issue, reveal and rotation only; a rotation keeping the id and
// ending the old secrets; a revoked credential listed with when, and no longer accepted; a
// credential is no key to the control API; a domain held by one entity only. @neon/sdk's own
// client on these routes is in neon-sdk.credentials.test.ts.

const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`;
const storage = { scopes: ["storage:read", "storage:write"], principal_type: "user" };

describe("emulator: credentials, custom domains and the AI gateway", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("shows a credential's secrets on issue, reveal and rotation only; a rotation keeps the id and ends the old secrets", async () => {
    emu = await start();
    const client = api(emu, DEMO.personalKey);
    const issued = await client.post(`${B}/credentials`, { ...storage, name: "uploads" });
    assert.equal(issued.status, 201, issued.text);
    assert.match(issued.body.token_id, /^nak_live_[0-9a-f]{32}$/);
    assert.equal(issued.body.token_id_short, issued.body.token_id.slice(9, 21));
    const listed = await client.get(`${B}/credentials`);
    assert.deepEqual(
      listed.body.credentials.map((c: Json) => [c.token_id, c.name, c.principal_type, c.api_token]),
      [[issued.body.token_id, "uploads", "user", undefined]],
    );
    const C = `${B}/credentials/${issued.body.token_id}`;
    assert.equal((await client.post(`${C}/reveal`)).body.api_token, issued.body.api_token);
    const rotated = await client.post(`${C}/rotate`);
    assert.equal(rotated.body.token_id, issued.body.token_id);
    assert.notEqual(rotated.body.api_token, issued.body.api_token);
    const revealed = await client.post(`${C}/reveal`);
    assert.deepEqual(
      [revealed.body.api_token, revealed.body.s3_secret_access_key],
      [rotated.body.api_token, rotated.body.s3_secret_access_key],
    );
    assert.equal(
      (await client.get(`/projects/${DEMO.projectId}/branches/${DEMO.branchId}/credentials`)).body.credentials
        .length,
      1,
      "a rotation issues no second credential",
    );
  });

  it("revokes softly and idempotently: listed with when, no longer revealed or rotated", async () => {
    emu = await start();
    const client = api(emu, DEMO.personalKey);
    const issued = await client.post(`${B}/credentials`, storage);
    const C = `${B}/credentials/${issued.body.token_id}`;
    assert.equal((await client.delete(C)).status, 204);
    assert.equal((await client.delete(C)).status, 204, "again: nothing changes");
    const [listed] = (await client.get(`${B}/credentials`)).body.credentials;
    assert.equal(typeof listed.revoked_at, "string");
    for (const verb of ["reveal", "rotate"]) {
      const refused = await client.post(`${C}/${verb}`);
      assert.equal(refused.status, 404, `${verb}: ${refused.text}`);
      assert.match(refused.body.message, /was never issued there or was revoked/);
    }
    assert.equal((await client.delete(`${B}/credentials/nak_live_${"0".repeat(32)}`)).status, 404);
  });

  it("a credential's token is no key to the control API, which only accepts API keys", async () => {
    emu = await start();
    const issued = await api(emu, DEMO.personalKey).post(`${B}/credentials`, storage);
    assert.equal((await api(emu, issued.body.api_token).get("/projects")).status, 401);
  });

  it("the data planes accept a live credential for its scopes only, and no longer once rotated or revoked", () => {
    const store = new Store();
    const ctx: CredentialContext = { store, clock: new ManualClock(), changed: () => {} };
    const branch = { id: "br-a", project_id: "p", roles: [], databases: [] } as unknown as BranchRecord;
    store.branches.set(branch.id, branch);
    const credential = issueCredential(ctx, branch, { scopes: ["storage:read"] });
    const first = credential.api_token;
    assert.equal(credentialFor(ctx, first, "storage:read")?.branch, branch);
    assert.ok(credential.last_used_at_ms !== undefined, "its use is recorded");
    assert.equal(credentialFor(ctx, first, "storage:write"), undefined, "a scope it lacks");
    rotateCredential(ctx, credential);
    assert.equal(credentialFor(ctx, first, "storage:read"), undefined, "the secret before the rotation");
    assert.ok(credentialFor(ctx, credential.api_token, "storage:read"));
    revokeCredential(ctx, branch, credential.token_id);
    assert.equal(credentialFor(ctx, credential.api_token, "storage:read"), undefined, "revoked");
  });

  it("a domain belongs to one entity: the same registration again is a no-op, another entity's a conflict", async () => {
    emu = await start();
    const client = api(emu, DEMO.personalKey);
    const domain = { domain: "api.example.com.", entity_type: "function", entity_id: "api" };
    const first = await client.post(`${B}/custom-domains`, domain);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(
      [first.body.domain, first.body.status, first.body.cname_target],
      ["api.example.com", "pending", `${DEMO.branchId}.domains.us-east-2.aws.clouddb.local`],
    );
    assert.equal((await client.post(`${B}/custom-domains`, domain)).status, 201);
    const other = `/projects/${DEMO.orgProjectId}/branches/${DEMO.orgBranchId}/custom-domains`;
    const taken = await client.post(other, domain);
    assert.equal(taken.status, 409, taken.text);
    assert.doesNotMatch(taken.body.message, new RegExp(DEMO.branchId), "no detail about the owner");
    const bad = await client.post(`${B}/custom-domains`, { ...domain, domain: "not a host" });
    assert.equal(bad.status, 400);
    assert.equal((await client.get(`${B}/custom-domains`)).body.custom_domains.length, 1);
  });
});
