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
import { branchSteps, linesOf, OP_MS, PROVIDER_TEXT, useEmulator } from "./support";

// A preview environment with production's data and none of its personal data: an anonymized
// Branch, against the emulator. Its rules are the service's; its data is masked before the create
// (or an update that changes the rules) ends, so no program gets a connection to it unmasked.

const PROJECT = DEMO.projectId;
const EMAIL: MaskingRule = {
  databaseName: "neondb",
  tableName: "users",
  columnName: "email",
  maskingFunction: "anon.fake_email()",
};
const NAME: MaskingRule = {
  databaseName: "neondb",
  schemaName: "public",
  tableName: "users",
  columnName: "name",
  maskingValue: "someone",
};

function inputs(values: Partial<BranchInputs> = {}): BranchInputs {
  return {
    projectId: PROJECT,
    initSource: "anonymized",
    ...values,
    __provider: PROVIDER_TEXT,
  } as BranchInputs;
}

describe("an anonymized Branch, against the emulator", () => {
  const harness = useEmulator();
  afterEach(() => sinon.restore());

  const writes = () => harness.writes().filter((line) => !line.includes("/operations"));
  const stored = (id: string) => harness.emulator.control.dumpState().branches.find((b) => b.id === id);

  const { create, update } = branchSteps(inputs);

  it("is made through the anonymized-branch route with its rules, and hands out connection strings once its data is masked", async () => {
    harness.emulator.control.clearRequests();
    const { id, outs } = await create({
      name: "pr-masked",
      endpoints: [{ type: "read_write" }],
      maskingRules: [EMAIL],
    });
    // The branch is made without a compute; its compute only once its data is masked.
    assert.deepEqual(writes(), [
      `POST /projects/${PROJECT}/branch_anonymized`,
      `POST /projects/${PROJECT}/endpoints`,
    ]);
    assert.equal(outs.anonymizationState, "anonymized");
    assert.deepEqual(outs.maskingRules, [{ ...EMAIL, schemaName: "public" }]);
    assert.match(outs.connectionUri, /^postgresql:\/\//);
    assert.deepEqual(
      stored(id)?.anonymization?.masking_rules.map((r) => [r.table_name, r.column_name, r.masking_function]),
      [["users", "email", "anon.fake_email()"]],
    );
    // The API reports the branch's source as its parent's data: the declared source stays, no replacement.
    const read = (await branchProvider.read!(id, outs)).props as BranchOutputs;
    const again = inputs({ name: "pr-masked", endpoints: [{ type: "read_write" }], maskingRules: [EMAIL] });
    assert.deepEqual(await branchProvider.diff!(id, read, again), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("sets changed rules and masks the data again in place; a new anonymizeTrigger masks again with the same rules", async () => {
    const { id, outs } = await create({ name: "pr-rules", maskingRules: [EMAIL] });
    harness.emulator.control.clearRequests();
    const changed = await update(id, outs, { name: "pr-rules", maskingRules: [EMAIL, NAME] });
    const rules = `/projects/${PROJECT}/branches/${id}`;
    assert.deepEqual(writes(), [`PATCH ${rules}/masking_rules`, `POST ${rules}/anonymize`]);
    assert.equal(changed.anonymizationState, "anonymized");
    assert.deepEqual(changed.maskingRules, [{ ...EMAIL, schemaName: "public" }, NAME]);

    harness.emulator.control.clearRequests();
    await update(id, changed, { name: "pr-rules", maskingRules: [EMAIL, NAME] });
    assert.deepEqual(writes(), [], "the same rules mask nothing again");
    const triggered = await update(id, changed, {
      name: "pr-rules",
      maskingRules: [EMAIL, NAME],
      anonymizeTrigger: "2",
    });
    assert.deepEqual(writes(), [`POST ${rules}/anonymize`]);
    assert.equal(triggered.anonymizeTrigger, "2");
  });

  it("deletes the branch of a create whose masking fails, leaving nothing, and names the rule and maskingRules", async () => {
    const bad = { ...EMAIL, maskingFunction: "anon.fake_emial()" };
    harness.emulator.control.clearRequests();
    const err = (await branchProvider.create(inputs({ name: "pr-typo", maskingRules: [bad] })).then(
      () => assert.fail("expected the create to fail"),
      (e: unknown) => e,
    )) as Error & { id?: string };
    assert.equal(err.id, undefined, "nothing is recorded");
    assert.match(err.message, /anonymization of branch .* ended in error: .*anon\.fake_emial\(\)/);
    assert.match(err.message, /Nothing was left: the branch is deleted, and it never had a compute/);
    assert.match(err.message, /Fix maskingRules/);
    const live = harness.emulator.control.dumpState().branches.filter((b) => b.name === "pr-typo");
    assert.ok(
      live.every((b) => b.deleted_at_ms !== undefined),
      "the branch is deleted",
    );
    assert.deepEqual(
      writes().map((line) => line.replace(/br-[a-z0-9-]+/, "<id>")),
      [`POST /projects/${PROJECT}/branch_anonymized`, `DELETE /projects/${PROJECT}/branches/<id>`],
      "no compute was ever made",
    );

    // The rule fixed, the next up makes the branch.
    const { outs } = await create({ name: "pr-typo", maskingRules: [EMAIL] });
    assert.equal(outs.anonymizationState, "anonymized");
  });

  it("imports an anonymized branch with its rules, as anonymized", async () => {
    const { id, outs } = await create({ name: "pr-import", maskingRules: [NAME] });
    // `pulumi import` reads with no state, by the import id.
    const read = await branchProvider.read!(`${PROJECT}/${id}`, undefined as unknown as BranchOutputs);
    assert.equal(read.id, id);
    const props = read.props as BranchOutputs;
    assert.equal(props.anonymizationState, outs.anonymizationState);
    assert.deepEqual(read.inputs?.["initSource"], "anonymized");
    assert.deepEqual(read.inputs?.["maskingRules"], [NAME]);
  });

  it("refuses at check rules on a branch that is not anonymized, and a rule with both a function and a value", async () => {
    const check = (values: Partial<BranchInputs>) =>
      branchProvider.check!({} as BranchInputs, inputs(values));
    const plain = await check({ initSource: "parent-data", maskingRules: [EMAIL] });
    assert.match(
      plain.failures?.[0]?.reason ?? "",
      /maskingRules is for an anonymized branch: set initSource: "anonymized"/,
    );
    const both = await check({ maskingRules: [{ ...EMAIL, maskingValue: "x" }] });
    assert.match(both.failures?.[0]?.reason ?? "", /exactly one of maskingFunction .* or maskingValue/);
  });
});

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
  async function masked(name: string, rules: MaskingRule[] = [EMAIL]) {
    const checked = await branchProvider.check!(
      {} as BranchInputs,
      { ...inputs({ name, maskingRules: rules }), __owner: urn(name) } as BranchInputs,
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
      masking_rules: apiRules([{ ...EMAIL, maskingFunction: "anon.fake_emial()" }]),
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
    const rule = { ...EMAIL, databaseName: database.name };
    const urn = "urn:pulumi:dev::app::clouddb:index:Branch::hist-pg";
    const checked = await branchProvider.check!(
      {} as BranchInputs,
      { ...inputs({ name: "hist-pg", maskingRules: [rule] }), __owner: urn } as BranchInputs,
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

describe("an anonymized Branch whose masking outlasts the create's wait", () => {
  const harness = useEmulator({ opDurationMs: { default: 20, anonymize: 3000 } });
  const { update } = branchSteps(inputs);

  it("is recorded without computes or connection strings; the next up waits for the masking, then makes its compute", async () => {
    const values = {
      name: "pr-slow",
      endpoints: [{ type: "read_write" as const }],
      maskingRules: [EMAIL],
      timeouts: { create: 0.5 },
    };
    const err = (await branchProvider.create(inputs(values)).then(
      () => assert.fail("expected a partial failure"),
      (e: unknown) => e,
    )) as Error & { id: string; properties: unknown; reasons: string[] };
    assert.match(err.reasons[0] ?? "", /its data is not masked yet: its anonymization is anonymizing/);
    const recorded = err.properties as BranchOutputs;
    assert.deepEqual(recorded.endpoints, []);
    assert.equal(recorded.connectionUri, "");
    const live = () => harness.emulator.control.dumpState().endpoints.filter((e) => e.branch_id === err.id);
    assert.deepEqual(live(), [], "no compute while the data is not masked");

    const outs = await update(err.id, recorded, values);
    assert.equal(outs.anonymizationState, "anonymized");
    assert.equal(live().length, 1);
    assert.match(outs.connectionUri, /^postgresql:\/\//);
  });
});

// Each way an anonymized branch could serve its parent's personal data, on the emulator's real
// Postgres: the parent holds a marker row, and a reader who asks the API for a connection string to
// each compute of the branch (what anyone with the project's key can do) must never read it.
describe(`an anonymized Branch never serves its parent's real rows, on the emulator's Postgres${dataPlaneRun()}`, function () {
  this.timeout(120_000);
  const harness = useEmulator({ postgres: true, limits: false });
  const MARKER = "real.person@corp.example";
  const client = () => createClient({ apiKey: DEMO.personalKey, apiUrl: harness.emulator.url });
  const { create, update } = branchSteps(inputs);
  afterEach(() => harness.emulator.control.clearFaults());

  /** The emails anyone with the key reads through each compute of the branch (none where refused). */
  async function readable(branchId: string): Promise<string[]> {
    const api = client();
    const endpoints = await api.listBranchEndpoints(PROJECT, branchId).catch(() => []);
    const emails: string[] = [];
    for (const ep of endpoints) {
      const database = (await api.listDatabases(PROJECT, branchId))[0];
      if (database === undefined) continue;
      const roleName = database.owner_name ?? "";
      const query = { branchId, endpointId: ep.id, databaseName: database.name, roleName };
      const uri = await api.getConnectionUri(PROJECT, query).catch(() => undefined);
      if (uri === undefined) continue;
      const rows = await runSql<{ email: string }>(
        uri,
        harness.emulator.caPath,
        "SELECT email FROM users",
      ).catch(() => []);
      emails.push(...rows.map((r) => r.email));
    }
    return emails;
  }

  /** The anonymized branches of the project now. */
  const anonymizedBranches = () =>
    harness.emulator.control
      .dumpState()
      .branches.filter((b) => b.anonymization !== undefined && b.deleted_at_ms === undefined)
      .map((b) => b.id);

  /** Runs `act` while a reader keeps reading every anonymized branch; answers the marker rows it read. */
  async function leaksDuring(act: () => Promise<unknown>): Promise<string[]> {
    let done = false;
    const leaked: string[] = [];
    const reader = (async () => {
      while (!done) {
        for (const id of anonymizedBranches()) {
          leaked.push(...(await readable(id)).filter((email) => email === MARKER).map(() => id));
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await act().catch(() => undefined);
    } finally {
      done = true;
      await reader;
    }
    return leaked;
  }

  const masked = async (branchId: string) => {
    const emails = await readable(branchId);
    assert.ok(emails.length > 0, "the compute serves the masked rows");
    assert.ok(!emails.includes(MARKER), `no marker row: ${emails}`);
  };

  before(async () => {
    const parent = harness.emulator.control.dumpState().branches.find((b) => b.id === DEMO.branchId)!;
    const database = parent.databases[0]!;
    const uri = await client().getConnectionUri(PROJECT, {
      databaseName: database.name,
      roleName: database.owner_name,
    });
    await runSql(
      uri,
      harness.emulator.caPath,
      "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL, name text)",
      `INSERT INTO users (email, name) VALUES ('${MARKER}', 'Real Person'), ('second@corp.example', 'Other')`,
    );
  });

  const declared = (name: string, extra: Partial<BranchInputs> = {}) => ({
    name,
    endpoints: [{ type: "read_write" as const }],
    maskingRules: [EMAIL],
    ...extra,
  });

  it("a create whose rule fails leaves no branch, no compute and no connection string: nothing reads the parent's rows", async () => {
    const bad = { ...EMAIL, columnName: "mail" };
    const leaked = await leaksDuring(() => create(declared("pr-bad-rule", { maskingRules: [EMAIL, bad] })));
    assert.deepEqual(leaked, []);
    const left = harness.emulator.control.dumpState().branches.filter((b) => b.name === "pr-bad-rule");
    assert.ok(
      left.every((b) => b.deleted_at_ms !== undefined),
      "the branch is deleted",
    );
    for (const b of left) assert.deepEqual(await readable(b.id), []);
  });

  it("a reset from the parent serves no real row at any moment, and serves masked rows after", async () => {
    const { id, outs } = await create(declared("pr-reset"));
    await masked(id);
    // The masking run starts late: the window in which the parent's rows are back, unmasked.
    harness.emulator.control.failNext(
      `POST /projects/${PROJECT}/branches/${id}/anonymize`,
      { delayMs: 800, passThrough: true },
      1,
    );
    const leaked = await leaksDuring(() => update(id, outs, declared("pr-reset", { resetTrigger: "1" })));
    assert.deepEqual(leaked, []);
    await masked(id);
  });

  it("a reset stopped after the restore (its masking fails) leaves the compute disabled; the next up masks and enables it", async () => {
    const { id, outs } = await create(declared("pr-killed"));
    harness.emulator.control.failNext(
      `POST /projects/${PROJECT}/branches/${id}/anonymize`,
      { status: 400 },
      1,
    );
    const news = declared("pr-killed", { resetTrigger: "1" });
    await assert.rejects(update(id, outs, news));
    assert.deepEqual(await readable(id), [], "the restored, unmasked data is not served");
    const endpoints = await client().listBranchEndpoints(PROJECT, id);
    assert.deepEqual(
      endpoints.map((ep) => ep.disabled),
      [true],
    );
    // The next up runs the same update again (its state was not written).
    await update(id, outs, news);
    await masked(id);
  });

  it("a reset outside the stack is disabled by the refresh that sees it; the next up masks and enables it", async () => {
    const { id, outs } = await create(declared("pr-outside"));
    await client().restoreBranch(PROJECT, id, { source_branch_id: DEMO.branchId });
    const read = await linesOf(() => branchProvider.read!(id, outs));
    const refreshed = read.result.props as BranchOutputs;
    assert.deepEqual(await readable(id), [], "after the refresh, nothing reads the restored rows");
    assert.equal(refreshed.anonymizationState, "initialized");
    assert.match(
      read.lines.join("\n"),
      /warning: .* is anonymized but its data is not known masked .* disabled/,
    );
    const diff = await branchProvider.diff!(id, refreshed, inputs(declared("pr-outside")));
    assert.equal(diff.changes, true, "the next up masks it");
    await update(id, refreshed, declared("pr-outside"));
    await masked(id);
  });

  it("refuses at check an anonymized branch without masking rules: no full copy is made", async () => {
    const check = await branchProvider.check!({} as BranchInputs, inputs({ name: "pr-no-rules" }));
    assert.match(check.failures?.[0]?.reason ?? "", /^maskingRules: .*none is given.*Add maskingRules/);
  });
});
