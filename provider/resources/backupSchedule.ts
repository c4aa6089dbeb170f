import { z } from "zod";
import type { BackupScheduleItem, CloudDbClient } from "../client";
import { NotFoundError } from "../client/errors";
import { unfinished } from "./errors";
import { idInput, ProjectOfBranchInput } from "./inputs/common";
import { declaredInputs } from "./lifecycle/check";
import { compact, defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import {
  BACKUP_FREQUENCY,
  BACKUP_SCHEDULE,
  type BackupScheduleEntry,
  type BackupScheduleInputs,
  type BackupScheduleOutputs,
} from "./public/backupSchedule";
import { carrierOf } from "./restores";

export type { BackupScheduleInputs, BackupScheduleOutputs } from "./public/backupSchedule";

// ---------------------------------------------------------------- inputs

const FREQUENCIES = BACKUP_FREQUENCY.enum;
const bounded = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} must be a whole number from ${min} to ${max}` })
    .int(`${what} must be a whole number from ${min} to ${max}`)
    .min(min, `${what} must be a whole number from ${min} to ${max}`)
    .max(max, `${what} must be a whole number from ${min} to ${max}`)
    .optional();

const EntryInput = z
  .object({
    frequency: z.enum(FREQUENCIES, { error: `schedule[].frequency is one of ${FREQUENCIES.join(", ")}` }),
    hour: bounded("schedule[].hour", 0, 23),
    day: bounded("schedule[].day", 1, 31),
    month: bounded("schedule[].month", 1, 12),
    retentionSeconds: z
      .number({ error: "schedule[].retentionSeconds must be a whole number of seconds, at least 3600" })
      .int("schedule[].retentionSeconds must be a whole number of seconds, at least 3600")
      .min(
        3600,
        "schedule[].retentionSeconds must be at least 3600 (an hour): the service keeps a snapshot that long at least",
      )
      .optional(),
  })
  .refine((e) => e.frequency !== "weekly" || e.day === undefined || e.day <= 7, {
    path: ["day"],
    message: "schedule[].day of a weekly entry is a weekday, 1 (Monday) to 7",
  });

/** Inputs as the provider sees them. */
export const BackupScheduleInputsSchema = z.object({
  projectId: ProjectOfBranchInput,
  branchId: idInput("branchId", "branch", "the branch to take snapshots of (br-...)"),
  schedule: z
    .array(EntryInput, { error: 'schedule must be a list such as [{ frequency: "daily", hour: 3 }]' })
    .min(1, "schedule needs at least one entry; to stop scheduled snapshots, delete the BackupSchedule"),
});

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof BackupScheduleInputsSchema>, BackupScheduleInputs>;

// ---------------------------------------------------------------- API calls

/** A branch's backup schedule: one PUT sets it, an empty one ends it. */
export const backupScheduleDefinition = defineResource<BackupScheduleInputs, BackupScheduleOutputs>(
  BACKUP_SCHEDULE,
  {
    onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
    inputs: BackupScheduleInputsSchema,
    id: (outs) => outs.branchId,

    // Setting a schedule twice sets the same one: a create repeated after a killed run converges.
    async create({ client }, inputs) {
      return applied(client, inputs, inputs.branchId, true);
    },

    /** The branch's schedule as it is; a branch without one has nothing to import. */
    async readExisting({ client }, inputs, branchId) {
      const schedule = await client.getBackupSchedule(inputs.projectId, branchId);
      if (schedule.length === 0) {
        throw new NotFoundError(`branch ${branchId} has no backup schedule to import`);
      }
      return outputsOf({ ...inputs, schedule: schedule.map(entryOf) }, branchId, schedule);
    },

    /** The schedule of the branch that carries the schedule's branch now; an empty one is gone. */
    async read({ client }, _id, props) {
      if (props === undefined) return undefined;
      const branchId = await carrierOf(client, props.projectId, props.branchId);
      const schedule = await client.getBackupSchedule(props.projectId, branchId);
      if (schedule.length === 0) return undefined;
      return { ...props, branchId, schedule: schedule.map(entryOf) };
    },

    update: ({ client }, _id, outs) => applied(client, { ...outs, schedule: outs.schedule }, outs.branchId),

    async remove({ client }, _id, props) {
      await client.setBackupSchedule(props.projectId, props.branchId, []);
    },
  },
);

/** Sets the branch's schedule to the declared entries, then reads it back as the service holds it. */
async function applied(
  client: CloudDbClient,
  inputs: BackupScheduleInputs,
  branchId: string,
  creating = false,
): Promise<BackupScheduleOutputs> {
  const entries = inputs.schedule.map((e) =>
    compact({
      frequency: e.frequency,
      hour: e.hour,
      day: e.day,
      month: e.month,
      retention_seconds: e.retentionSeconds,
    }),
  );
  await client.setBackupSchedule(inputs.projectId, branchId, entries);
  try {
    return outputsOf(inputs, branchId, await client.getBackupSchedule(inputs.projectId, branchId));
  } catch (err) {
    // A create's schedule is set: recorded as declared, so destroy empties it and the next `up` reads it.
    if (!creating) throw err;
    const declared: BackupScheduleOutputs = {
      ...declaredInputs<BackupScheduleInputs>(BackupScheduleInputsSchema, inputs),
      branchId,
    };
    throw unfinished("backup schedule", branchId, inputs, declared, err);
  }
}

/** An entry in the inputs' names; a frequency the service adds later is kept as it says it. */
function entryOf(item: BackupScheduleItem): BackupScheduleEntry {
  return compact({
    frequency: item.frequency as BackupScheduleEntry["frequency"],
    hour: item.hour ?? undefined,
    day: item.day ?? undefined,
    month: item.month ?? undefined,
    retentionSeconds: item.retention_seconds ?? undefined,
  });
}

function outputsOf(
  inputs: BackupScheduleInputs,
  branchId: string,
  schedule: readonly BackupScheduleItem[],
): BackupScheduleOutputs {
  return {
    ...declaredInputs<BackupScheduleInputs>(BackupScheduleInputsSchema, inputs),
    branchId,
    schedule: schedule.map(entryOf),
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } =
  providerMethods(backupScheduleDefinition);
