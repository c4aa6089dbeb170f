/** A branch's functions, their deployments, and the triggers that invoke them (docs/api-rules.md §27; only @neon/sdk describes triggers). */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

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
export const FunctionsListResponseSchema = z.looseObject({
  functions: z.array(FunctionSchema),
  /** The next page's cursor (the last slug of this one), when there is a next page. */
  pagination: maybe(z.looseObject({ next: maybe(z.string()) })),
});
DOCUMENTED.add(FunctionsListResponseSchema, {
  as: "GET /projects/{project_id}/branches/{branch_id}/functions 200",
});

/** `POST .../functions/{slug}/deployments` (201). */
export const FunctionDeploymentResponseSchema = z.looseObject({ deployment: FunctionDeploymentSchema });
DOCUMENTED.add(FunctionDeploymentResponseSchema, { as: "NeonFunctionDeploymentResponse" });

/** What every trigger has, whatever its type. */
const TRIGGER_FIELDS = {
  trigger_id: z.string(),
  function_slug: z.string(),
  name: z.string(),
  function_path: z.string(),
  enabled: z.boolean(),
  version: z.number(),
  inherited: z.boolean(),
};

/** A `schedule` trigger: a five-field UTC cron expression, its next run (null while disabled). */
export const ScheduleTriggerSchema = z.looseObject({
  type: z.literal("schedule"),
  ...TRIGGER_FIELDS,
  schedule: z.looseObject({ cron: z.string() }),
  next_run_at: z.string().nullable(),
});
DOCUMENTED.add(ScheduleTriggerSchema, { as: "ScheduleTrigger", in: "sdk" });
/** A schedule trigger. */
export type ScheduleTrigger = z.infer<typeof ScheduleTriggerSchema>;

/** A `storage_object_created` trigger: a bucket of the branch, and a key prefix when not every key. */
export const StorageObjectCreatedTriggerSchema = z.looseObject({
  type: z.literal("storage_object_created"),
  ...TRIGGER_FIELDS,
  storage_object_created: z.looseObject({ bucket_name: z.string(), prefix: z.string().optional() }),
});
DOCUMENTED.add(StorageObjectCreatedTriggerSchema, { as: "StorageObjectCreatedTrigger", in: "sdk" });
/** A storage-object-created trigger. */
export type StorageObjectCreatedTrigger = z.infer<typeof StorageObjectCreatedTriggerSchema>;

/** A trigger of either type (@neon/sdk's `Trigger`, a choice of the two, each checked as its own). */
export const TriggerSchema = z.union([ScheduleTriggerSchema, StorageObjectCreatedTriggerSchema]);
/** A trigger on a branch. */
export type Trigger = ScheduleTrigger | StorageObjectCreatedTrigger;

/** `POST`, `GET` and `PATCH` of one trigger. */
export const TriggerResponseSchema = z.looseObject({ trigger: TriggerSchema });

/** `GET .../triggers`: the branch's triggers. */
export const TriggersListResponseSchema = z.looseObject({ triggers: z.array(TriggerSchema) });
