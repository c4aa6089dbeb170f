import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import { type ApiKeyInputs, apiKeyProvider } from "../../provider/resources/public/apiKey";
import { useEmulator, useTestEnv } from "./support";

// Any member of an organization may create a project-scoped key, but only its admins may revoke one
// (docs/api-rules.md §6). A stack whose key could create such a key but never revoke it would pass
// preview and `up`, then fail every `destroy` and rotation with 403, the old key left live. `check`
// refuses that plan at preview.

describe("ApiKey check: a key the configured credential could never revoke", () => {
  const harness = useEmulator();
  const env = useTestEnv();
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });

  const plan = (news: Partial<ApiKeyInputs>) =>
    apiKeyProvider.check!({} as ApiKeyInputs, { name: "ci", ...news } as ApiKeyInputs);
  const only = (result: pulumi.dynamic.CheckResult<unknown>) => {
    assert.equal(result.failures?.length, 1, JSON.stringify(result.failures));
    return result.failures?.[0] as pulumi.dynamic.CheckFailure;
  };
  const projectScoped = { orgId: DEMO.orgId, projectId: DEMO.orgProjectId };

  it("refuses a project-scoped key planned with a plain member's key, saying why and to use an admin's key", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const failure = only(await plan(projectScoped));
    assert.equal(failure.property, "orgId");
    assert.match(failure.reason, new RegExp(`role is "member" of organization ${DEMO.orgId}`));
    assert.match(failure.reason, /only the organization's admins can revoke/);
    assert.match(failure.reason, /`pulumi destroy` and every replacement of the key would fail with 403/);
    assert.match(failure.reason, /personal API key of an admin/);
    assert.match(failure.reason, /pulumi config set --secret clouddb:apiKey/);
    assert.ok(!failure.reason.includes(DEMO.memberPersonalKey), "no key in the message");
  });

  it("without that check, a member's key creates a project-scoped key it cannot revoke (403)", async () => {
    // What the check prevents, shown on the emulator: create works, revoke is refused.
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const made = await apiKeyProvider.create({ name: "stuck", ...projectScoped } as ApiKeyInputs);
    const outs = made.outs;
    assert.ok(outs);
    const refused = await apiKeyProvider.delete!(made.id, outs).then(
      () => assert.fail("the member revoked the key"),
      (err: { status?: number }) => err,
    );
    assert.equal(refused.status, 403);
    env.restore();
    await apiKeyProvider.delete!(made.id, outs); // the admin cleans up
  });

  it("refuses an organization key planned with a plain member's key", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const failure = only(await plan({ orgId: DEMO.orgId }));
    assert.match(failure.reason, /only the organization's admins can revoke/);
  });

  it("refuses an organization's own key, which can create no keys", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
    const failure = only(await plan(projectScoped));
    assert.equal(failure.property, "orgId");
    assert.match(failure.reason, /created with a user's personal API key, and this is not one/);
  });

  it("passes an admin's key, reading the user and the members once for any number of keys", async () => {
    const results = await Promise.all([
      plan(projectScoped),
      plan({ ...projectScoped, name: "ci-2" }),
      plan({ orgId: DEMO.orgId, name: "org" }),
    ]);
    assert.deepEqual(
      results.map((r) => r.failures),
      [undefined, undefined, undefined],
    );
    assert.deepEqual(harness.log().sort(), [
      `GET /organizations/${DEMO.orgId}`,
      `GET /organizations/${DEMO.orgId}/members`,
      `GET /projects/${DEMO.orgProjectId}`,
      "GET /users/me",
    ]);
  });

  it("does not read the members for a personal key naming no organization", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    assert.equal((await plan({})).failures, undefined);
    assert.ok(!harness.log().some((line) => line.includes("/members")));
  });
});
