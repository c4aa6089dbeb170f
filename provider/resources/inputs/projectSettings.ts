/**
 * A project's maintenance window and consumption quotas (`docs/api-rules.md` §11), as inputs and in
 * the API's names. The window's days are 1 (Monday) to 7 (Sunday), each once, its times `HH:MM`
 * in UTC; a quota is a whole number, 0 or left out meaning unlimited. Checked at preview, so a typo
 * fails before anything is sent.
 */
import { z } from "zod";
import type { MaintenanceWindow, ProjectQuota } from "../public/project";

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = (input: unknown) =>
  `a day is a whole number from 1 (Monday) to 7 (Sunday), not ${JSON.stringify(input)}`;
const clockTime = (field: string) =>
  z
    .string({ error: `maintenanceWindow.${field} must be a UTC time written HH:MM, e.g. 02:00` })
    .regex(CLOCK_TIME, `maintenanceWindow.${field} must be a UTC time written HH:MM, from 00:00 to 23:59`);

/** The `maintenanceWindow` input. */
export const MaintenanceWindowInput = z.object({
  weekdays: z
    .array(
      z
        .number({ error: (issue) => DAY(issue.input) })
        .int({ error: (issue) => DAY(issue.input) })
        .min(1, { error: (issue) => DAY(issue.input) })
        .max(7, { error: (issue) => DAY(issue.input) }),
      { error: "maintenanceWindow.weekdays must be a list of days, 1 (Monday) to 7 (Sunday)" },
    )
    .min(1, "maintenanceWindow.weekdays must list at least one day, 1 (Monday) to 7 (Sunday)")
    .refine((days) => new Set(days).size === days.length, "maintenanceWindow.weekdays lists a day twice"),
  startTime: clockTime("startTime"),
  endTime: clockTime("endTime"),
});

/** The quotas, in the inputs' names and the API's. */
const QUOTAS = {
  activeTimeSeconds: "active_time_seconds",
  computeTimeSeconds: "compute_time_seconds",
  writtenDataBytes: "written_data_bytes",
  dataTransferBytes: "data_transfer_bytes",
  logicalSizeBytes: "logical_size_bytes",
} as const satisfies Record<keyof ProjectQuota, string>;

const quotaField = (name: string) => {
  const message = `quota.${name} must be a whole number, 0 or more (0 is unlimited)`;
  return z.number({ error: message }).int(message).min(0, message).optional();
};

/** The `quota` input. */
export const ProjectQuotaInput = z.object(
  Object.fromEntries(Object.keys(QUOTAS).map((name) => [name, quotaField(name)])) as {
    [K in keyof ProjectQuota]-?: ReturnType<typeof quotaField>;
  },
);

/** A maintenance window in the API's names (a type, not an interface: it goes into the loose `settings` object). */
export type ApiMaintenanceWindow = { weekdays: number[]; start_time: string; end_time: string };

/** The window as the API takes it. */
export function apiMaintenanceWindow(window: MaintenanceWindow): ApiMaintenanceWindow {
  return { weekdays: window.weekdays, start_time: window.startTime, end_time: window.endTime };
}

/** The API's window in the inputs' names; undefined when the project has none. */
export function maintenanceWindowOf(
  window: ApiMaintenanceWindow | null | undefined,
): MaintenanceWindow | undefined {
  if (window === null || window === undefined) return undefined;
  return { weekdays: window.weekdays, startTime: window.start_time, endTime: window.end_time };
}

/** Whether two windows are the same, whatever the order of their days. */
export function sameWindow(a: MaintenanceWindow | undefined, b: unknown): boolean {
  const other = b as MaintenanceWindow | undefined;
  if (a === undefined || other === undefined) return a === other;
  const days = (w: MaintenanceWindow) => JSON.stringify([...w.weekdays].sort());
  return days(a) === days(other) && a.startTime === other.startTime && a.endTime === other.endTime;
}

/** The quotas as the API takes them; those left out are sent as 0 (unlimited), since the API replaces the whole object. */
export function apiQuota(quota: ProjectQuota): Record<string, number> {
  return Object.fromEntries(
    Object.entries(QUOTAS).map(([name, api]) => [api, quota[name as keyof ProjectQuota] ?? 0]),
  );
}

/** The API's quotas in the inputs' names, the unlimited ones (0 or absent) left out. */
export function quotaOf(quota: Record<string, unknown> | null | undefined): ProjectQuota {
  const out: ProjectQuota = {};
  for (const [name, api] of Object.entries(QUOTAS)) {
    const value = quota?.[api];
    if (typeof value === "number" && value > 0) out[name as keyof ProjectQuota] = value;
  }
  return out;
}

/** Whether two sets of quotas are the same, a quota left out being unlimited (0). */
export function sameQuota(a: ProjectQuota | undefined, b: unknown): boolean {
  const other = (b ?? {}) as ProjectQuota;
  return (Object.keys(QUOTAS) as (keyof ProjectQuota)[]).every((k) => (a?.[k] ?? 0) === (other[k] ?? 0));
}
