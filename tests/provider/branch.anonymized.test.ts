import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import { createClient } from "../../provider/client";
import type { BranchInputs, BranchOutputs, MaskingRule } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { dataPlaneRun, runSql } from "../emulator/helpers";
import { branchSteps, linesOf, PROVIDER_TEXT, useEmulator } from "./support";

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
