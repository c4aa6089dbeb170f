import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_REGIONS, REGION } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getRegions}. */
export interface GetRegionsArgs extends FunctionArgsOf<typeof GET_REGIONS> {}

/** A region projects can be created in. */
export interface Region extends ResultObjectOf<typeof REGION.properties> {}

/** Result of {@link getRegions}. */
export interface GetRegionsResult extends FunctionResultOf<typeof GET_REGIONS> {}

/** Lists the regions projects can be created in (those open to `orgId`, when given). Throws the client's typed errors. */
export async function getRegions(
  args: GetRegionsArgs = {},
  opts: DataSourceOptions = {},
): Promise<GetRegionsResult> {
  const regions = await dataSourceClient(opts).listRegions({ orgId: args.orgId });
  return {
    regions: regions.map((r) => ({
      regionId: r.region_id,
      name: r.name,
      default: r.default,
      geoLat: r.geo_lat ?? "",
      geoLong: r.geo_long ?? "",
    })),
  };
}

/** {@link getRegions} taking Inputs and returning an Output. */
export function getRegionsOutput(
  args: pulumi.Input<GetRegionsArgs> = {},
  opts: DataSourceOptions = {},
): pulumi.Output<GetRegionsResult> {
  return output(args).apply((a) => getRegions(a as GetRegionsArgs, opts));
}
