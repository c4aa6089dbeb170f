/**
 * What a resource class hands to `pulumi.dynamic.Resource`: every declared output seeded (so each is
 * an Output on the object), and the definition's secret outputs next to the caller's own.
 */
import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import { createUrn } from "@pulumi/pulumi/resource";

/** `args` with every output key present (undefined until the provider returns it). */
export function seedOutputs<O>(
  args: object,
  outputs: readonly (keyof O & string)[],
): Record<string, unknown> {
  return { ...Object.fromEntries(outputs.map((key) => [key, undefined])), ...args };
}

/** `opts` with `secrets` first in `additionalSecretOutputs`, then any the caller gave. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secrets: readonly string[] = [],
): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...secrets, ...(opts?.additionalSecretOutputs ?? [])] };
}

/**
 * The `__owner` input every resource sends: its URN, from which `check` derives the key that lets
 * a create after an interrupted run find the object that run made (see `owner.ts`). The URN's value
 * only, without its parent as a dependency: Pulumi waits for every child of a component an input
 * depends on, so two resources of one component would each wait for the other.
 */
export function ownerInput(
  name: string,
  type: string,
  opts: pulumi.CustomResourceOptions | undefined,
): { __owner: pulumi.Output<string> } {
  const urn = createUrn(name, `pulumi-nodejs:dynamic/clouddb:${type}`, opts?.parent);
  return { __owner: output(new Promise<string>((resolve) => urn.apply(resolve))) };
}
