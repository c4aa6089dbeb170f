import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import { apiRules } from "../../provider/resources/branchAnonymize";
import { UNKNOWN } from "../../provider/resources/lifecycle/check";
import { forgetPreflight } from "../../provider/resources/lifecycle/preflight";
import type { BranchInputs, BranchOutputs, MaskingRule } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { type SnapshotInputs, snapshotProvider } from "../../provider/resources/public/snapshot";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { anonymizedInputs, EMAIL_RULE, OP_MS, PROVIDER_TEXT, useEmulator } from "./support";

// An anonymized branch's history, against the emulator: points before its data was masked are
// refused at preview, and a child at the first safe point reads no unmasked row.

const PROJECT = DEMO.projectId;

describe("an anonymized branch's history: points before its data was masked are refused at preview", () => {
  // The run takes long enough that a point just after the branch was made is before its completion.
  const harness = useEmulator({ opDurationMs: { default: OP_MS, anonymize: 300 } });
  beforeEach(() => {
    forgetPreflight();
    harness.emulator.control.clearRequests();
  });
  afterEach(() => sinon.restore());

  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const urn = (name: string) => `urn:pulumi:dev::app::clouddb:index:Branch::${name}`;
  const iso = (ms: number) => new Date(ms).toISOString();
  const stored = (id: string) => harness.emulator.control.dumpState().branches.find((b) => b.id === id);

  /** An anonymized branch made as the engine makes it (checked, then created): its id, stored inputs and first safe point. */
  async function masked(name: string, rules: MaskingRule[] = [EMAIL_RULE]) {
    const checked = await branchProvider.check!(
      {} as BranchInputs,
      { ...anonymizedInputs({ name, maskingRules: rules }), __owner: urn(name) } as BranchInputs,
    );
    assert.equal(checked.failures, undefined, JSON.stringify(checked.failures));
    const made = await branchProvider.create(checked.inputs as BranchInputs);
    const status = await client().getAnonymizedStatus(PROJECT, made.id);
    const completed = Date.parse(status.last_run?.completed_at ?? "");
    harness.emulator.control.clearRequests();
    return {
      id: made.id,
      olds: checked.inputs as BranchInputs,
      outs: made.outs as BranchOutputs,
      // Just after the branch was made: before its masking run completed.
      early: iso((stored(made.id)?.created_at_ms ?? 0) + 50),
      safe: iso(Math.floor(completed / 1000) * 1000 + 1000).replace(/\.000Z$/, "Z"),
    };
  }
  const planChild = (values: Partial<BranchInputs>) =>
    branchProvider.check!(
      {} as BranchInputs,
      {
        projectId: PROJECT,
        name: `child-${Math.random().toString(36).slice(2, 8)}`,
        ...values,
        __provider: PROVIDER_TEXT,
      } as BranchInputs,
    );
  const only = (result: pulumi.dynamic.CheckResult<unknown>) => {
    assert.equal(result.failures?.length, 1, JSON.stringify(result.failures));
    assert.deepEqual(harness.writes(), [], "the preview only reads");
    return result.failures?.[0] as pulumi.dynamic.CheckFailure;
  };

  it("refuses a child at a parentTimestamp before the masking run completed, naming the branch and the first safe point", async () => {
    const parent = await masked("hist-early");
    assert.ok(Date.parse(parent.early) < Date.parse(parent.safe));
    const failure = only(await planChild({ parentId: parent.id, parentTimestamp: parent.early }));
    assert.equal(failure.property, "parentTimestamp");
    assert.match(failure.reason, new RegExp(`anonymized branch ${parent.id}`));
    assert.match(
      failure.reason,
      new RegExp(`before ${parent.safe}, the first point of .* known to be masked`),
    );
    assert.match(failure.reason, new RegExp(`Give a parentTimestamp at or after ${parent.safe}`));
  });

  it("refuses a child by parentLsn of an anonymized parent, saying to use parentTimestamp at or after the first safe point", async () => {
    const parent = await masked("hist-lsn");
    const failure = only(await planChild({ parentId: parent.id, parentLsn: "0/1" }));
    assert.equal(failure.property, "parentLsn");
    assert.match(failure.reason, /an LSN cannot be placed in time from the API/);
    assert.match(failure.reason, new RegExp(`Use parentTimestamp at or after ${parent.safe}`));
  });

  it("refuses a child, a snapshot and a reset at the head of an anonymized branch whose masking failed, saying why", async () => {
    // Made outside the stack (as the console would): its masking ends in error and the branch stays.
    const made = await client().createAnonymizedBranch(PROJECT, {
      branch_create: { branch: { name: "hist-failed" } },
      masking_rules: apiRules([{ ...EMAIL_RULE, maskingFunction: "anon.fake_emial()" }]),
      start_anonymization: true,
    });
    const failed = await client().waitForAnonymization(PROJECT, made.branch.id, {
      deadline: Date.now() + 10_000,
    });
    assert.equal(failed.state, "error");
    const err = { id: made.branch.id };
    harness.emulator.control.clearRequests();
    const failure = only(await planChild({ parentId: err.id }));
    assert.equal(failure.property, "parentId");
    assert.match(failure.reason, new RegExp(`anonymized branch ${err.id}'s data is not masked now`));
    assert.match(failure.reason, /its last masking run failed \(error: .*anon\.fake_emial\(\)/);
    // A snapshot of its head is the same path.
    const snapshot = only(
      await snapshotProvider.check!(
        {} as SnapshotInputs,
        { projectId: PROJECT, branchId: err.id, name: "head" } as SnapshotInputs,
      ),
    );
    assert.equal(snapshot.property, "branchId");
    assert.match(snapshot.reason, /a snapshot of it would get its parent's data unmasked/);
    // And a reset of an existing child from it.
    const child = { projectId: PROJECT, name: "hist-child", parentId: err.id, __provider: PROVIDER_TEXT };
    const reset = only(
      await branchProvider.check!(
        { ...child, resetTrigger: "1" } as BranchInputs,
        { ...child, resetTrigger: "2" } as BranchInputs,
      ),
    );
    assert.equal(reset.property, "resetTrigger");
    assert.match(reset.reason, /a reset from it would get its parent's data unmasked/);
  });

  it("refuses a snapshot at a timestamp or LSN before the masking run completed", async () => {
    const branch = await masked("hist-snapshot");
    const at = (point: Record<string, string>) =>
      snapshotProvider.check!(
        {} as SnapshotInputs,
        { projectId: PROJECT, branchId: branch.id, name: "early", ...point } as SnapshotInputs,
      );
    const early = only(await at({ timestamp: branch.early }));
    assert.equal(early.property, "timestamp");
    assert.match(
      early.reason,
      new RegExp(`before ${branch.safe}, the first point of anonymized branch ${branch.id}`),
    );
    const lsn = only(await at({ lsn: "0/1" }));
    assert.equal(lsn.property, "lsn");
    assert.match(lsn.reason, new RegExp(`Use timestamp at or after ${branch.safe}`));
  });

  it("refuses a restore of the branch from a point before its masking run completed, at preview and again at up", async () => {
    const branch = await masked("hist-restore");
    const news = { ...branch.olds, restore: { timestamp: branch.early } } as BranchInputs;
    const failure = only(await branchProvider.check!(branch.olds, news));
    assert.equal(failure.property, "restore");
    assert.match(
      failure.reason,
      new RegExp(`^restore\\.timestamp: ${branch.early} is before ${branch.safe}`),
    );
    // The update, should it be reached without that check, refuses before any write.
    harness.emulator.control.clearRequests();
    const refused = await branchProvider.update!(branch.id, branch.outs, news).then(
      () => assert.fail("expected the restore to be refused"),
      (e: Error) => e,
    );
    assert.equal(refused.message, failure.reason);
    assert.deepEqual(harness.writes(), []);
  });

  it("checks a parent known only at up (an output of the same run) when check runs again with its id", async () => {
    const parent = await masked("hist-unknown");
    const preview = await planChild({ parentId: UNKNOWN, parentTimestamp: parent.early });
    assert.equal(preview.failures, undefined);
    assert.ok(!harness.log().some((line) => line.includes("anonymized_status")));
    const up = only(await planChild({ parentId: parent.id, parentTimestamp: parent.early }));
    assert.equal(up.property, "parentTimestamp");
  });

  it("refuses a child when the parent's anonymization status cannot be read after the client's retries", async () => {
    const parent = await masked("hist-unread");
    const route = "GET /projects/{project_id}/branches/{branch_id}/anonymized_status";
    harness.emulator.control.failNext(route, { status: 503 }, 20);
    const failure = only(
      await planChild({ parentId: parent.id }).finally(() => harness.emulator.control.clearFaults()),
    );
    assert.equal(failure.property, "parentId");
    assert.match(
      failure.reason,
      new RegExp(`whether branch ${parent.id} is an anonymized branch .* could not be read`),
    );
    assert.match(failure.reason, /run again/);
  });

  it("accepts a child at the first safe point and at the head of a masked branch", async () => {
    const parent = await masked("hist-safe");
    // The first safe point is within a second of now: let the clock pass it.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(parent.safe) - Date.now() + 20)),
    );
    assert.equal(
      (await planChild({ parentId: parent.id, parentTimestamp: parent.safe })).failures,
      undefined,
    );
    assert.equal((await planChild({ parentId: parent.id })).failures, undefined);
    const child = await branchProvider.create({
      projectId: PROJECT,
      name: "hist-safe-child",
      parentId: parent.id,
      parentTimestamp: parent.safe,
      __provider: PROVIDER_TEXT,
    } as BranchInputs);
    assert.equal((child.outs as BranchOutputs).parentId, parent.id);
  });
});

describe(`an anonymized branch's history with real Postgres: a child at the first safe point reads no unmasked row${dataPlaneRun()}`, function () {
  this.timeout(60_000);
  const harness = useEmulator({
    postgres: true,
    limits: false,
    opDurationMs: { default: OP_MS, anonymize: 300 },
  });
  const MARKER = "marker.real@corp.example";

  it("refuses the child just after the branch was made, and a child at the first safe point has the row with its email masked", async () => {
    forgetPreflight();
    const client = createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
    const main = harness.emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId);
    const database = main?.databases[0];
    assert.ok(database !== undefined);
    const production = await client.getConnectionUri(PROJECT, {
      databaseName: database.name,
      roleName: database.owner_name,
    });
    const caPath = harness.emulator.caPath;
    await runSql(
      production,
      caPath,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL, name text)",
      `INSERT INTO users (email, name) VALUES ('${MARKER}', 'Ada')`,
    );
    const rule = { ...EMAIL_RULE, databaseName: database.name };
    const urn = "urn:pulumi:dev::app::clouddb:index:Branch::hist-pg";
    const checked = await branchProvider.check!(
      {} as BranchInputs,
      { ...anonymizedInputs({ name: "hist-pg", maskingRules: [rule] }), __owner: urn } as BranchInputs,
    );
    const parent = await branchProvider.create(checked.inputs as BranchInputs);
    const status = await client.getAnonymizedStatus(PROJECT, parent.id);
    const completed = Date.parse(status.last_run?.completed_at ?? "");
    const safe = new Date(Math.floor(completed / 1000) * 1000 + 1000).toISOString().replace(/\.000Z$/, "Z");
    const child = (parentTimestamp: string) =>
      ({
        projectId: PROJECT,
        name: "hist-pg-child",
        parentId: parent.id,
        parentTimestamp,
        endpoints: [{ type: "read_write" }],
        __provider: PROVIDER_TEXT,
      }) as BranchInputs;
    const created = harness.emulator.control
      .dumpState()
      .branches.find((b) => b.id === parent.id)?.created_at_ms;
    const early = await branchProvider.check!(
      {} as BranchInputs,
      child(new Date((created ?? 0) + 50).toISOString()),
    );
    assert.equal(early.failures?.[0]?.property, "parentTimestamp");
    assert.match(early.failures?.[0]?.reason ?? "", new RegExp(`Give a parentTimestamp at or after ${safe}`));

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(safe) - Date.now() + 20)));
    assert.equal((await branchProvider.check!({} as BranchInputs, child(safe))).failures, undefined);
    const made = (await branchProvider.create(child(safe))).outs as BranchOutputs;
    const rows = await runSql<{ email: string }>(made.connectionUri, caPath, "SELECT email FROM users");
    assert.equal(rows.length, 1, "the parent's row is there");
    assert.notEqual(rows[0]?.email, MARKER, "its email is masked");
    assert.match(rows[0]?.email ?? "", /@example\.(com|net|org)$/);
  });
});
