/** A branch's triggers, each naming a function of the branch by slug (docs/api-rules.md §27; only @neon/sdk describes them). */
import { z } from "zod";
import { DOCUMENTED } from "./common";

/**
 * A trigger of either type: `schedule` carries `schedule.cron` and `next_run_at`,
 * `storage_object_created` its bucket and prefix. The type is a string: the service may add types.
 */
export const TriggerSchema = z.looseObject({
  type: z.string(),
  trigger_id: z.string(),
  function_slug: z.string(),
  name: z.string(),
  function_path: z.string(),
  enabled: z.boolean(),
  version: z.number(),
  inherited: z.boolean(),
  schedule: z.looseObject({ cron: z.string() }).optional(),
  next_run_at: z.string().nullable().optional(),
  storage_object_created: z
    .looseObject({ bucket_name: z.string(), prefix: z.string().optional() })
    .optional(),
});
DOCUMENTED.add(TriggerSchema, { as: "Trigger", in: "sdk" });
/** A trigger on a branch. */
export type Trigger = z.infer<typeof TriggerSchema>;

/** `POST`, `GET` and `PATCH` of one trigger. */
export const TriggerResponseSchema = z.looseObject({ trigger: TriggerSchema });
DOCUMENTED.add(TriggerResponseSchema, { as: "TriggerResponse", in: "sdk" });

/** `GET .../triggers`: the branch's triggers. */
export const TriggersListResponseSchema = z.looseObject({ triggers: z.array(TriggerSchema) });
DOCUMENTED.add(TriggersListResponseSchema, { as: "TriggersListResponse", in: "sdk" });
