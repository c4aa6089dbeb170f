import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { FunctionArgsOf, FunctionResultOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_AI_GATEWAY } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getAiGateway}. */
export interface GetAiGatewayArgs extends FunctionArgsOf<typeof GET_AI_GATEWAY> {}

/** Result of {@link getAiGateway}. */
export interface GetAiGatewayResult extends FunctionResultOf<typeof GET_AI_GATEWAY> {}

/**
 * Reads the branch's AI gateway endpoint (`GET .../ai_gateway`; the service has no route that
 * changes it). Throws the client's typed errors: a 404 whose message gives the reason the branch
 * has no gateway, or that the project or branch does not exist.
 */
export async function getAiGateway(
  args: GetAiGatewayArgs,
  opts: DataSourceOptions = {},
): Promise<GetAiGatewayResult> {
  const gateway = await dataSourceClient(opts).getAiGateway(args.projectId, args.branchId);
  return { enabled: gateway.enabled, baseUrl: gateway.base_url };
}

/** {@link getAiGateway} taking Inputs and returning an Output. */
export function getAiGatewayOutput(
  args: pulumi.Input<GetAiGatewayArgs>,
  opts: DataSourceOptions = {},
): pulumi.Output<GetAiGatewayResult> {
  return output(args).apply((a) => getAiGateway(a as GetAiGatewayArgs, opts));
}
