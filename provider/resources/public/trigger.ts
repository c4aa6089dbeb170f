/**
 * The public part of {@link Trigger}: its declaration, and the class and types derived from it. The
 * definition (inputs schema, API calls) is `../trigger.ts`, loaded only in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { BOOLEAN, declareResource, enumOf, INTEGER, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, OutputFields, StateOf } from "./shapes";

/** What invokes the function: `schedule` (a cron expression) or `storage_object_created` (an upload to a bucket). */
export const TRIGGER_TYPE = enumOf("TriggerType", ["schedule", "storage_object_created"]);

/** A trigger on a branch, declared: changed in place, replaced only when its type changes. */
export const TRIGGER = declareResource({
  type: "Trigger",
  noun: "trigger",
  family: "functions",
  importId: ["projectId", "branchId", "triggerId"],
  inputs: {
    /** The project of the branch. Changing it replaces the trigger. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the trigger and its function live on. Changing it replaces the trigger. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** `schedule` or `storage_object_created`; the API cannot change a trigger's type, so changing it replaces the trigger. */
    type: { type: TRIGGER_TYPE, required: true, change: "replace" },
    /** The trigger's name, unique among the branch's triggers. Left out, one is generated from the resource's name and a mark of this stack (a run killed during the create takes its trigger back). Changed in place. */
    name: { type: STRING, change: "update" },
    /** The slug of the function of the branch it invokes. Changed in place. */
    functionSlug: { type: STRING, required: true, change: "update" },
    /** The path of the function it invokes (`/` when left out). Changed in place. */
    functionPath: { type: STRING, change: "update", computed: true },
    /** For `schedule`: a five-field UTC cron expression (`*\/15 * * * *`). Changed in place. */
    cron: { type: STRING, change: "update" },
    /** For `storage_object_created`: the bucket whose new objects invoke the function. Changed in place. */
    bucketName: { type: STRING, change: "update" },
    /** For `storage_object_created`: only keys starting with this; left out, every key. Changed in place. */
    prefix: { type: STRING, change: "update" },
    /** Whether the trigger fires (true when left out). Changed in place. */
    enabled: { type: BOOLEAN, change: "update", computed: true },
    /** The id of an existing trigger on the branch to take under management instead of creating one. */
    adoptExisting: { type: STRING, change: "ignore" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch id. */
    branchId: { type: STRING },
    /** The trigger's id. */
    triggerId: { type: STRING },
    /** The trigger's type. */
    type: { type: STRING },
    /** The name. */
    name: { type: STRING },
    /** The function's slug. */
    functionSlug: { type: STRING },
    /** The function's path it invokes. */
    functionPath: { type: STRING },
    /** Whether it fires. */
    enabled: { type: BOOLEAN },
    /** Counts up with each change the API makes to it. */
    version: { type: INTEGER },
    /** For a schedule: the next run, ISO 8601 UTC; null while disabled, or for another type. */
    nextRunAt: { type: STRING, nullable: true },
  },
});

/** Inputs of a {@link Trigger}. */
export interface TriggerArgs extends ArgsOf<typeof TRIGGER> {}

/** The plain inputs as the provider sees them. */
export interface TriggerInputs extends InputsOf<typeof TRIGGER> {}

/** Everything the state records of a trigger. */
export interface TriggerOutputs extends StateOf<typeof TRIGGER> {}

/** The dynamic provider of {@link Trigger}: it loads `../trigger` when called (see `lazyProvider`). */
export const triggerProvider: pulumi.dynamic.ResourceProvider<TriggerInputs, TriggerOutputs> = lazyProvider(
  TRIGGER.type,
);

// The class's fields: one Output per declared output.
export interface Trigger extends OutputFields<typeof TRIGGER> {}

/**
 * A trigger that invokes a function of a branch (named by its slug, so declare it after the
 * `Function`): on a `schedule` (`cron`) or when an object is created in a bucket
 * (`storage_object_created`, `bucketName` and an optional `prefix`). Every field but the type is
 * changed in place; a new type replaces it. `pulumi import` takes `<projectId>/<branchId>/<triggerId>`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class Trigger extends DynamicResource {
  constructor(name: string, args: TriggerArgs, opts?: pulumi.CustomResourceOptions) {
    super(TRIGGER, name, args, opts);
  }
}
