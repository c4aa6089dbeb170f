// A create whose answer is lost after the API made the object (a reset, a 502, an unreadable 2xx)
// is never re-sent. The provider then looks the object up: a named branch is found and recorded,
// a key whose token was lost is revoked; otherwise the error says the change may have been made.
import assert from "node:assert/strict";
import { DEMO } from "../../emulator";
import { type ApiKeyInputs, apiKeyProvider } from "../../provider/resources/public/apiKey";
import { type BranchInputs, branchProvider } from "../../provider/resources/public/branch";
import { PROVIDER_TEXT, useEmulator } from "./support";

const BRANCHES = "POST /projects/{project_id}/branches";

function branchInputs(values: Partial<BranchInputs>): BranchInputs {
  return { projectId: DEMO.projectId, ...values, __provider: PROVIDER_TEXT } as BranchInputs;
}
function keyInputs(values: ApiKeyInputs): ApiKeyInputs {
  return { ...values, __provider: PROVIDER_TEXT } as ApiKeyInputs;
}

describe("creates whose answer is lost after the change was made", () => {
  const harness = useEmulator();
  beforeEach(() => harness.emulator.control.clearRequests());
  const posts = (route: string) => harness.emulator.control.requests({ route }).length;
  const live = (name: string) =>
    harness.emulator.control
      .dumpState()
      .branches.filter((b) => b.name === name && b.deleted_at_ms === undefined);

  it("finds a named branch by its unique name, waits for its operations and records it", async () => {
    harness.emulator.control.failNext(BRANCHES, { afterHandler: true, reset: true });
    const made = await branchProvider.create(
      branchInputs({ name: "answer-lost", endpoints: [{ type: "read_write" }] }),
    );
    const [branch] = live("answer-lost");
    assert.equal(made.id, branch?.id, "the branch the API made is the one recorded");
    assert.equal(posts(BRANCHES), 1, "the POST was not re-sent");
    const ops = harness.emulator.control.dumpState().operations.filter((op) => op.branch_id === made.id);
    assert.deepEqual(ops.map((op) => [op.action, op.status]).sort(), [
      ["create_branch", "finished"],
      ["start_compute", "finished"],
    ]);
    assert.deepEqual([...made.outs!.operationIds].sort(), ops.map((op) => op.id).sort());
    assert.deepEqual(
      made.outs!.endpoints.map((ep) => [ep.type, ep.currentState]),
      [["read_write", "active"]],
    );
  });

  it("finds a branch whose 201 body was unreadable", async () => {
    harness.emulator.control.failNext(BRANCHES, { afterHandler: true, status: 201, body: '{"branch": {"na' });
    const made = await branchProvider.create(branchInputs({ name: "body-lost" }));
    assert.equal(made.id, live("body-lost")[0]?.id);
    assert.equal(posts(BRANCHES), 1);
  });

  it("reports an unnamed branch whose answer was lost, without re-sending", async () => {
    harness.emulator.control.failNext(BRANCHES, { afterHandler: true, status: 502 });
    const err = await branchProvider.create(branchInputs({})).then(
      () => assert.fail("expected a rejection"),
      (e: Error) => e,
    );
    assert.match(err.message, /POST \/projects\/[^ ]+\/branches/);
    assert.match(err.message, /not re-sent because the change may have been applied/);
    assert.equal(posts(BRANCHES), 1);
  });

  it("never takes over a same-named branch that existed before the request", async () => {
    // The POST never reaches the handler; the only branch called "main" is years old.
    harness.emulator.control.failNext(BRANCHES, { reset: true });
    const err = await branchProvider.create(branchInputs({ name: "main" })).then(
      () => assert.fail("expected a rejection"),
      (e: Error) => e,
    );
    assert.match(err.message, /not re-sent because it may have reached the service/);
  });

  it("revokes a key whose token was lost with its answer, and says so", async () => {
    harness.emulator.control.failNext("POST /api_keys", {
      afterHandler: true,
      status: 200,
      body: '{"id": 1, "ke',
    });
    const err = await apiKeyProvider.create(keyInputs({ name: "token-lost" })).then(
      () => assert.fail("expected a rejection"),
      (e: Error) => e,
    );
    const keys = harness.emulator.control.dumpState().apiKeys.filter((k) => k.name === "token-lost");
    assert.equal(keys.length, 1, "the POST was not re-sent");
    assert.equal(keys[0]?.revoked, true, "the key nobody can use is not left active");
    assert.match(
      err.message,
      new RegExp(`The key it made \\(id ${keys[0]?.id}, "token-lost"\\) was found and revoked`),
    );
    assert.match(err.message, /Run `pulumi up` again/);
  });

  it("revokes a project-scoped key whose answer was reset", async () => {
    harness.emulator.control.failNext("POST /organizations/{org_id}/api_keys", {
      afterHandler: true,
      reset: true,
    });
    const inputs = keyInputs({ name: "scoped-lost", orgId: DEMO.orgId, projectId: DEMO.orgProjectId });
    await assert.rejects(apiKeyProvider.create(inputs), /was found and revoked/);
    const keys = harness.emulator.control.dumpState().apiKeys.filter((k) => k.name === "scoped-lost");
    assert.deepEqual(
      keys.map((k) => [k.project_id, k.revoked]),
      [[DEMO.orgProjectId, true]],
    );
  });

  it("leaves two same-named candidates alone and reports, since it cannot tell which is its own", async () => {
    const other = harness.emulator.control.createApiKey({ userId: DEMO.userId, name: "twin" });
    harness.emulator.control.failNext("POST /api_keys", { afterHandler: true, status: 502 });
    const err = await apiKeyProvider.create(keyInputs({ name: "twin" })).then(
      () => assert.fail("expected a rejection"),
      (e: Error) => e,
    );
    assert.match(err.message, /not re-sent because the change may have been applied/);
    assert.doesNotMatch(err.message, /revoked/);
    const twins = harness.emulator.control.dumpState().apiKeys.filter((k) => k.name === "twin");
    assert.equal(twins.length, 2);
    assert.ok(
      twins.every((k) => !k.revoked),
      "neither key was revoked",
    );
    assert.ok(twins.some((k) => k.id === other.id));
  });
});
