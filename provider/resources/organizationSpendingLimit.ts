import { z } from "zod";
import { NotFoundError } from "../client/errors";
import { governanceFind } from "./finds";
import { hostLine } from "./host/progress";
import { DeleteProtectionInput, idInput } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  ORGANIZATION_SPENDING_LIMIT,
  type OrganizationSpendingLimitInputs,
  type OrganizationSpendingLimitOutputs,
} from "./public/organizationSpendingLimit";

export type {
  OrganizationSpendingLimitInputs,
  OrganizationSpendingLimitOutputs,
} from "./public/organizationSpendingLimit";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const OrganizationSpendingLimitInputsSchema = z.object({
  orgId: idInput("orgId", "organization", "the organization whose spending limit this is (org-...)"),
  spendingLimitCents: z
    .number({ error: "spendingLimitCents is required: the monthly limit in cents (50000 is $500)" })
    .int("spendingLimitCents must be a whole number of cents")
    .min(
      1,
      "spendingLimitCents must be at least 1: to have no limit, remove the resource (docs/api-rules.md §17)",
    ),
  deleteProtection: DeleteProtectionInput,
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof OrganizationSpendingLimitInputsSchema>, OrganizationSpendingLimitInputs>;

// ---------------------------------------------------------------- API calls

/**
 * An organization's monthly spending limit (docs/api-rules.md §17): one per organization, set and
 * changed with one PUT, cleared with a DELETE. None starts an operation. The limit holds nothing
 * but its value, so a create sets it over whatever limit the organization had, and says so.
 */
export const organizationSpendingLimitDefinition = defineResource<
  OrganizationSpendingLimitInputs,
  OrganizationSpendingLimitOutputs
>(ORGANIZATION_SPENDING_LIMIT, {
  inputs: OrganizationSpendingLimitInputsSchema,
  id: (outs) => outs.orgId,
  finds: (inputs) => [governanceFind("orgId", inputs.orgId, "set its spending limit")],

  async create({ client }, inputs) {
    const before = await client.getOrgSpendingLimit(inputs.orgId);
    if (before !== null && before !== inputs.spendingLimitCents) {
      hostLine(
        `organization ${inputs.orgId} had a spending limit of ${before} cents: this resource sets it to ` +
          `${inputs.spendingLimitCents} and clears it when destroyed`,
      );
    }
    const cents = await client.setOrgSpendingLimit(inputs.orgId, inputs.spendingLimitCents);
    return {
      ...declaredInputs<OrganizationSpendingLimitInputs>(OrganizationSpendingLimitInputsSchema, inputs),
      ...outputsOf(inputs.orgId, cents),
    };
  },

  /** The organization's limit as it is; an organization without one has nothing to import. */
  async readExisting({ client }, inputs) {
    const cents = await client.getOrgSpendingLimit(inputs.orgId);
    if (cents === null)
      throw new NotFoundError(`organization ${inputs.orgId} has no spending limit to import`);
    return outputsOf(inputs.orgId, cents);
  },

  /** Cleared elsewhere, the limit is gone. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const cents = await client.getOrgSpendingLimit(props.orgId);
    return cents === null ? undefined : { ...props, ...outputsOf(props.orgId, cents) };
  },

  /** A new limit is set with the PUT that set it; `deleteProtection` alone changes nothing in the API. */
  async update({ client }, _id, outs, olds) {
    if (outs.spendingLimitCents === olds.spendingLimitCents) return outs;
    const cents = await client.setOrgSpendingLimit(outs.orgId, outs.spendingLimitCents);
    return { ...outs, ...outputsOf(outs.orgId, cents) };
  },

  async remove({ client }, _id, props) {
    await client.clearOrgSpendingLimit(props.orgId);
  },
});

/** The state of the organization's limit `cents` (the API answers with the value it keeps). */
function outputsOf(orgId: string, cents: number | null): OrganizationSpendingLimitOutputs {
  if (cents === null) throw new NotFoundError(`organization ${orgId} has no spending limit`);
  return { orgId, spendingLimitCents: cents };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(
  organizationSpendingLimitDefinition,
);
