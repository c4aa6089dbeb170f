import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { isResourceError } from "../../provider/resources/errors";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import {
  type BranchAuthInputs,
  type BranchAuthOutputs,
  branchAuthProvider,
} from "../../provider/resources/public/branchAuth";
import { PROVIDER_TEXT, useEmulator, useTestEnv } from "./support";

// Auth on a branch against the emulator (docs/api-rules.md §23): enabled with its settings and
// the keys an app needs, each setting changed in place through its own route, drift made outside
// read back, import, a child branch's inherited Auth taken over without a diff, and delete.

const P = DEMO.projectId;
const B = DEMO.branchId;

describe("BranchAuth against the emulator", () => {
  const harness = useEmulator({ clock: "manual" });
  useTestEnv();
  const control = () => harness.emulator.control;
  beforeEach(() => {
    forgetPreflight();
    control().clearRequests();
  });

  const inputs = (values: Partial<BranchAuthInputs> = {}): BranchAuthInputs =>
    ({ projectId: P, branchId: B, ...values, __provider: PROVIDER_TEXT }) as BranchAuthInputs;
  const authOf = (branchId: string = B) =>
    control()
      .dumpState()
      .branches.find((b) => b.id === branchId)?.auth;
  /** A change made with the demo key, as another tool would. */
  const outside = async (method: string, path: string, body: unknown) => {
    const reply = await fetch(`${harness.emulator.url}/projects/${P}/branches/${B}/auth${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.ok(reply.ok, await reply.text());
  };

  const declared = () =>
    inputs({
      trustedDomains: ["https://app.example.com"],
      allowLocalhost: false,
      oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: "gh-secret" }],
      emailAndPassword: { requireEmailVerification: true },
      plugins: { magicLinkEnabled: true },
      webhooks: { enabled: true, url: "https://hooks.example.com", events: ["user.created"] },
    });

  it("enables Auth with its settings and the keys an app needs; refresh shows no diff; delete disables it", async () => {
    const made = await branchAuthProvider.create(declared());
    const outs = made.outs as BranchAuthOutputs;
    assert.equal(made.id, `${P}/${B}`);
    const auth = authOf();
    assert.ok(auth);
    assert.deepEqual(
      [outs.pubClientKey, outs.secretServerKey, outs.authProviderProjectId, outs.schemaName, outs.tableName],
      [auth.pub_client_key, auth.secret_server_key, auth.auth_provider_project_id, "neon_auth", "users_sync"],
    );
    assert.match(outs.baseUrl, /\/neon-auth\//);
    assert.equal(outs.jwksUrl, `${outs.baseUrl}/.well-known/jwks.json`);
    assert.equal((await fetch(outs.jwksUrl)).status, 200, "the JWKS is served");
    assert.deepEqual(auth.domains, ["https://app.example.com"]);
    assert.deepEqual(
      auth.oauth_providers.map((p) => [p.id, p.client_id]),
      [["github", "gh-id"]],
      "the set declared: the shared google provider removed",
    );
    assert.deepEqual(
      [auth.allow_localhost, auth.email_and_password.require_email_verification, auth.magic_link.enabled],
      [false, true, true],
    );
    assert.equal(auth.webhooks.webhook_url, "https://hooks.example.com");
    assert.equal(outs.authProvider, "better_auth", "the default provider");

    const refreshed = await branchAuthProvider.read!(made.id, outs);
    const diff = await branchAuthProvider.diff!(made.id, refreshed.props as BranchAuthOutputs, declared());
    assert.equal(diff.changes, false, JSON.stringify(diff));
    assert.equal(
      (refreshed.props as BranchAuthOutputs).pubClientKey,
      outs.pubClientKey,
      "keys kept from the state",
    );

    await branchAuthProvider.delete!(made.id, outs);
    assert.equal(authOf(), undefined);
  });

  it("records Auth a create enabled when a later step fails, without its keys, and the next up receives keys and applies the settings", async () => {
    control().failNext("PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password", {
      status: 403,
    });
    const err = await branchAuthProvider.create(declared()).then(
      () => assert.fail("the create succeeded"),
      (e: unknown) => e as { id?: string; message: string; properties?: BranchAuthOutputs },
    );
    assert.equal(err.id, `${P}/${B}`, `a partial failure: ${err.message}`);
    assert.match(err.message, /Auth .* on branch .* did not finish: .*It is recorded in the state/);
    const auth = authOf();
    assert.ok(auth, "Auth stays enabled, and recorded");
    const recorded = err.properties as BranchAuthOutputs;
    for (const key of [auth.pub_client_key, auth.secret_server_key])
      assert.ok(
        !`${err.message} ${JSON.stringify(recorded)}`.includes(key),
        "no key in what is recorded before secrets apply",
      );
    const diff = await branchAuthProvider.diff!(err.id ?? "", recorded, declared());
    assert.equal(diff.changes, true, "the next up finishes it");
    const done = await branchAuthProvider.update!(err.id ?? "", recorded, declared());
    const outs = done.outs as BranchAuthOutputs;
    assert.equal(authOf()?.email_and_password.require_email_verification, true, "the settings applied");
    assert.notEqual(outs.jwksUrl, "");
    assert.deepEqual(
      [outs.pubClientKey, outs.secretServerKey],
      [authOf()?.pub_client_key, authOf()?.secret_server_key],
      "Auth enabled again to receive keys",
    );
    assert.notEqual(outs.secretServerKey, "");
    const after = await branchAuthProvider.diff!(err.id ?? "", outs, declared());
    assert.equal(after.changes, false, JSON.stringify(after));
    await branchAuthProvider.delete!(err.id ?? "", outs);
  });

  it("changes settings in place through their routes, and replaces for a new provider", async () => {
    const made = await branchAuthProvider.create(declared());
    const outs = made.outs as BranchAuthOutputs;
    const news = inputs({
      ...declared(),
      trustedDomains: ["https://shop.example.com"],
      oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: "gh-rotated" }, { id: "google" }],
      plugins: { magicLinkEnabled: true, organizationEnabled: true },
      appName: "Shop",
    });
    const diff = await branchAuthProvider.diff!(made.id, outs, news);
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    control().clearRequests();
    const updated = await branchAuthProvider.update!(made.id, outs, news);
    const R = `/projects/${P}/branches/${B}/auth`;
    assert.deepEqual(
      harness.writes().sort(),
      [
        `PATCH ${R}/config`,
        `PATCH ${R}/oauth_providers/github`,
        `PATCH ${R}/plugins/organization`,
        `POST ${R}/domains`,
        `POST ${R}/oauth_providers`,
        `DELETE ${R}/domains`,
      ].sort(),
    );
    const auth = authOf();
    assert.deepEqual(auth?.domains, ["https://shop.example.com"]);
    assert.equal(auth?.oauth_providers.find((p) => p.id === "github")?.client_secret, "gh-rotated");
    assert.equal(updated.outs?.appName, "Shop");
    const replace = await branchAuthProvider.diff!(
      made.id,
      updated.outs as BranchAuthOutputs,
      inputs({ ...news, authProvider: "stack" }),
    );
    assert.deepEqual(replace.replaces, ["authProvider"]);
    await branchAuthProvider.delete!(made.id, updated.outs as BranchAuthOutputs);
  });

  it("reads drift made outside Pulumi, which the next diff shows", async () => {
    const made = await branchAuthProvider.create(declared());
    await outside("PATCH", "/allow_localhost", { allow_localhost: true });
    await outside("POST", "/domains", { domain: "https://other.example.com", auth_provider: "better_auth" });
    const refreshed = await branchAuthProvider.read!(made.id, made.outs as BranchAuthOutputs);
    const props = refreshed.props as BranchAuthOutputs;
    assert.equal(props.allowLocalhost, true);
    const diff = await branchAuthProvider.diff!(made.id, props, declared());
    assert.equal(diff.changes, true, "the declared settings differ from what the branch has now");
    control().clearRequests();
    await branchAuthProvider.update!(made.id, props, declared());
    assert.equal(authOf()?.allow_localhost, false);
    assert.deepEqual(authOf()?.domains, ["https://app.example.com"]);
    await outside("DELETE", "", {});
    assert.equal((await branchAuthProvider.read!(made.id, props)).id, "", "disabled elsewhere: gone");
  });

  it("imports an enabled Auth with its settings (keys empty: the API shows them only when enabling)", async () => {
    const made = await branchAuthProvider.create(declared());
    const imported = await branchAuthProvider.read!(`${P}/${B}`, undefined as unknown as BranchAuthOutputs);
    const props = imported.props as BranchAuthOutputs;
    assert.equal(imported.id, made.id);
    assert.deepEqual(
      [props.trustedDomains, props.allowLocalhost, props.pubClientKey],
      [["https://app.example.com"], false, ""],
    );
    await branchAuthProvider.delete!(made.id, made.outs as BranchAuthOutputs);
    const none = await branchAuthProvider.read!(`${P}/${B}`, undefined as unknown as BranchAuthOutputs);
    assert.equal(none.id, "");
  });

  it("takes over a child branch's inherited Auth: its settings kept, keys of its own, no diff after", async () => {
    const parent = await branchAuthProvider.create(declared());
    const child = await fetch(`${harness.emulator.url}/projects/${P}/branches`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ branch: { parent_id: B } }),
    });
    const childId = ((await child.json()) as { branch: { id: string } }).branch.id;
    assert.ok(authOf(childId), "the child starts with Auth");
    const childInputs = inputs({ branchId: childId, trustedDomains: ["https://pr-1.example.com"] });
    const made = await branchAuthProvider.create(childInputs);
    const outs = made.outs as BranchAuthOutputs;
    const auth = authOf(childId);
    assert.equal(outs.pubClientKey, auth?.pub_client_key);
    assert.notEqual(outs.pubClientKey, (parent.outs as BranchAuthOutputs).pubClientKey, "keys of its own");
    assert.deepEqual(
      auth?.domains,
      ["https://pr-1.example.com"],
      "the declared setting over the inherited one",
    );
    assert.deepEqual(
      [auth?.allow_localhost, auth?.webhooks.webhook_url, auth?.oauth_providers.map((p) => p.client_id)],
      [false, "https://hooks.example.com", ["gh-id"]],
      "what it does not declare is inherited",
    );
    const refreshed = await branchAuthProvider.read!(made.id, outs);
    const diff = await branchAuthProvider.diff!(made.id, refreshed.props as BranchAuthOutputs, childInputs);
    assert.equal(diff.changes, false, JSON.stringify(diff));
    const wrong = await branchAuthProvider
      .create(inputs({ branchId: childId, authProvider: "stack" }))
      .catch((e) => e);
    assert.ok(isResourceError(wrong), String(wrong));
    assert.match(wrong.message, /Auth with provider better_auth already, not stack/);
  });

  it("refuses at check a half OAuth client, a standard email provider without its server, enabled webhooks without a URL", async () => {
    const result = await branchAuthProvider.check!(
      {} as BranchAuthInputs,
      inputs({
        oauthProviders: [{ id: "github", clientId: "only-id" }],
        emailProvider: { type: "standard", host: "smtp.example.com" },
        webhooks: { enabled: true },
      }),
    );
    const reasons = (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`).join("\n");
    assert.match(reasons, /both clientId and clientSecret/);
    assert.match(reasons, /emailProvider\.port is required for a standard email provider/);
    assert.match(reasons, /emailProvider\.senderName is required for a standard email provider/);
    assert.match(reasons, /enabled webhooks need a url/);
  });
});
