/**
 * A region as an input (a project's, a VPC endpoint's): the form of a region id (`aws-us-east-2`,
 * `azure-eastus2`) is checked by the schema; whether the service offers it is checked at preview
 * against the regions it lists (`GET /regions`, what `getRegions` returns; see `preflight.ts`).
 */
import { z } from "zod";

/** A region id: the cloud's name, `-`, and the region's (`aws-us-east-2`, `azure-eastus2`). */
const REGION_ID = /^(aws|azure|gcp)-[a-z0-9]+(-[a-z0-9]+)*$/;

/** A region id called `property`; `what` ends the message of a missing one (what it is, or what leaving it out does). */
export function regionInput(property: string, what: string) {
  return z
    .string({ error: `${property} must be a region id such as aws-us-east-2; ${what}` })
    .min(1, `${property} must be a region id such as aws-us-east-2; ${what}`)
    .refine((region) => REGION_ID.test(region), {
      error: (issue) =>
        `${property} must be a region id such as aws-us-east-2 or azure-eastus2 (getRegions lists them), not ${JSON.stringify(issue.input)}`,
    });
}
