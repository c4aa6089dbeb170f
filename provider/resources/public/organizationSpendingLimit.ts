/**
 * The public part of {@link OrganizationSpendingLimit}: its declaration, and the class and types
 * derived from it. The definition (inputs schema, API calls) is `../organizationSpendingLimit.ts`,
 * loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, INTEGER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** An organization's monthly spending limit, declared. */
export const ORGANIZATION_SPENDING_LIMIT = declareResource({
  type: "OrganizationSpendingLimit",
  noun: "organization spending limit",
  family: "organizations",
  importId: ["orgId"],
  inputs: {
    /** The organization whose limit this is. Changing it clears the old organization's limit and sets the new one's. */
    orgId: { type: STRING, required: true, change: "replace" },
    /** The monthly limit in cents, at least 1 (`50000` is $500); changed in place. The service alerts at 80% and 100% of it and suspends nothing. */
    spendingLimitCents: { type: INTEGER, required: true, change: "update" },
    /** When true, deleting the resource (which clears the limit) fails until it is set back to false. */
    deleteProtection: { type: BOOLEAN, change: "update" },
  },
  outputs: {
    /** The organization id. */
    orgId: { type: STRING },
    /** The monthly limit in cents, as the API last reported it. */
    spendingLimitCents: { type: INTEGER },
  },
});

/** Inputs of an {@link OrganizationSpendingLimit}. */
export interface OrganizationSpendingLimitArgs extends ArgsOf<typeof ORGANIZATION_SPENDING_LIMIT> {}

/** The plain inputs as the provider sees them. */
export interface OrganizationSpendingLimitInputs extends InputsOf<typeof ORGANIZATION_SPENDING_LIMIT> {}

/** Everything the state records of an organization's spending limit. */
export interface OrganizationSpendingLimitOutputs extends StateOf<typeof ORGANIZATION_SPENDING_LIMIT> {}

/** The dynamic provider of {@link OrganizationSpendingLimit}: it loads `../organizationSpendingLimit` when called (see `lazyProvider`). */
export const organizationSpendingLimitProvider: pulumi.dynamic.ResourceProvider<
  OrganizationSpendingLimitInputs,
  OrganizationSpendingLimitOutputs
> = lazyProvider(ORGANIZATION_SPENDING_LIMIT.type);

// The class's fields: one Output per declared output.
export interface OrganizationSpendingLimit extends OutputFields<typeof ORGANIZATION_SPENDING_LIMIT> {}

/**
 * An organization's monthly spending limit: the service emails its admins at 80% and 100% of it,
 * and computes go on past it. An organization has one limit: creating the resource sets it (over a
 * limit set before, which the run's output names), destroying it clears it. Only the organization's
 * admins or its own API key set it. `pulumi import` takes the organization id.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class OrganizationSpendingLimit extends DynamicResource {
  constructor(name: string, args: OrganizationSpendingLimitArgs, opts?: pulumi.CustomResourceOptions) {
    super(ORGANIZATION_SPENDING_LIMIT, name, args, opts);
  }
}
