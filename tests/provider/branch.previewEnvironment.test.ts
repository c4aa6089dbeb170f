import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { branchSteps, PROVIDER_TEXT, useEmulator } from "./support";

// What a preview environment asks of a branch, against the emulator: schema-only from production,
// an expiry, connection strings, and changes that keep the branch (and its data) in place.

const PROJECT = DEMO.projectId;
const DAY_MS = 86_400_000;

function inputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return { projectId: PROJECT, ...values, __provider: PROVIDER_TEXT } as BranchInputs;
}

describe("Branch for preview environments, against the emulator", () => {
  const harness = useEmulator();
  afterEach(() => sinon.restore());

  const { create, update } = branchSteps(inputs);

  function branchState(id: string) {
    const branch = harness.emulator.control.dumpState().branches.find((b) => b.id === id);
    assert.ok(branch, `branch ${id} is in the emulator's state`);
    return branch;
  }

  function mutations(): string[] {
    return harness.log().filter((line) => !line.startsWith("GET"));
  }

  it("creates a schema-only child with the parent's roles and databases, and connection strings for them", async () => {
    const parent = branchState(DEMO.branchId);
    const { id, outs } = await create({
      name: "pr-1",
      parentId: DEMO.branchId,
      initSource: "schema-only",
      endpoints: [{ type: "read_write" }],
    });
    const child = branchState(id);
    assert.equal(child.init_source, "schema-only");
    assert.deepEqual(
      child.roles.map((r) => r.name),
      parent.roles.map((r) => r.name),
    );
    assert.deepEqual(
      child.databases.map((d) => [d.name, d.owner_name]),
      parent.databases.map((d) => [d.name, d.owner_name]),
    );
    assert.equal(outs.initSource, "schema-only");
    assert.equal(outs.roleName, parent.roles[0]?.name);
    assert.equal(outs.databaseName, parent.databases[0]?.name);
    const uri = new URL(outs.connectionUri);
    assert.equal(uri.protocol, "postgresql:");
    assert.equal(uri.hostname, outs.host);
    assert.equal(decodeURIComponent(uri.username), outs.roleName);
    assert.equal(uri.pathname, `/${outs.databaseName}`);
    assert.match(new URL(outs.pooledConnectionUri).hostname, /^ep-[^.]+-pooler\./);
    assert.equal(outs.endpointId, outs.endpoints[0]?.id);

    // The API reports no parent for a schema-only branch: the declared one stays, so nothing is replaced.
    assert.equal(outs.parentId, DEMO.branchId);
    const refreshed = await branchProvider.read!(id, outs);
    const props = refreshed.props as BranchOutputs;
    assert.equal(props.parentId, DEMO.branchId);
    const again = inputs({
      name: "pr-1",
      parentId: DEMO.branchId,
      initSource: "schema-only",
      endpoints: [{ type: "read_write" }],
    });
    assert.deepEqual(await branchProvider.diff!(id, props, again), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await branchProvider.delete!(id, props);
    assert.notEqual(branchState(id).deleted_at_ms, undefined, "a schema-only branch deletes like any other");
  });

  it("records the default branch as the parent of a schema-only branch made of it, from the listing its create took", async () => {
    harness.emulator.control.clearRequests();
    const { id, outs } = await create({ name: "pr-2", initSource: "schema-only" });
    assert.equal(branchState(id).parent_id, undefined, "the API reports no parent for a schema-only branch");
    assert.equal(outs.parentId, DEMO.branchId);
    const listings = harness.log().filter((line) => line === `GET /projects/${PROJECT}/branches`);
    assert.ok(
      listings.length <= 1,
      `the branches are listed at most once (the process's first listing), not ${listings.length} times`,
    );
    const props = (await branchProvider.read!(id, outs)).props as BranchOutputs;
    assert.equal(props.parentId, DEMO.branchId, "a refresh keeps the recorded parent");
    assert.deepEqual(
      await branchProvider.diff!(id, props, inputs({ name: "pr-2", initSource: "schema-only" })),
      {
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      },
    );
  });

  it("leaves the connection outputs empty, asking nothing, for a branch without an endpoint", async () => {
    harness.emulator.control.clearRequests();
    const { outs } = await create({ name: "no-compute" });
    assert.deepEqual(
      [outs.connectionUri, outs.pooledConnectionUri, outs.endpointId, outs.host, outs.roleName],
      ["", "", null, null, null],
    );
    assert.ok(!harness.log().some((l) => /connection_uri|\/roles|\/databases/.test(l)));
  });

  it("sets a ttl's expiry at create and keeps it on a later day's rename", async () => {
    const before = Date.now();
    const { id, outs } = await create({ name: "expiring", ttl: "3d" });
    const expires = Date.parse(outs.expiresAt ?? "");
    assert.ok(Math.abs(expires - (before + 3 * DAY_MS)) < 5000, outs.expiresAt ?? "none");
    assert.equal(branchState(id).expires_at_ms, expires);

    // A day later (for the provider and the emulator alike) the program renames the branch.
    sinon.useFakeTimers({ now: Date.now() + DAY_MS, toFake: ["Date"] });
    harness.emulator.control.clearRequests();
    const renamed = await update(id, outs, { name: "expiring-renamed", ttl: "72h" });
    assert.equal(renamed.branchId, id);
    assert.equal(renamed.name, "expiring-renamed");
    assert.equal(renamed.expiresAt, outs.expiresAt, "the ttl's expiry did not move");
    assert.equal(branchState(id).expires_at_ms, expires);
    assert.deepEqual(mutations(), [`PATCH /projects/${PROJECT}/branches/${id}`]);
  });

  it("updates an expiry in place: a new ttl counts from now, expiresAt sets it, and dropping both removes it", async () => {
    const { id, outs } = await create({ name: "expiry-moves", ttl: "1d" });
    const longer = await update(id, outs, { name: "expiry-moves", ttl: "2d" });
    assert.ok(Date.parse(longer.expiresAt ?? "") - Date.parse(outs.expiresAt ?? "") > DAY_MS - 5000);

    const at = new Date(Date.now() + 5 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
    const fixed = await update(id, longer, { name: "expiry-moves", expiresAt: at });
    assert.equal(fixed.expiresAt, at);
    assert.equal(branchState(id).expires_at_ms, Date.parse(at));

    harness.emulator.control.clearRequests();
    const none = await update(id, fixed, { name: "expiry-moves" });
    assert.equal(none.expiresAt, null);
    assert.equal(branchState(id).expires_at_ms, undefined);
    assert.deepEqual(mutations(), [`PATCH /projects/${PROJECT}/branches/${id}`]);
    assert.equal(none.branchId, id);
  });

  it("protects and unprotects in place; a protected branch's delete says how to let it go", async () => {
    const { id, outs } = await create({ name: "guarded-by-api" });
    const locked = await update(id, outs, { name: "guarded-by-api", protected: true });
    assert.equal(locked.protected, true);
    assert.equal(branchState(id).protected, true);
    const refused = await branchProvider.delete!(id, locked).then(
      () => assert.fail("expected a refusal"),
      (e: Error) => e,
    );
    assert.match(refused.message, /cannot be deleted: it is protected \(the Branch sets `protected: true`\)/);
    assert.match(
      refused.message,
      /set `protected: false` on the Branch and run `pulumi up`, then delete it \(request id [\w-]+\)\.$/,
    );
    const open = await update(id, locked, { name: "guarded-by-api" });
    assert.equal(open.protected, false);
    await branchProvider.delete!(id, open);
    assert.notEqual(branchState(id).deleted_at_ms, undefined);
  });

  it("creates computes with the declared settings and changes them in place, endpoint by endpoint", async () => {
    const { id, outs } = await create({
      name: "sized",
      endpoints: [{ type: "read_write" }],
      autoscalingLimitMinCu: 0.5,
      autoscalingLimitMaxCu: 2,
      suspendTimeoutSeconds: 600,
    });
    assert.deepEqual(
      [outs.autoscalingLimitMinCu, outs.autoscalingLimitMaxCu, outs.suspendTimeoutSeconds],
      [0.5, 2, 600],
    );
    harness.emulator.control.clearRequests();
    const bigger = await update(id, outs, {
      name: "sized",
      endpoints: [{ type: "read_write" }],
      autoscalingLimitMinCu: 0.5,
      autoscalingLimitMaxCu: 4,
    });
    assert.deepEqual(mutations(), [`PATCH /projects/${PROJECT}/endpoints/${outs.endpointId}`]);
    assert.equal(bigger.autoscalingLimitMaxCu, 4);
    assert.equal(bigger.suspendTimeoutSeconds, 600, "left out, a setting keeps what it has");
    assert.equal(bigger.endpointId, outs.endpointId);
    assert.equal(
      bigger.connectionUri,
      outs.connectionUri,
      "the same compute: the strings are not read again",
    );
  });

  it("resets the branch from its parent when resetTrigger changes, waiting for the restore's operations", async () => {
    const { id, outs } = await create({
      name: "resettable",
      endpoints: [{ type: "read_write" }],
      resetTrigger: "first",
    });
    assert.equal(branchState(id).last_reset_at_ms, undefined, "a trigger set at create resets nothing");
    harness.emulator.control.clearRequests();
    const same = await update(id, outs, {
      name: "resettable",
      resetTrigger: "first",
      deleteProtection: false,
    });
    assert.deepEqual(mutations(), [], "an unchanged trigger resets nothing");

    const reset = await update(id, same, { name: "resettable", resetTrigger: "second" });
    assert.deepEqual(mutations(), [`POST /projects/${PROJECT}/branches/${id}/restore`]);
    assert.notEqual(branchState(id).last_reset_at_ms, undefined);
    const restoreOps = harness.emulator.control
      .dumpState()
      .operations.filter((op) => op.branch_id === id && !outs.operationIds.includes(op.id));
    assert.deepEqual(restoreOps.map((op) => op.action).sort(), [
      "create_branch",
      "start_compute",
      "suspend_compute",
    ]);
    for (const op of restoreOps)
      assert.equal(op.status, "finished", `${op.action} finished before update resolved`);
    assert.equal(reset.resetTrigger, "second");
    assert.equal(reset.branchId, id);
    assert.match(reset.connectionUri, /^postgresql:\/\//, "read again after the reset");
  });

  it("refuses a reset of a root branch, saying there is no parent", async () => {
    const { id, outs } = await create({ adoptExisting: DEMO.branchId });
    harness.emulator.control.clearRequests();
    const err = await branchProvider.update!(
      id,
      outs,
      inputs({ adoptExisting: DEMO.branchId, resetTrigger: "x" }),
    ).then(
      () => assert.fail("expected a refusal"),
      (e: Error) => e,
    );
    assert.match(err.message, /has no parent to reset from .*remove resetTrigger/);
    assert.ok(!harness.log().some((l) => l.endsWith("/restore")));
  });

  it("refreshes an untouched branch into no change, whatever the API reports for inputs it never declared", async () => {
    const declared = { name: "untouched", endpoints: [{ type: "read_write" }] };
    const { id, outs } = await create(declared);
    const read = await branchProvider.read!(id, outs);
    const props = read.props as BranchOutputs;
    assert.deepEqual(
      [props.protected, props.expiresAt, props.initSource, props.autoscalingLimitMinCu],
      [false, null, "parent-data", 0.25],
    );
    assert.equal(props.connectionUri, outs.connectionUri, "refresh keeps the connection strings");
    assert.deepEqual(await branchProvider.diff!(id, props, inputs(declared)), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("reads back an expiry or protection changed outside Pulumi, so the next up puts them back", async () => {
    const declared = { name: "drifted", expiresAt: new Date(Date.now() + DAY_MS).toISOString() };
    const { id, outs } = await create(declared);
    const response = await fetch(`${harness.emulator.url}/projects/${PROJECT}/branches/${id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${DEMO.personalKey}`, "content-type": "application/json" },
      body: JSON.stringify({ branch: { protected: true, expires_at: null } }),
    });
    assert.equal(response.status, 200);
    const props = (await branchProvider.read!(id, outs)).props as BranchOutputs;
    assert.deepEqual([props.protected, props.expiresAt], [true, null]);
    const diff = await branchProvider.diff!(id, props, inputs(declared));
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const back = (await branchProvider.update!(id, props, inputs(declared))).outs as BranchOutputs;
    assert.deepEqual([back.protected, back.expiresAt], [false, outs.expiresAt]);
  });

  it("adopts a branch and gives it the declared ttl's expiry, counted from the adoption", async () => {
    const existing = await create({ name: "adopt-expiring" });
    const { outs } = await create({ adoptExisting: existing.id, ttl: "2d" });
    assert.ok(Math.abs(Date.parse(outs.expiresAt ?? "") - (Date.now() + 2 * DAY_MS)) < 5000);
    assert.equal(branchState(existing.id).expires_at_ms, Date.parse(outs.expiresAt ?? ""));
    assert.equal(outs.ttl, "2d");
  });
});
