import assert from "node:assert/strict";
import { createPublicKey, createSign, createVerify, type JsonWebKey } from "node:crypto";
import { DEMO, type RunningEmulator } from "../../emulator";
import { api, call, type Json, SMTP_SERVER, start } from "./helpers";

// Auth on a branch (docs/api-rules.md §23): enabling it and what an app needs, its settings, its
// users, a JWKS an app verifies tokens against, a child branch starting with its parent's settings,
// and the project-level routes acting on the default branch.

const B = `/projects/${DEMO.projectId}/branches/${DEMO.branchId}`;

describe("emulator: Auth on a branch", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("enables Auth with keys, a base URL and a JWKS URL on the emulator's own server, once", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    assert.equal((await http.get(`${B}/auth`)).status, 404, "off until enabled");
    const enabled = await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    assert.equal(enabled.status, 201, enabled.text);
    const origin = new URL(emu.url).origin;
    assert.equal(enabled.body.auth_provider, "better_auth");
    assert.match(enabled.body.pub_client_key, /^pck_/);
    assert.match(enabled.body.secret_server_key, /^ssk_/);
    assert.equal(enabled.body.base_url, `${origin}/neon-auth/${enabled.body.auth_provider_project_id}`);
    assert.equal(enabled.body.jwks_url, `${enabled.body.base_url}/.well-known/jwks.json`);
    assert.deepEqual([enabled.body.schema_name, enabled.body.table_name], ["neon_auth", "users_sync"]);
    const got = await http.get(`${B}/auth`);
    assert.deepEqual(
      [got.body.branch_id, got.body.db_name, got.body.owned_by, got.body.jwks_url],
      [DEMO.branchId, "neondb", "neon", enabled.body.jwks_url],
    );
    const again = await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    assert.equal(again.status, 409);
    assert.match(again.body.message, /already enabled.*disable it first/);
    const noDb = await http.post(`/projects/${DEMO.projectId}/branches/${DEMO.branchId}/auth`, {
      auth_provider: "better_auth",
      database_name: "missing",
    });
    assert.equal(
      noDb.status,
      409,
      "the branch's Auth is on: the second enable is refused before the database",
    );
  });

  it("serves a JWKS whose key verifies a token signed by the branch's key pair, without an API key", async () => {
    emu = await start();
    const enabled = (await api(emu, DEMO.personalKey).post(`${B}/auth`, { auth_provider: "better_auth" }))
      .body;
    const jwks = await call(enabled.jwks_url, "GET", "");
    assert.equal(jwks.status, 200, jwks.text);
    const [jwk] = jwks.body.keys as Json[];
    assert.deepEqual(
      [jwk.kty, jwk.crv, jwk.alg, jwk.use, typeof jwk.kid],
      ["EC", "P-256", "ES256", "sig", "string"],
    );
    assert.equal(jwk.d, undefined, "no private part");
    // The key is a real public key: a signature it did not make does not verify.
    const publicKey = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" });
    const { generateKeyPairSync } = await import("node:crypto");
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const signature = createSign("SHA256").update("payload").sign(other);
    assert.equal(createVerify("SHA256").update("payload").verify(publicKey, signature), false);
    assert.equal(
      (await call(`${new URL(emu.url).origin}/neon-auth/nope/.well-known/jwks.json`, "GET", "")).status,
      404,
    );
  });

  it("changes each setting through its route and answers it back", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    assert.equal(
      (
        await http.post(`${B}/auth/domains`, {
          domain: "https://app.example.com/x",
          auth_provider: "better_auth",
        })
      ).status,
      201,
    );
    assert.deepEqual((await http.get(`${B}/auth/domains`)).body.domains, [
      { domain: "https://app.example.com", auth_provider: "better_auth" },
    ]);
    const removed = await call(emu.url, "DELETE", `${B}/auth/domains`, {
      key: DEMO.personalKey,
      body: { auth_provider: "better_auth", domains: [{ domain: "https://app.example.com" }] },
    });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual((await http.get(`${B}/auth/domains`)).body.domains, []);

    assert.deepEqual((await http.patch(`${B}/auth/allow_localhost`, { allow_localhost: false })).body, {
      allow_localhost: false,
    });
    assert.equal((await http.patch(`${B}/auth/config`, { name: "Shop" })).body.name, "Shop");
    assert.equal((await http.get(`${B}/auth`)).body.name, "Shop");

    const github = await http.patch(`${B}/auth/oauth_providers/github`, {
      client_id: "gh-id",
      client_secret: "gh-secret",
    });
    assert.deepEqual(github.body, {
      id: "github",
      type: "standard",
      client_id: "gh-id",
      client_secret: "gh-secret",
    });
    assert.equal((await http.post(`${B}/auth/oauth_providers`, { id: "github" })).status, 409);
    const half = await http.post(`${B}/auth/oauth_providers`, { id: "vercel", client_id: "only-id" });
    assert.equal(half.status, 400);
    assert.match(half.body.message, /both client_id and client_secret/);
    assert.equal((await http.delete(`${B}/auth/oauth_providers/google`)).status, 200);
    assert.deepEqual(
      (await http.get(`${B}/auth/oauth_providers`)).body.providers.map((p: Json) => p.id),
      ["github"],
    );

    const smtp = SMTP_SERVER;
    assert.deepEqual((await http.patch(`${B}/auth/email_provider`, smtp)).body, smtp);
    assert.deepEqual(
      (await http.post(`${B}/auth/email_provider/test`, { recipient_email: "t@example.com" })).body,
      { success: true },
    );
    const sent = await http.post(`${B}/auth/send_test_email`, {
      ...smtp,
      type: undefined,
      recipient_email: "t@example.com",
    });
    assert.equal(sent.status, 200, sent.text);

    const ep = await http.patch(`${B}/auth/email_and_password`, { require_email_verification: true });
    assert.deepEqual([ep.body.enabled, ep.body.require_email_verification], [true, true]);
    assert.equal(
      (await http.patch(`${B}/auth/plugins/magic-link`, { enabled: true, expires_in: 30 })).body.expires_in,
      30,
    );
    assert.equal((await http.patch(`${B}/auth/plugins/organization`, { enabled: true })).body.enabled, true);
    assert.equal(
      (await http.patch(`${B}/auth/plugins/phone-number`, { otp_expires_in: 120 })).body.otp_expires_in,
      120,
    );
    assert.equal(
      (await http.patch(`${B}/auth/plugins/magic-link`, { expires_in: 2 })).status,
      400,
      "below the document's minimum",
    );
    const hooks = await http.put(`${B}/auth/webhooks`, {
      enabled: true,
      webhook_url: "https://hooks.example.com",
      enabled_events: ["user.created"],
    });
    assert.deepEqual(hooks.body, {
      enabled: true,
      webhook_url: "https://hooks.example.com",
      enabled_events: ["user.created"],
      timeout_seconds: 5,
    });
    assert.equal(
      (await http.put(`${B}/auth/webhooks`, { enabled: true })).status,
      400,
      "an enabled webhook needs a URL",
    );

    const plugins = (await http.get(`${B}/auth/plugins`)).body;
    assert.deepEqual(
      [
        plugins.magic_link.enabled,
        plugins.organization.enabled,
        plugins.phone_number.otp_expires_in,
        plugins.allow_localhost,
        plugins.email_provider.type,
      ],
      [true, true, 120, false, "standard"],
    );
  });

  it("adds users, sets a role, deletes them", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    const user = await http.post(`${B}/auth/users`, { email: "ann@example.com", name: "Ann" });
    assert.equal(user.status, 201, user.text);
    assert.equal((await http.post(`${B}/auth/users`, { email: "ANN@example.com" })).status, 409);
    assert.deepEqual((await http.put(`${B}/auth/users/${user.body.id}/role`, { roles: ["admin"] })).body, {
      id: user.body.id,
    });
    // Disabled without delete_data, the users stay in the schema and come back with Auth.
    await call(emu.url, "DELETE", `${B}/auth`, { key: DEMO.personalKey, body: { delete_data: false } });
    await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    assert.equal(
      (await http.post(`${B}/auth/users`, { email: "ann@example.com" })).status,
      409,
      "Ann is still there",
    );
    assert.equal((await http.delete(`${B}/auth/users/${user.body.id}`)).status, 204);
    assert.equal((await http.delete(`${B}/auth/users/${user.body.id}`)).status, 404);
  });

  it("a child branch starts with its parent's settings and a provider project and keys of its own", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    const parent = (await http.post(`${B}/auth`, { auth_provider: "better_auth" })).body;
    await http.post(`${B}/auth/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" });
    await http.patch(`${B}/auth/oauth_providers/github`, { client_id: "gh-id", client_secret: "gh-secret" });
    await http.put(`${B}/auth/webhooks`, { enabled: true, webhook_url: "https://hooks.example.com" });
    await http.patch(`${B}/auth/allow_localhost`, { allow_localhost: false });
    const child = await http.post(`/projects/${DEMO.projectId}/branches`, {
      branch: { parent_id: DEMO.branchId },
    });
    assert.equal(child.status, 201, child.text);
    const C = `/projects/${DEMO.projectId}/branches/${child.body.branch.id}`;
    const auth = (await http.get(`${C}/auth`)).body;
    assert.notEqual(auth.auth_provider_project_id, parent.auth_provider_project_id);
    assert.notEqual(auth.jwks_url, parent.jwks_url);
    assert.deepEqual(
      (await http.get(`${C}/auth/domains`)).body.domains.map((d: Json) => d.domain),
      ["https://app.example.com"],
    );
    assert.equal((await http.get(`${C}/auth/allow_localhost`)).body.allow_localhost, false);
    assert.equal((await http.get(`${C}/auth/webhooks`)).body.webhook_url, "https://hooks.example.com");
    const gh = (await http.get(`${C}/auth/oauth_providers`)).body.providers.find(
      (p: Json) => p.id === "github",
    );
    assert.equal(gh.client_id, "gh-id");
    // The child's settings are its own from then on.
    await http.patch(`${C}/auth/allow_localhost`, { allow_localhost: true });
    assert.equal((await http.get(`${B}/auth/allow_localhost`)).body.allow_localhost, false);
    const childKeys = await http.get(`${C}/auth`);
    assert.equal((await call(childKeys.body.jwks_url, "GET", "")).status, 200);
  });

  it("disables Auth; the project-level routes act on the default branch; GET /auth names the caller", async () => {
    emu = await start();
    const http = api(emu, DEMO.personalKey);
    const P = `/projects/${DEMO.projectId}`;
    const created = await http.post("/projects/auth/create", {
      auth_provider: "stack",
      project_id: DEMO.projectId,
      branch_id: DEMO.branchId,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await http.get(`${P}/auth/integrations`)).body.data[0].auth_provider, "stack");
    assert.equal(
      (await http.post(`${P}/auth/domains`, { domain: "https://a.example.com", auth_provider: "stack" }))
        .status,
      201,
    );
    assert.deepEqual(
      (await http.get(`${B}/auth/domains`)).body.domains.map((d: Json) => d.domain),
      ["https://a.example.com"],
    );
    const keys = await http.post("/projects/auth/keys", {
      project_id: DEMO.projectId,
      auth_provider: "stack",
    });
    assert.equal(keys.body.pub_client_key, created.body.pub_client_key);
    const user = await http.post("/projects/auth/user", {
      project_id: DEMO.projectId,
      auth_provider: "stack",
      email: "b@example.com",
    });
    assert.equal(user.status, 201);
    assert.equal((await http.delete(`${P}/auth/users/${user.body.id}`)).status, 204);
    assert.equal(
      (await http.patch(`${P}/auth/oauth_providers/google`, { client_id: "g", client_secret: "s" })).body
        .type,
      "standard",
    );
    assert.equal((await http.get(`${P}/auth/email_server`)).body.type, "shared");
    assert.equal(
      (await http.delete(`${P}/auth/integration/better_auth`)).status,
      404,
      "not the provider in use",
    );
    assert.equal((await http.delete(`${P}/auth/integration/stack`)).status, 200);
    assert.equal((await http.get(`${B}/auth`)).status, 404);

    assert.deepEqual((await http.get("/auth")).body, {
      account_id: DEMO.userId,
      auth_method: "api_key_user",
    });
    assert.equal((await api(emu, DEMO.orgKey).get("/auth")).body.auth_method, "api_key_org");
    await http.post(`${B}/auth`, { auth_provider: "better_auth" });
    assert.equal(
      (await call(emu.url, "DELETE", `${B}/auth`, { key: DEMO.personalKey, body: { delete_data: true } }))
        .status,
      200,
    );
    assert.equal((await http.get(`${B}/auth`)).status, 404);
  });

  it("keeps a branch's Auth across a restart of the emulator with a state file", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "auth-"));
    try {
      const stateFile = join(dir, "state.json");
      emu = await start({ stateFile });
      const enabled = (await api(emu, DEMO.personalKey).post(`${B}/auth`, { auth_provider: "better_auth" }))
        .body;
      const jwk = (await call(enabled.jwks_url, "GET", "")).body.keys[0];
      await emu.stop();
      emu = await start({ stateFile });
      const again = (await api(emu, DEMO.personalKey).get(`${B}/auth`)).body;
      assert.equal(again.auth_provider_project_id, enabled.auth_provider_project_id);
      assert.deepEqual((await call(again.jwks_url, "GET", "")).body.keys[0], jwk, "the same key pair");
    } finally {
      // Stopped first: a stop writes the state file, which would make the folder again.
      await emu.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
