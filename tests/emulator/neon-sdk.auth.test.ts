import assert from "node:assert/strict";
import { createNeonClient } from "@neon/sdk";
import {
  getAuthDetails,
  getNeonAuthPluginConfigs,
  sendNeonAuthEmailProviderTest,
  updateNeonAuthEmailProvider,
} from "@neon/sdk/raw";
import { DEMO, type RunningEmulator } from "../../emulator";
import { SMTP_SERVER, start } from "./helpers";

// @neon/sdk's own client on a branch's Auth (docs/api-rules.md §23): its `auth` resource (enable,
// get, config, OAuth providers, trusted domains, users, disable) and, through its raw functions,
// the routes the resource leaves out, `email_provider/test` (which only the SDK describes) among them.

const projectId = DEMO.projectId;
const branchId = DEMO.branchId;

describe("@neon/sdk: Auth on a branch", () => {
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  it("serves the auth resource: create, get, updateConfig, OAuth providers, trusted domains, users, disable", async () => {
    emu = await start();
    const neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
    const made = await neon.auth.create({ projectId, branchId, auth_provider: "better_auth" });
    assert.match(made.jwks_url, /\/\.well-known\/jwks\.json$/);
    assert.equal(
      (await neon.auth.get({ projectId, branchId })).auth_provider_project_id,
      made.auth_provider_project_id,
    );
    assert.equal((await neon.auth.updateConfig({ projectId, branchId, name: "Shop" })).name, "Shop");
    await neon.auth.oauthProviders.add({
      projectId,
      branchId,
      id: "vercel",
      client_id: "v",
      client_secret: "s",
    });
    const github = await neon.auth.oauthProviders.update({
      projectId,
      branchId,
      providerId: "github",
      client_id: "g",
    });
    assert.equal(github.id, "github");
    await neon.auth.oauthProviders.delete({ projectId, branchId, providerId: "vercel" });
    assert.deepEqual(
      (await neon.auth.oauthProviders.list({ projectId, branchId })).map((p) => p.id),
      ["google", "github"],
    );
    await neon.auth.trustedDomains.add({
      projectId,
      branchId,
      domain: "https://app.example.com",
      auth_provider: "better_auth",
    });
    assert.deepEqual(
      (await neon.auth.trustedDomains.list({ projectId, branchId })).map((d) => d.domain),
      ["https://app.example.com"],
    );
    await neon.auth.trustedDomains.delete({
      projectId,
      branchId,
      auth_provider: "better_auth",
      domains: [{ domain: "https://app.example.com" }],
    });
    const user = await neon.auth.users.create({ projectId, branchId, email: "ann@example.com" });
    assert.equal(
      (await neon.auth.users.updateRole({ projectId, branchId, authUserId: user.id, roles: ["admin"] })).id,
      user.id,
    );
    await neon.auth.users.delete({ projectId, branchId, authUserId: user.id });
    await neon.auth.disable({ projectId, branchId, deleteData: true });
    const gone = await createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url }).auth.get({
      projectId,
      branchId,
    });
    assert.equal(gone.error && "status" in gone.error ? gone.error.status : undefined, 404);
  });

  it("serves the raw routes: the email provider and its test, the plugins, and who the caller is", async () => {
    emu = await start();
    const neon = createNeonClient({ apiKey: DEMO.personalKey, baseUrl: emu.url, throwOnError: true });
    await neon.auth.create({ projectId, branchId, auth_provider: "better_auth" });
    const path = { project_id: projectId, branch_id: branchId };
    const { client } = neon;
    await updateNeonAuthEmailProvider({ client, path, body: SMTP_SERVER, throwOnError: true });
    const tested = await sendNeonAuthEmailProviderTest({
      client,
      path,
      body: { recipient_email: "t@example.com" },
      throwOnError: true,
    });
    assert.equal(tested.success, true);
    const plugins = await getNeonAuthPluginConfigs({ client, path, throwOnError: true });
    assert.equal(plugins.email_provider?.type, "standard");
    const me = await getAuthDetails({ client, throwOnError: true });
    assert.deepEqual(me, { account_id: DEMO.userId, auth_method: "api_key_user" });
  });
});
