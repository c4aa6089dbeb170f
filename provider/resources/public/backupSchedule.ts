/**
 * The public part of {@link BackupSchedule}: its declaration, and the class and types derived from
 * it. The definition (inputs schema, API calls) is `../backupSchedule.ts`, loaded only in the
 * provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../lifecycle/lazyProvider";
import { arrayOf, declareResource, enumOf, INTEGER, objectType, STRING } from "./declare";
import { DynamicResource } from "./resource";
import type { ArgsOf, InputsOf, ObjectOf, OutputFields, StateOf, ValueOf } from "./shapes";

/** How often the service takes a scheduled snapshot. */
export const BACKUP_FREQUENCY = enumOf("BackupFrequency", ["hourly", "daily", "weekly", "monthly", "yearly"]);

/** How often the service takes a scheduled snapshot. */
export type BackupFrequency = ValueOf<typeof BACKUP_FREQUENCY>;

/** One entry of a backup schedule: when the service takes a snapshot, and how long it keeps it. */
export const BACKUP_ENTRY = objectType("BackupScheduleEntry", {
  /** `hourly`, `daily`, `weekly`, `monthly` or `yearly`. */
  frequency: { type: BACKUP_FREQUENCY },
  /** The hour (0-23, UTC) a daily, weekly, monthly or yearly snapshot is taken; default 0. */
  hour: { type: INTEGER, optional: true },
  /** The day a weekly (1 Monday to 7), monthly or yearly (1-31) snapshot is taken; default 1. */
  day: { type: INTEGER, optional: true },
  /** The month (1-12) a yearly snapshot is taken in, or the one month a monthly entry runs in; left out, a monthly entry runs every month. */
  month: { type: INTEGER, optional: true },
  /** How long each snapshot is kept, in seconds (at least 3600); left out, until deleted. */
  retentionSeconds: { type: INTEGER, optional: true },
});

/** One backup schedule entry, in the inputs' names. */
export interface BackupScheduleEntry extends ObjectOf<typeof BACKUP_ENTRY.properties> {}

/** A branch's backup schedule, declared. */
export const BACKUP_SCHEDULE = declareResource({
  type: "BackupSchedule",
  noun: "backup schedule",
  family: "snapshots",
  importId: ["projectId", "branchId"],
  inputs: {
    /** The project of the branch. Changing it replaces the schedule. */
    projectId: { type: STRING, required: true, change: "replace" },
    /** The branch the service takes the snapshots of. Changing it replaces the schedule. */
    branchId: { type: STRING, required: true, change: "replace" },
    /** The entries, at least one; changed in place. Deleting the resource empties the branch's schedule. */
    schedule: { type: arrayOf(BACKUP_ENTRY), required: true, change: "update" },
  },
  outputs: {
    /** The project id. */
    projectId: { type: STRING },
    /** The branch that carries the schedule's branch now (a finalized restore moves the schedule with the name). */
    branchId: { type: STRING },
    /** The entries as the service holds them. */
    schedule: { type: arrayOf(BACKUP_ENTRY) },
  },
});

/** Inputs of a {@link BackupSchedule}. */
export interface BackupScheduleArgs extends ArgsOf<typeof BACKUP_SCHEDULE> {}

/** The plain inputs as the provider sees them. */
export interface BackupScheduleInputs extends InputsOf<typeof BACKUP_SCHEDULE> {}

/** Everything the state records of a backup schedule. */
export interface BackupScheduleOutputs extends StateOf<typeof BACKUP_SCHEDULE> {}

/** The dynamic provider of {@link BackupSchedule}: it loads `backupSchedule` when called (see `lazyProvider`). */
export const backupScheduleProvider: pulumi.dynamic.ResourceProvider<
  BackupScheduleInputs,
  BackupScheduleOutputs
> = lazyProvider(BACKUP_SCHEDULE.type);

// The class's fields: one Output per declared output.
export interface BackupSchedule extends OutputFields<typeof BACKUP_SCHEDULE> {}

/** The snapshots the service takes of a branch by itself (the branch's one backup schedule). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: Pulumi sets each field: the base class seeds every declared output.
export class BackupSchedule extends DynamicResource {
  constructor(name: string, args: BackupScheduleArgs, opts?: pulumi.CustomResourceOptions) {
    super(BACKUP_SCHEDULE, name, args, opts);
  }
}
