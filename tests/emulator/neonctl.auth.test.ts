import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { call, type Json } from "./helpers";
import { useNeonctl } from "./neonctl-harness";

// The official CLI (neonctl, unchanged) managing Auth on a branch (docs/api-rules.md §23): every
// `neon-auth` command. `neonctl auth` is not here: it is the CLI's own sign-in, a browser's OAuth
// flow against the service's identity provider, which the emulator does not run (API keys stand in).

const P = DEMO.projectId;
const B = DEMO.branchId;
const at = ["--project-id", P, "--branch", B];

describe("the official CLI (neonctl): neon-auth on a branch", function () {
  this.timeout(240_000);
  const cli = useNeonctl({ seed: "demo" });
  const auth = async () =>
    (await call(cli.emu.url, "GET", `/projects/${P}/branches/${B}/auth/plugins`, { key: DEMO.personalKey }))
      .body as Json;

  it("enables Auth, shows its status, and says so when it is enabled already", async () => {
    const enabled = await cli.ok("neon-auth", "enable", ...at);
    assert.match(enabled.jwks_url, /\/neon-auth\/.+\/\.well-known\/jwks\.json$/);
    const status = await cli.ok("neon-auth", "status", ...at);
    assert.equal(status.branch_id, B);
    const again = await cli.neonctl("neon-auth", "enable", ...at);
    assert.equal(again.code, 0, again.stderr);
  });

  it("adds, updates, lists and deletes OAuth providers", async () => {
    await cli.ok("neon-auth", "oauth-provider", "add", ...at, "--provider-id", "vercel");
    await cli.ok(
      "neon-auth",
      "oauth-provider",
      "update",
      ...at,
      "--provider-id",
      "github",
      "--client-id",
      "gh-id",
      "--client-secret",
      "gh-secret",
    );
    const listed = JSON.stringify(await cli.ok("neon-auth", "oauth-provider", "list", ...at));
    assert.match(listed, /vercel/);
    await cli.ok("neon-auth", "oauth-provider", "delete", ...at, "--provider-id", "vercel");
    const ids = (await auth()).oauth_providers.map((p: Json) => p.id);
    assert.deepEqual(ids, ["google", "github"]);
  });

  it("trusts and untrusts domains, and allows and restricts localhost", async () => {
    await cli.ok("neon-auth", "domain", "add", "https://app.example.com", ...at);
    assert.match(JSON.stringify(await cli.ok("neon-auth", "domain", "list", ...at)), /app\.example\.com/);
    await cli.ok("neon-auth", "domain", "delete", "https://app.example.com", ...at);
    assert.doesNotMatch(
      JSON.stringify(await cli.ok("neon-auth", "domain", "list", ...at)),
      /app\.example\.com/,
    );
    await cli.ok("neon-auth", "domain", "allow-localhost", "disable", ...at);
    assert.equal((await auth()).allow_localhost, false);
    await cli.ok("neon-auth", "domain", "allow-localhost", "enable", ...at);
    await cli.ok("neon-auth", "domain", "allow-localhost", "get", ...at);
    assert.equal((await auth()).allow_localhost, true);
  });

  it("changes the email-and-password, email provider, organization and webhook settings", async () => {
    await cli.ok("neon-auth", "config", "email-password", "update", ...at, "--require-email-verification");
    await cli.ok("neon-auth", "config", "email-password", "get", ...at);
    await cli.ok(
      "neon-auth",
      "config",
      "email-provider",
      "update",
      ...at,
      "--type",
      "standard",
      "--host",
      "smtp.example.com",
      "--port",
      "587",
      "--username",
      "u",
      "--password",
      "p",
      "--sender-email",
      "a@example.com",
      "--sender-name",
      "A",
    );
    await cli.ok("neon-auth", "config", "email-provider", "get", ...at);
    await cli.ok(
      "neon-auth",
      "config",
      "email-provider",
      "test",
      ...at,
      "--recipient-email",
      "t@example.com",
    );
    await cli.ok("neon-auth", "config", "organization", "update", ...at, "--enabled", "--limit", "3");
    await cli.ok("neon-auth", "config", "organization", "get", ...at);
    await cli.ok(
      "neon-auth",
      "config",
      "webhook",
      "update",
      ...at,
      "--enabled",
      "--url",
      "https://hooks.example.com",
      "--events",
      "user.created",
    );
    await cli.ok("neon-auth", "config", "webhook", "get", ...at);
    const plugins = await auth();
    assert.deepEqual(
      [
        plugins.email_and_password.require_email_verification,
        plugins.email_provider.type,
        plugins.organization.enabled,
        plugins.organization.organization_limit,
      ],
      [true, "standard", true, 3],
    );
    await cli.ok("neon-auth", "plugins", "list", ...at);
    await cli.ok("neon-auth", "plugins", "get", "organization", ...at);
  });

  it("creates a user, sets its roles, deletes it; disables Auth", async () => {
    // The CLI prints the new user as lines of text whatever the output format.
    const created = String(await cli.ok("neon-auth", "user", "create", ...at, "--email", "ann@example.com"));
    const id = /ID:\s+(\S+)/.exec(created)?.[1];
    assert.ok(id, created);
    await cli.ok("neon-auth", "user", "set-role", id, ...at, "--roles", "admin");
    await cli.ok("neon-auth", "user", "delete", id, ...at);
    await cli.ok("neon-auth", "disable", ...at);
    const gone = await call(cli.emu.url, "GET", `/projects/${P}/branches/${B}/auth`, {
      key: DEMO.personalKey,
    });
    assert.equal(gone.status, 404);
  });
});
