// The five-field UTC cron expressions of schedule triggers (docs/api-rules.md §27): minute, hour,
// day of month, month and day of week, each `*`, a number, a range `a-b`, either with a step `/n`
// (a number with a step runs to the field's end), or a comma-separated list of these; Sunday is 0
// or 7. As in the classic cron, when both day fields are restricted a day matching either one
// runs. Written here rather than taken from a library: the form is this small, and the libraries
// add names, seconds and time zones the API does not take. The provider checks the same form at
// preview in its own package (provider/resources/inputs/cron.ts): the two packages share no code.

/** A parsed expression: the values each field admits, in ascending order. */
export interface CronSchedule {
  minutes: readonly number[];
  hours: readonly number[];
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 (Sunday) to 6. */
  weekdays: ReadonlySet<number>;
  /** Both day fields are restricted (neither starts with `*`): a day matching either runs. */
  eitherDay: boolean;
}

/** An expression that is not one the triggers take; the message says which field and why. */
export class CronError extends Error {}

/** Each field's name and the values it admits. */
const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

const PART = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/;

/** The values one field admits, from `min` to `max`; throws a CronError naming what is wrong. */
function fieldValues(field: string, rule: (typeof FIELDS)[number]): number[] {
  const values = new Set<number>();
  for (const part of field.split(",")) {
    const match = PART.exec(part);
    if (match === null)
      throw new CronError(
        `its ${rule.name} field ${JSON.stringify(field)} is not \`*\`, a number, a range a-b or a step /n`,
      );
    const [, , from, to, stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    const lo = from === undefined ? rule.min : Number(from);
    const hi = to !== undefined ? Number(to) : from === undefined || stepText !== undefined ? rule.max : lo;
    for (const value of [lo, hi])
      if (value < rule.min || value > rule.max)
        throw new CronError(`its ${rule.name} field holds ${value}, outside ${rule.min}-${rule.max}`);
    if (hi < lo)
      throw new CronError(`its ${rule.name} field holds the range ${lo}-${hi}, which ends before it starts`);
    if (step < 1) throw new CronError(`its ${rule.name} field holds a step of 0`);
    for (let value = lo; value <= hi; value += step) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

/** Parses an expression (surrounding spaces ignored, one space between fields); throws a CronError when it is not one. */
export function parseCron(text: string): CronSchedule {
  const fields = text.trim().split(" ");
  if (fields.length !== FIELDS.length)
    throw new CronError(`it has ${fields.length} fields separated by single spaces, not 5`);
  const [minutes, hours, days, months, weekdays] = FIELDS.map((rule, i) =>
    fieldValues(fields[i] ?? "", rule),
  );
  return {
    minutes: minutes ?? [],
    hours: hours ?? [],
    days: new Set(days),
    months: new Set(months),
    weekdays: new Set(weekdays?.map((d) => d % 7)),
    eitherDay: !fields[2]?.startsWith("*") && !fields[4]?.startsWith("*"),
  };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** How far ahead a run is looked for: past a leap day's next return (29 February). */
const SEARCH_DAYS = 8 * 366;

/** Whether the schedule runs on the UTC day that starts at `dayMs`. */
function runsOn(schedule: CronSchedule, dayMs: number): boolean {
  const day = new Date(dayMs);
  if (!schedule.months.has(day.getUTCMonth() + 1)) return false;
  const date = schedule.days.has(day.getUTCDate());
  const weekday = schedule.weekdays.has(day.getUTCDay());
  return schedule.eitherDay ? date || weekday : date && weekday;
}

/** The first whole UTC minute after `afterMs` the schedule runs at; undefined when none comes (30 February). */
export function nextRun(schedule: CronSchedule, afterMs: number): number | undefined {
  const first = Math.floor(afterMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const firstDay = Math.floor(first / DAY_MS) * DAY_MS;
  for (let day = firstDay; day < firstDay + SEARCH_DAYS * DAY_MS; day += DAY_MS) {
    if (!runsOn(schedule, day)) continue;
    for (const hour of schedule.hours)
      for (const minute of schedule.minutes) {
        const at = day + hour * HOUR_MS + minute * MINUTE_MS;
        if (at >= first) return at;
      }
  }
  return undefined;
}
