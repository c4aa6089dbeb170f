import { z } from "zod";
import type {
  Trigger as ApiTrigger,
  CloudDbClient,
  ScheduleTrigger,
  StorageObjectCreatedTrigger,
} from "../client";
import { isConflict, isNotFound } from "../client/errors";
import { nameOf, ResourceError } from "./errors";
import { adoptInput, ProjectOfBranchInput, requiredId } from "./inputs/common";
import { cronProblem } from "./inputs/cron";
import { bucketFind, functionFind } from "./inputs/onBranch";
import { declaredInputs } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { isGeneratedWith } from "./lifecycle/owner";
import { TRIGGER, TRIGGER_TYPE, type TriggerInputs, type TriggerOutputs } from "./public/trigger";

export type { TriggerInputs, TriggerOutputs } from "./public/trigger";

// ---------------------------------------------------------------- inputs

/** Inputs as the provider sees them. */
export const TriggerInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the trigger is on (br-...)"),
    type: z.enum(TRIGGER_TYPE.enum, { error: `type is one of ${TRIGGER_TYPE.enum.join(", ")}` }),
    name: z
      .string({ error: "name must be a string: the trigger's name, unique on its branch" })
      .min(1, "name must not be empty; omit it for a generated one")
      .optional(),
    functionSlug: requiredId("functionSlug", "the slug of the function of the branch it invokes"),
    functionPath: z.string({ error: "functionPath must be a string" }).optional(),
    cron: z
      .string({ error: "cron must be a string" })
      .min(1, "cron must not be empty")
      .superRefine((cron, ctx) => {
        const problem = cronProblem(cron);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional(),
    bucketName: z
      .string({ error: "bucketName must be a string" })
      .min(1, "bucketName must not be empty")
      .optional(),
    prefix: z.string({ error: "prefix must be a string" }).optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
    adoptExisting: adoptInput("trigger (its id)"),
  })
  .refine(
    (i) =>
      i.type !== "schedule" || (i.cron !== undefined && i.bucketName === undefined && i.prefix === undefined),
    {
      path: ["cron"],
      message:
        "a schedule trigger takes cron (five UTC fields, `0 3 * * *`) and neither bucketName nor prefix",
    },
  )
  .refine(
    (i) => i.type !== "storage_object_created" || (i.bucketName !== undefined && i.cron === undefined),
    {
      path: ["bucketName"],
      message: "a storage_object_created trigger takes bucketName (and an optional prefix), not cron",
    },
  );

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof TriggerInputsSchema>, TriggerInputs>;

// ---------------------------------------------------------------- API calls

/**
 * A trigger on a branch (docs/api-rules.md §27): a `PATCH` changes every field but the type in place
 * (the API refuses another type), so only a new type, project or branch replaces it.
 */
export const triggerDefinition = defineResource<TriggerInputs, TriggerOutputs>(TRIGGER, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: TriggerInputsSchema,
  // Left out, the name is generated from the resource's name and create key (`lifecycle/owner.ts`).
  generatesName: true,
  /** The function and the bucket it names, which the API refuses to trigger on when the branch lacks them. */
  finds: (inputs, olds) => [
    inputs.functionSlug === olds.functionSlug && inputs.branchId === olds.branchId
      ? undefined
      : functionFind(inputs, "functionSlug", inputs.functionSlug),
    inputs.type !== "storage_object_created" ||
    inputs.bucketName === undefined ||
    (inputs.bucketName === olds.bucketName && inputs.branchId === olds.branchId)
      ? undefined
      : bucketFind(inputs, "bucketName", inputs.bucketName),
  ],
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.triggerId}`,
  // A name is unique among the branch's triggers: a new type keeping it deletes the old one first.
  deleteBeforeReplace: (olds, news) =>
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId &&
    (news.name ?? olds.name) === olds.name,

  /**
   * Creates the trigger. A name generated with this create key that is taken was taken by a killed
   * run of this resource: that trigger is brought to the inputs and taken. A name the program gave
   * carries no such proof: refused, naming the trigger to adopt.
   */
  async create({ client, createKey }, inputs) {
    try {
      return outputsOf(inputs, await client.createTrigger(inputs.projectId, inputs.branchId, bodyOf(inputs)));
    } catch (err) {
      if (!isConflict(err)) throw err;
      const taken = await named(client, inputs).catch(() => undefined);
      if (taken !== undefined && createKey !== undefined && isGeneratedWith(taken.name, createKey))
        return outputsOf(
          inputs,
          await client.updateTrigger(inputs.projectId, inputs.branchId, taken.trigger_id, bodyOf(inputs)),
        );
      throw new ResourceError(
        "NameTaken",
        `a trigger named "${inputs.name}" already exists on branch ${inputs.branchId} in project ${inputs.projectId}, ` +
          "and nothing proves this resource made it: either it was made outside this stack, or by an earlier run of " +
          `this resource that was killed before recording it. If it is this resource's, add adoptExisting: "${taken?.trigger_id ?? "<its trigger id>"}" ` +
          `and run \`pulumi up\` again; otherwise choose another name, or omit name for a generated one. API: ${err.message}`,
        err,
      );
    }
  },

  /** The create's answer was lost: the branch's trigger of this name, if it has the declared function. */
  async findLost({ client }, inputs) {
    const trigger = await named(client, inputs).catch(() => undefined);
    return trigger === undefined || trigger.function_slug !== inputs.functionSlug
      ? undefined
      : outputsOf(inputs, trigger);
  },

  /** Takes the branch's trigger `triggerId` under management and brings it to the inputs in place. */
  async adopt({ client }, inputs, triggerId) {
    const trigger = await client.getTrigger(inputs.projectId, inputs.branchId, triggerId);
    if (trigger.type !== inputs.type)
      throw new ResourceError(
        "NotAdoptable",
        `trigger ${triggerId} on branch ${inputs.branchId} is a ${trigger.type} trigger, not ${inputs.type}: the API ` +
          "cannot change a trigger's type; declare the one it has, or let this resource make a new trigger",
      );
    return outputsOf(
      inputs,
      await client.updateTrigger(inputs.projectId, inputs.branchId, triggerId, bodyOf(inputs)),
    );
  },

  /** The branch's trigger `triggerId` as it is now. */
  async readExisting({ client }, inputs, triggerId) {
    const trigger = await client.getTrigger(inputs.projectId, inputs.branchId, triggerId);
    return outputsOf(
      { ...inputsOf(trigger), projectId: inputs.projectId, branchId: inputs.branchId },
      trigger,
    );
  },

  /** The trigger as it is now, every field the API shows; gone once deleted elsewhere. */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    let trigger: ApiTrigger;
    try {
      trigger = await client.getTrigger(props.projectId, props.branchId, props.triggerId);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const { cron: _c, bucketName: _b, prefix: _p, ...rest } = props;
    // The state's own fields stay; the ones the API shows are as it shows them (a prefix removed elsewhere is gone).
    return { ...rest, ...outputsOf({ ...rest, ...inputsOf(trigger) }, trigger) };
  },

  /** Every field but the type is sent in one `PATCH`. */
  async update({ client }, _id, outs, _olds, news) {
    return outputsOf(
      news,
      await client.updateTrigger(news.projectId, news.branchId, outs.triggerId, bodyOf(news)),
    );
  },

  async remove({ client }, _id, props) {
    try {
      await client.deleteTrigger(props.projectId, props.branchId, props.triggerId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
});

/** The branch's trigger named as the inputs name it; undefined when it has none. */
async function named(client: CloudDbClient, inputs: TriggerInputs): Promise<ApiTrigger | undefined> {
  return (await client.listTriggers(inputs.projectId, inputs.branchId)).find((t) => t.name === inputs.name);
}

/** The create (or update) body: the same fields, the type's own part. */
function bodyOf(inputs: TriggerInputs) {
  const common = {
    function_slug: inputs.functionSlug,
    name: nameOf("trigger", inputs),
    ...(inputs.functionPath === undefined ? {} : { function_path: inputs.functionPath }),
    ...(inputs.enabled === undefined ? {} : { enabled: inputs.enabled }),
  };
  if (inputs.type === "schedule")
    return { type: "schedule" as const, ...common, schedule: { cron: inputs.cron ?? "" } };
  return {
    type: "storage_object_created" as const,
    ...common,
    storage_object_created: {
      bucket_name: inputs.bucketName ?? "",
      ...(inputs.prefix === undefined ? {} : { prefix: inputs.prefix }),
    },
  };
}

/** The inputs a trigger stands for, as the API shows it (for import and refresh). */
function inputsOf(trigger: ApiTrigger): Omit<TriggerInputs, "projectId" | "branchId"> {
  return {
    type: trigger.type,
    name: trigger.name,
    functionSlug: trigger.function_slug,
    functionPath: trigger.function_path,
    enabled: trigger.enabled,
    ...(trigger.type === "schedule"
      ? { cron: (trigger as ScheduleTrigger).schedule.cron }
      : storageOf(trigger)),
  };
}

/** A storage trigger's bucket and prefix as inputs. */
function storageOf(trigger: ApiTrigger): Pick<TriggerInputs, "bucketName" | "prefix"> {
  const { bucket_name, prefix } = (trigger as StorageObjectCreatedTrigger).storage_object_created;
  return { bucketName: bucket_name, ...(prefix === undefined ? {} : { prefix }) };
}

function outputsOf(inputs: TriggerInputs, trigger: ApiTrigger): TriggerOutputs {
  return {
    ...declaredInputs<TriggerInputs>(TriggerInputsSchema, inputs),
    triggerId: trigger.trigger_id,
    type: trigger.type,
    name: trigger.name,
    functionSlug: trigger.function_slug,
    functionPath: trigger.function_path,
    enabled: trigger.enabled,
    version: trigger.version,
    nextRunAt: trigger.type === "schedule" ? (trigger as ScheduleTrigger).next_run_at : null,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } = providerMethods(triggerDefinition);
