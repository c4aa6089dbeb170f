/**
 * The entry the code of every dynamic resource in a stack's state requires, by the package's export
 * `pulumi-clouddb/dynamic` (or this file's path in a checkout): `provider("Branch")` is the kind's
 * provider. The state names the kind, not a file, so the modules behind a kind can move between
 * versions; this export and its `provider` function never change.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "./resources/lifecycle/lazyProvider";

export { methodsOf } from "./resources/methodsTable";

/** The dynamic provider of the resource kind named `type` (`Branch`, `Role`, ...). */
export function provider(type: string): pulumi.dynamic.ResourceProvider {
  return lazyProvider(type);
}
