import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { DEMO } from "../../emulator";
import {
  type OrganizationSpendingLimitInputs,
  type OrganizationSpendingLimitOutputs,
  organizationSpendingLimitProvider,
} from "../../provider/resources/public/organizationSpendingLimit";
import { linesOf, onlyFailure, PROVIDER_TEXT, useGovernanceSuite } from "./support";

// An organization's spending limit against the emulator (docs/api-rules.md §17): set, changed in place
// and cleared; refresh and import; the preview refusing what the API would.

const ORG = DEMO.orgId;

describe("OrganizationSpendingLimit against the emulator", () => {
  const { harness, env, control, org, outside } = useGovernanceSuite();
  const lines = async (run: () => Promise<unknown>) => (await linesOf(run)).lines;

  const limit = (values: Partial<OrganizationSpendingLimitInputs> = {}): OrganizationSpendingLimitInputs =>
    ({
      orgId: ORG,
      spendingLimitCents: 50_000,
      ...values,
      __provider: PROVIDER_TEXT,
    }) as OrganizationSpendingLimitInputs;
  const SPENDING = `/organizations/${ORG}/billing/spending_limit`;

  it("sets the limit, changes it in place with one PUT, drops it from the state when cleared elsewhere, and clears it on delete", async () => {
    const made = await organizationSpendingLimitProvider.create(limit());
    assert.equal(made.id, ORG);
    assert.equal(org()?.spending_limit_cents, 50_000);
    assert.deepEqual(harness.writes(), [`PUT ${SPENDING}`]);

    control().clearRequests();
    const olds = made.outs as OrganizationSpendingLimitOutputs;
    const diff = await organizationSpendingLimitProvider.diff!(
      made.id,
      olds,
      limit({ spendingLimitCents: 75_000 }),
    );
    assert.deepEqual([diff.changes, diff.replaces], [true, []]);
    const updated = await organizationSpendingLimitProvider.update!(
      made.id,
      olds,
      limit({ spendingLimitCents: 75_000 }),
    );
    assert.equal(updated.outs?.spendingLimitCents, 75_000);
    assert.equal(org()?.spending_limit_cents, 75_000);
    assert.deepEqual(harness.writes(), [`PUT ${SPENDING}`]);

    const moved = await organizationSpendingLimitProvider.diff!(
      made.id,
      olds,
      limit({ orgId: "org-other-12345678" }),
    );
    assert.deepEqual(moved.replaces, ["orgId"]);

    await outside("DELETE", SPENDING);
    const gone = await organizationSpendingLimitProvider.read!(
      made.id,
      updated.outs as OrganizationSpendingLimitOutputs,
    );
    assert.equal(gone.id, "", "refresh drops a limit cleared elsewhere");

    await outside("PUT", SPENDING, { spending_limit_cents: 75_000 });
    await organizationSpendingLimitProvider.delete!(
      made.id,
      updated.outs as OrganizationSpendingLimitOutputs,
    );
    assert.equal(org()?.spending_limit_cents, undefined);
    await organizationSpendingLimitProvider.delete!(
      made.id,
      updated.outs as OrganizationSpendingLimitOutputs,
    );
  });

  it("says so when its create sets a limit over one the organization had", async () => {
    await outside("PUT", SPENDING, { spending_limit_cents: 1_000 });
    const said = await lines(() =>
      organizationSpendingLimitProvider.create(limit({ spendingLimitCents: 2_000 })),
    );
    assert.deepEqual(said, [
      `organization ${ORG} had a spending limit of 1000 cents: this resource sets it to 2000 and clears it when destroyed`,
    ]);
    assert.equal(org()?.spending_limit_cents, 2_000);
    await outside("DELETE", SPENDING);
  });

  it("imports the organization's limit by its id, and finds none where no limit is set", async () => {
    await outside("PUT", SPENDING, { spending_limit_cents: 3_000 });
    const imported = await organizationSpendingLimitProvider.read!(
      ORG,
      undefined as unknown as OrganizationSpendingLimitOutputs,
    );
    assert.deepEqual([imported.id, imported.props?.spendingLimitCents], [ORG, 3_000]);
    await outside("DELETE", SPENDING);
    const nothing = await organizationSpendingLimitProvider.read!(
      ORG,
      undefined as unknown as OrganizationSpendingLimitOutputs,
    );
    assert.equal(nothing.id, "", "an organization without a limit has none to import");
  });

  it("refuses at preview a limit below one cent or a fraction of one", async () => {
    const { failures } = await organizationSpendingLimitProvider.check!(
      {} as OrganizationSpendingLimitInputs,
      limit({ spendingLimitCents: 0 }),
    );
    assert.match(
      onlyFailure({ failures } as pulumi.dynamic.CheckResult<unknown>).reason,
      /at least 1: to have no limit, remove the resource/,
    );
    const fraction = await organizationSpendingLimitProvider.check!(
      {} as OrganizationSpendingLimitInputs,
      limit({ spendingLimitCents: 10.5 }),
    );
    assert.match(onlyFailure(fraction).reason, /whole number of cents/);
  });

  it("refuses at preview a plain member's key, and passes an admin's key and the organization's own key", async () => {
    env.set({ CLOUDDB_API_KEY: DEMO.memberPersonalKey });
    const failure = onlyFailure(
      await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()),
    );
    assert.equal(failure.property, "orgId");
    assert.match(
      failure.reason,
      new RegExp(
        `role is "member" of organization ${ORG}, and only its admins \\(or the organization's own API key\\) set its spending limit`,
      ),
    );
    assert.ok(!failure.reason.includes(DEMO.memberPersonalKey), "no key in the message");
    env.set({ CLOUDDB_API_KEY: DEMO.projectKey });
    const scoped = onlyFailure(
      await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()),
    );
    assert.match(scoped.reason, /this API key may not use organization .*403 Forbidden/);
    env.set({ CLOUDDB_API_KEY: DEMO.orgKey });
    assert.equal(
      (await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()))
        .failures,
      undefined,
    );
    env.restore();
    assert.equal(
      (await organizationSpendingLimitProvider.check!({} as OrganizationSpendingLimitInputs, limit()))
        .failures,
      undefined,
    );
  });
});
