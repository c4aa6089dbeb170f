import assert from "node:assert/strict";
import sinon from "sinon";
import { DEMO } from "../../emulator";
import type { BranchInputs, BranchOutputs } from "../../provider/resources/public/branch";
import { branchProvider } from "../../provider/resources/public/branch";
import { anonymizedInputs, branchSteps, EMAIL_RULE, NAME_RULE, useEmulator } from "./support";

// A preview environment with production's data and none of its personal data: an anonymized
// Branch, against the emulator. Its rules are the service's; its data is masked before the create
// (or an update that changes the rules) ends, so no program gets a connection to it unmasked.
// Its history is in branch.anonymized.history.test.ts, its real rows in branch.anonymized.postgres.test.ts.

const PROJECT = DEMO.projectId;

describe("an anonymized Branch, against the emulator", () => {
  const harness = useEmulator();
  afterEach(() => sinon.restore());

  const writes = () => harness.writes().filter((line) => !line.includes("/operations"));
  const stored = (id: string) => harness.emulator.control.dumpState().branches.find((b) => b.id === id);

  const { create, update } = branchSteps(anonymizedInputs);

  it("is made through the anonymized-branch route with its rules, and hands out connection strings once its data is masked", async () => {
    harness.emulator.control.clearRequests();
    const { id, outs } = await create({
      name: "pr-masked",
      endpoints: [{ type: "read_write" }],
      maskingRules: [EMAIL_RULE],
    });
    // The branch is made without a compute; its compute only once its data is masked.
    assert.deepEqual(writes(), [
      `POST /projects/${PROJECT}/branch_anonymized`,
      `POST /projects/${PROJECT}/endpoints`,
    ]);
    assert.equal(outs.anonymizationState, "anonymized");
    assert.deepEqual(outs.maskingRules, [{ ...EMAIL_RULE, schemaName: "public" }]);
    assert.match(outs.connectionUri, /^postgresql:\/\//);
    assert.deepEqual(
      stored(id)?.anonymization?.masking_rules.map((r) => [r.table_name, r.column_name, r.masking_function]),
      [["users", "email", "anon.fake_email()"]],
    );
    // The API reports the branch's source as its parent's data: the declared source stays, no replacement.
    const read = (await branchProvider.read!(id, outs)).props as BranchOutputs;
    const again = anonymizedInputs({
      name: "pr-masked",
      endpoints: [{ type: "read_write" }],
      maskingRules: [EMAIL_RULE],
    });
    assert.deepEqual(await branchProvider.diff!(id, read, again), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("sets changed rules and masks the data again in place; a new anonymizeTrigger masks again with the same rules", async () => {
    const { id, outs } = await create({ name: "pr-rules", maskingRules: [EMAIL_RULE] });
    harness.emulator.control.clearRequests();
    const changed = await update(id, outs, { name: "pr-rules", maskingRules: [EMAIL_RULE, NAME_RULE] });
    const rules = `/projects/${PROJECT}/branches/${id}`;
    assert.deepEqual(writes(), [`PATCH ${rules}/masking_rules`, `POST ${rules}/anonymize`]);
    assert.equal(changed.anonymizationState, "anonymized");
    assert.deepEqual(changed.maskingRules, [{ ...EMAIL_RULE, schemaName: "public" }, NAME_RULE]);

    harness.emulator.control.clearRequests();
    await update(id, changed, { name: "pr-rules", maskingRules: [EMAIL_RULE, NAME_RULE] });
    assert.deepEqual(writes(), [], "the same rules mask nothing again");
    const triggered = await update(id, changed, {
      name: "pr-rules",
      maskingRules: [EMAIL_RULE, NAME_RULE],
      anonymizeTrigger: "2",
    });
    assert.deepEqual(writes(), [`POST ${rules}/anonymize`]);
    assert.equal(triggered.anonymizeTrigger, "2");
  });

  it("deletes the branch of a create whose masking fails, leaving nothing, and names the rule and maskingRules", async () => {
    const bad = { ...EMAIL_RULE, maskingFunction: "anon.fake_emial()" };
    harness.emulator.control.clearRequests();
    const err = (await branchProvider.create(anonymizedInputs({ name: "pr-typo", maskingRules: [bad] })).then(
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
    const { outs } = await create({ name: "pr-typo", maskingRules: [EMAIL_RULE] });
    assert.equal(outs.anonymizationState, "anonymized");
  });

  it("imports an anonymized branch with its rules, as anonymized", async () => {
    const { id, outs } = await create({ name: "pr-import", maskingRules: [NAME_RULE] });
    // `pulumi import` reads with no state, by the import id.
    const read = await branchProvider.read!(`${PROJECT}/${id}`, undefined as unknown as BranchOutputs);
    assert.equal(read.id, id);
    const props = read.props as BranchOutputs;
    assert.equal(props.anonymizationState, outs.anonymizationState);
    assert.deepEqual(read.inputs?.["initSource"], "anonymized");
    assert.deepEqual(read.inputs?.["maskingRules"], [NAME_RULE]);
  });

  it("refuses at check rules on a branch that is not anonymized, and a rule with both a function and a value", async () => {
    const check = (values: Partial<BranchInputs>) =>
      branchProvider.check!({} as BranchInputs, anonymizedInputs(values));
    const plain = await check({ initSource: "parent-data", maskingRules: [EMAIL_RULE] });
    assert.match(
      plain.failures?.[0]?.reason ?? "",
      /maskingRules is for an anonymized branch: set initSource: "anonymized"/,
    );
    const both = await check({ maskingRules: [{ ...EMAIL_RULE, maskingValue: "x" }] });
    assert.match(both.failures?.[0]?.reason ?? "", /exactly one of maskingFunction .* or maskingValue/);
  });
});

describe("an anonymized Branch whose masking outlasts the create's wait", () => {
  const harness = useEmulator({ opDurationMs: { default: 20, anonymize: 3000 } });
  const { update } = branchSteps(anonymizedInputs);

  it("is recorded without computes or connection strings; the next up waits for the masking, then makes its compute", async () => {
    const values = {
      name: "pr-slow",
      endpoints: [{ type: "read_write" as const }],
      maskingRules: [EMAIL_RULE],
      timeouts: { create: 0.5 },
    };
    const err = (await branchProvider.create(anonymizedInputs(values)).then(
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
