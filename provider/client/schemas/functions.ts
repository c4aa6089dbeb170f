/** A branch's functions and their deployments (docs/api-rules.md §27). */
import { z } from "zod";
import { DOCUMENTED } from "./common";

/** A deployment: its status on the service's clock, the names (never the values) of its environment. */
export const FunctionDeploymentSchema = z.looseObject({
  id: z.number(),
  status: z.string(),
  runtime: z.string(),
  created_at: z.string(),
  environment: z.array(z.string()).optional(),
  error: z.string().optional(),
});
DOCUMENTED.add(FunctionDeploymentSchema, { as: "NeonFunctionDeployment" });
/** A function's deployment. */
export type FunctionDeployment = z.infer<typeof FunctionDeploymentSchema>;

/** A function: the newest deployment is current, the newest completed one active (serving). */
export const FunctionSchema = z.looseObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  invocation_url: z.string(),
  current_deployment: FunctionDeploymentSchema.optional(),
  active_deployment: FunctionDeploymentSchema.optional(),
  created_at: z.string(),
});
DOCUMENTED.add(FunctionSchema, { as: "NeonFunction" });
/** A function on a branch. */
export type CloudFunction = z.infer<typeof FunctionSchema>;

/** `GET` / `PATCH .../functions/{slug}`. */
export const FunctionResponseSchema = z.looseObject({ function: FunctionSchema });
DOCUMENTED.add(FunctionResponseSchema, { as: "NeonFunctionResponse" });

/** `GET .../functions`: one page of the branch's functions. */
export const FunctionsListResponseSchema = z.looseObject({ functions: z.array(FunctionSchema) });
DOCUMENTED.add(FunctionsListResponseSchema, { as: "NeonFunctionsListResponse" });

/** `POST .../functions/{slug}/deployments` (201). */
export const FunctionDeploymentResponseSchema = z.looseObject({ deployment: FunctionDeploymentSchema });
DOCUMENTED.add(FunctionDeploymentResponseSchema, { as: "NeonFunctionDeploymentResponse" });
