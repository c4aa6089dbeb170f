import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import {
  type ApiKeyInputs,
  type ApiKeyOutputs,
  apiKeyProvider,
} from "../../provider/resources/public/apiKey";
import { PROVIDER_TEXT, useEmulator } from "./support";

const TOKEN = /^napi_[a-z0-9]{64}$/;

/** Inputs as the engine passes them: with the serialized provider alongside. */
function inputs(values: ApiKeyInputs): ApiKeyInputs {
  return { ...values, __provider: PROVIDER_TEXT } as ApiKeyInputs;
}

describe("ApiKey provider against the emulator", () => {
  const harness = useEmulator();
  afterEach(() => sinon.restore());

  function stateOf(keyId: number) {
    const key = harness.emulator.control.dumpState().apiKeys.find((k) => k.id === keyId);
    assert.ok(key, `key ${keyId} is in the emulator's state`);
    return key;
  }

  async function create(values: ApiKeyInputs) {
    const made = await apiKeyProvider.create(inputs(values));
    assert.ok(made.outs, "create returns outputs");
    return { id: made.id, outs: made.outs };
  }

  it("creates a personal key (POST /api_keys) and revokes it on delete", async () => {
    const { id, outs } = await create({ name: "ci-personal" });
    assert.equal(outs.kind, "personal");
    assert.equal(outs.keyId, Number(id));
    assert.match(outs.key, TOKEN);
    const stored = stateOf(outs.keyId);
    assert.deepEqual(
      [stored.kind, stored.name, stored.user_id, stored.revoked],
      ["personal", "ci-personal", DEMO.userId, false],
    );
    harness.emulator.control.clearRequests();
    await apiKeyProvider.delete!(id, outs);
    assert.equal(stateOf(outs.keyId).revoked, true);
    assert.deepEqual(harness.log(), [`DELETE /api_keys/${id}`]);
  });

  it("creates an organization key (orgId) and revokes it through the organization path", async () => {
    const { id, outs } = await create({ name: "ci-org", orgId: DEMO.orgId });
    assert.equal(outs.kind, "organization");
    assert.equal(outs.orgId, DEMO.orgId);
    assert.match(outs.key, TOKEN);
    const stored = stateOf(outs.keyId);
    assert.deepEqual([stored.kind, stored.org_id, stored.revoked], ["organization", DEMO.orgId, false]);
    harness.emulator.control.clearRequests();
    await apiKeyProvider.delete!(id, outs);
    assert.equal(stateOf(outs.keyId).revoked, true);
    assert.deepEqual(harness.log(), [`DELETE /organizations/${DEMO.orgId}/api_keys/${id}`]);
  });

  it("creates a project-scoped key (orgId + projectId) and revokes it through the organization path", async () => {
    const { id, outs } = await create({
      name: "ci-project",
      orgId: DEMO.orgId,
      projectId: DEMO.orgProjectId,
    });
    assert.equal(outs.kind, "project");
    assert.equal(outs.projectId, DEMO.orgProjectId);
    assert.match(outs.key, TOKEN);
    const stored = stateOf(outs.keyId);
    assert.deepEqual(
      [stored.kind, stored.org_id, stored.project_id, stored.revoked],
      ["project", DEMO.orgId, DEMO.orgProjectId, false],
    );
    await apiKeyProvider.delete!(id, outs);
    assert.equal(stateOf(outs.keyId).revoked, true);
  });

  it("returns the secret once, as plain JSON outputs with audit fields and no undefined values", async () => {
    const { outs } = await create({ name: "audit", rotationTrigger: "2025-q1" });
    assert.match(outs.key, TOKEN);
    assert.equal(outs.rotationTrigger, "2025-q1");
    assert.equal(outs.createdBy, DEMO.userId);
    assert.match(String(outs.createdAt), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(JSON.parse(JSON.stringify(outs)), outs, "outputs survive a JSON round trip unchanged");
    assert.ok(!Object.values(outs).includes(undefined));
    // The list never shows the token again: the state is the only copy.
    const listed = await fetch(`${harness.emulator.url}/api_keys`, {
      headers: { authorization: `Bearer ${DEMO.personalKey}` },
    }).then((r) => r.text());
    assert.ok(listed.includes(String(outs.keyId)));
    assert.ok(!listed.includes(outs.key));
  });

  it("treats deleting an already revoked key as done", async () => {
    const { id, outs } = await create({ name: "revoked-twice" });
    harness.emulator.control.revokeApiKey(outs.keyId);
    await apiKeyProvider.delete!(id, outs);
    const org = await create({ name: "org-revoked-twice", orgId: DEMO.orgId });
    harness.emulator.control.revokeApiKey(org.outs.keyId);
    await apiKeyProvider.delete!(org.id, org.outs);
  });

  it("drops the key on refresh after an out-of-band revoke (empty id)", async () => {
    for (const values of [
      { name: "oob-personal" },
      { name: "oob-org", orgId: DEMO.orgId },
      { name: "oob-project", orgId: DEMO.orgId, projectId: DEMO.orgProjectId },
    ]) {
      const { id, outs } = await create(values);
      harness.emulator.control.revokeApiKey(outs.keyId);
      const read = await apiKeyProvider.read!(id, outs);
      assert.equal(read.id, "", `${values.name} is dropped`);
    }
  });

  it("refreshes a live key's audit fields and carries the secret forward from state", async () => {
    const { id, outs } = await create({ name: "live" });
    // Use the new key once, so the API records a last use.
    const used = await fetch(`${harness.emulator.url}/projects`, {
      headers: { authorization: `Bearer ${outs.key}` },
    });
    assert.equal(used.status, 200);
    const read = await apiKeyProvider.read!(id, { ...outs, __provider: PROVIDER_TEXT } as ApiKeyOutputs);
    assert.equal(read.id, id);
    const props = read.props as ApiKeyOutputs;
    assert.equal(props.key, outs.key, "the token is carried forward (the list never returns it)");
    assert.match(String(props.lastUsedAt), /^\d{4}-\d\d-\d\dT/);
    assert.ok(props.lastUsedFromAddr, "the address of the last use is recorded");
    assert.equal(props.createdBy, DEMO.userId);
    assert.equal(props.revoked, false);
    assert.deepEqual(read.inputs, { name: "live" }, "refresh reports the inputs too");
  });

  it("refuses to read a key without state, saying that keys cannot be imported", async () => {
    await assert.rejects(
      apiKeyProvider.read!(String(DEMO.personalKeyId)),
      /cannot be imported.*Create a new ApiKey/,
    );
  });

  it("rotates on a rotationTrigger change: diff reports a create-before-delete replace without calling the API", async () => {
    const old = await create({ name: "rotating", rotationTrigger: "1" });
    harness.emulator.control.clearRequests();
    const news = inputs({ name: "rotating", rotationTrigger: "2" });
    const diff = await apiKeyProvider.diff!(old.id, old.outs, news);
    assert.deepEqual(diff, { changes: true, replaces: ["rotationTrigger"], deleteBeforeReplace: false });
    assert.deepEqual(harness.log(), [], "diff makes no API call");
    // What the engine then does: create the new key, then delete the old one.
    const fresh = await create(news);
    await apiKeyProvider.delete!(old.id, old.outs);
    assert.notEqual(fresh.outs.key, old.outs.key);
    assert.equal(fresh.outs.rotationTrigger, "2");
    assert.equal(stateOf(fresh.outs.keyId).revoked, false);
    assert.equal(stateOf(old.outs.keyId).revoked, true);
  });

  it("reports no change when inputs are the same, ignoring __provider", async () => {
    const olds = (await create({ name: "steady", orgId: DEMO.orgId })).outs;
    harness.emulator.control.clearRequests();
    const diff = await apiKeyProvider.diff!(String(olds.keyId), olds, {
      name: "steady",
      orgId: DEMO.orgId,
      __provider: "a different provider text",
    } as ApiKeyInputs);
    assert.deepEqual(diff, { changes: false, replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(harness.log(), []);
  });

  it("replaces on a change of name, orgId or projectId (keys cannot be edited)", async () => {
    const olds = (await create({ name: "kind", orgId: DEMO.orgId })).outs;
    const cases: Array<[ApiKeyInputs, string[]]> = [
      [{ name: "kind-2", orgId: DEMO.orgId }, ["name"]],
      [{ name: "kind" }, ["orgId"]],
      [{ name: "kind", orgId: DEMO.orgId, projectId: DEMO.orgProjectId }, ["projectId"]],
    ];
    for (const [news, replaces] of cases) {
      const diff = await apiKeyProvider.diff!(String(olds.keyId), olds, inputs(news));
      assert.deepEqual(diff, { changes: true, replaces, deleteBeforeReplace: false });
    }
  });

  it("revokes at once and fails when a project-scoped key comes back without its project", async () => {
    const stray = harness.emulator.control.createApiKey({
      userId: DEMO.userId,
      orgId: DEMO.orgId,
      name: "stray",
    });
    harness.emulator.control.failNext("POST /organizations/{org_id}/api_keys", {
      status: 200,
      body: { id: stray.id, key: stray.key, name: "scoped", created_at: "2025-11-20T10:00:00Z" },
    });
    const err = await apiKeyProvider
      .create(inputs({ name: "scoped", orgId: DEMO.orgId, projectId: DEMO.orgProjectId }))
      .then(
        () => assert.fail("create must fail"),
        (e: Error) => e,
      );
    assert.match(err.message, new RegExp(`key ${stray.id} for project null instead of ${DEMO.orgProjectId}`));
    assert.match(err.message, /revoked at once/);
    assert.ok(!err.message.includes(stray.key), "the message never contains the token");
    assert.equal(stateOf(stray.id).revoked, true);
  });

  it("update returns the full outputs, token included", async () => {
    const { id, outs } = await create({ name: "whole" });
    const updated = await apiKeyProvider.update!(id, outs, inputs({ name: "whole" }));
    assert.deepEqual(updated.outs, outs);
  });

  it("a refresh of ten keys of one owner lists that owner's keys once", async () => {
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await create({ name: `refresh-${i}`, orgId: DEMO.orgId }));
    harness.emulator.control.clearRequests();
    const read = await Promise.all(made.map(({ id, outs }) => apiKeyProvider.read!(id, outs)));
    assert.deepEqual(
      read.map((r) => r.id),
      made.map((m) => m.id),
    );
    assert.deepEqual(
      harness.emulator.control.requests().map((r) => r.route),
      ["GET /organizations/{org_id}/api_keys"],
    );
  });
});
